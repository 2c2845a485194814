// Package search owns perfect play of one position at a time, by search
// rather than by exhausting the game: the exact value (for X) and depth of a
// position of a gravity game (Connect Four and its m,n,k relatives, normal
// or misère), on boards whose columns, each with one spare bit, fit 64 bits
// (7x6 and 8x7 among them). It is the negamax with alpha-beta and a
// transposition table of Pascal Pons' Connect Four solver, over his bit
// layout, with the lab's conventions: the winner wins fastest and the loser
// loses slowest, and a draw's depth is the empty cells.
//
// Scores: a game that ends at ply P (marks on the board) in a win is worth
// cells+1-P to the winner and its opposite to the loser, a draw 0; so a
// faster win scores more, a slower loss less badly, and any win more than a
// draw. Negamax gives each position the score of its side to move.
package search

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
)

// Solver answers positions of one gravity game. It keeps a transposition
// table across positions; it is for one goroutine.
type Solver struct {
	g      *geometry
	misere bool
	cells  int
	tt     table
	// Nodes counts the positions searched, for a measure of the work.
	Nodes uint64
	ctx   context.Context // the search in progress stops when it is done
	// stopped says that ctx was found done: every score since is void, and
	// none is kept.
	stopped bool
}

// checkEvery is how many nodes pass between looks at the context: a look
// costs a few nanoseconds, and 4,096 nodes take about 2 ms.
const checkEvery = 1 << 12

// NewGravity gives a solver of the gravity game of rows x cols, k in a row,
// normal or misère, with a transposition table of 1<<tableBits entries.
func NewGravity(rows, cols, k int, misere bool, tableBits int) (*Solver, error) {
	if rows < 1 || cols < 1 || k < 1 || cols*(rows+1) > 64 {
		return nil, fmt.Errorf("a %dx%d gravity board takes %d bits with its spare row, and search holds 64 (8 columns of 7 rows)", rows, cols, cols*(rows+1))
	}
	return &Solver{g: newGeometry(rows, cols, k), misere: misere, cells: rows * cols, tt: newTable(tableBits)}, nil
}

// Solve gives the value for X (+1 X wins, 0 draw, -1 O wins) and the depth
// of the position whose X and O marks are the cells of x and o, numbered
// row-major from the top left as package game numbers them. The position
// must be one that can arise in play. When ctx is done first, it gives ctx's
// error; the solver stays usable, its table holding only finished work.
func (s *Solver) Solve(ctx context.Context, x, o uint64) (value, depth int8, err error) {
	var bx, bo uint64
	for m := x; m != 0; m &= m - 1 {
		bx |= 1 << s.g.bitOf(bits.TrailingZeros64(m))
	}
	for m := o; m != 0; m &= m - 1 {
		bo |= 1 << s.g.bitOf(bits.TrailingZeros64(m))
	}
	if bx&bo != 0 || (bx|bo)&^s.g.full != 0 {
		return 0, 0, errors.New("search: overlapping or off-board marks")
	}
	moves := marks(bx | bo)
	xToMove := marks(bx) == marks(bo)
	switch {
	case s.g.lined(bx) || s.g.lined(bo): // over: the last mover made the line
		v := int8(1)
		if s.g.lined(bo) {
			v = -1
		}
		if s.misere {
			v = -v
		}
		return v, 0, nil
	case moves == s.cells:
		return 0, 0, nil
	}
	pos := bo
	if xToMove {
		pos = bx
	}
	s.ctx, s.stopped = ctx, false
	score := s.exact(pos, bx|bo, moves)
	if s.stopped {
		return 0, 0, ctx.Err()
	}
	return s.value(score, xToMove), s.depth(score, moves), nil
}

// exact gives the score of a position by null-window searches that narrow
// the range it can lie in, each asking whether it is above a guess, as Pons'
// solver does: a null window prunes the most, and the table carries what one
// search learns to the next. The guesses halve toward 0 first, where most
// positions' scores lie.
func (s *Solver) exact(pos, mask uint64, moves int) int {
	lo, hi := -(s.cells - moves), s.cells-moves
	for lo < hi && !s.stopped {
		med := lo + (hi-lo)/2
		switch {
		case med <= 0 && lo/2 < med:
			med = lo / 2
		case med >= 0 && hi/2 > med:
			med = hi / 2
		}
		if r := s.negamax(pos, mask, moves, med, med+1); r <= med {
			hi = r
		} else {
			lo = r
		}
	}
	return lo
}

// value gives a score of the side to move as a value for X.
func (s *Solver) value(score int, xToMove bool) int8 {
	v := int8(0)
	switch {
	case score > 0:
		v = 1
	case score < 0:
		v = -1
	}
	if !xToMove {
		v = -v
	}
	return v
}

// depth gives the plies from a position of moves marks to the end, from its
// score: a win or loss ends at ply cells+1-|score|, a draw on a full board.
func (s *Solver) depth(score, moves int) int8 {
	if score == 0 {
		return int8(s.cells - moves)
	}
	return int8(s.cells + 1 - max(score, -score) - moves)
}

// negamax gives the score of the side to move, whose marks are pos, among
// all marks mask (moves of them), within (alpha, beta): exact inside it, a
// bound outside.
func (s *Solver) negamax(pos, mask uint64, moves, alpha, beta int) int {
	if s.Nodes++; s.Nodes%checkEvery == 0 && s.ctx.Err() != nil {
		s.stopped = true
	}
	if s.stopped {
		return 0
	}
	cand := s.g.playable(mask)
	if !s.misere {
		var sc int
		var done bool
		if cand, sc, done = s.anticipate(pos, mask, moves, cand); done {
			return sc
		}
		// The earliest win is on the next move but one, if the board has
		// room for it, and the earliest loss after the opponent's next
		// move but one, as no move now gives it a line at once.
		if most := max(s.cells-moves-2, 0); beta > most {
			if beta = most; alpha >= beta {
				return beta
			}
		}
		if least := min(-(s.cells - moves - 3), 0); alpha < least {
			if alpha = least; alpha >= beta {
				return alpha
			}
		}
	}
	key := pos + mask
	alpha, beta, v, settled := s.probe(key, alpha, beta)
	if settled {
		return v
	}
	alpha0 := alpha // the window searched: what the score found bounds
	best := -s.cells - 1
	var order [64]uint64
	for _, st := range s.ordered(pos, mask, cand, order[:0]) {
		sc := s.child(pos, mask, moves, st, alpha, beta)
		best = max(best, sc)
		if alpha = max(alpha, best); alpha >= beta {
			break
		}
	}
	flag := exact
	switch {
	case best <= alpha0:
		flag = upper
	case best >= beta:
		flag = lower
	}
	if !s.stopped {
		s.tt.put(key, best, flag)
	}
	return best
}

// anticipate looks one move ahead under normal play: a line now is the best
// there is; when the opponent threatens two cells, or every move leaves it a
// line, the position is lost at its next move. Otherwise it keeps of the
// moves cand those that leave the opponent no line: the one that blocks its
// threat, if it has one, and none right below a cell it would win on.
func (s *Solver) anticipate(pos, mask uint64, moves int, cand uint64) (keep uint64, score int, done bool) {
	g := s.g
	if g.winning(pos)&cand != 0 {
		return 0, s.cells - moves, true
	}
	lost := -(s.cells - moves - 1)
	theirs := g.winning(mask^pos) &^ mask
	if forced := cand & theirs; forced != 0 {
		if forced&(forced-1) != 0 {
			return 0, lost, true
		}
		cand = forced
	}
	if cand &^= theirs >> 1; cand == 0 {
		return 0, lost, true
	}
	return cand, 0, false
}

// ordered appends to dst the stones of the moves cand, those that make the
// most cells the side to move would win on first, then the centre first.
func (s *Solver) ordered(pos, mask, cand uint64, dst []uint64) []uint64 {
	var score [64]int
	for i := range s.g.cols {
		st := cand & s.g.column(s.g.order[i])
		if st == 0 {
			continue
		}
		n := 0
		if !s.misere {
			n = bits.OnesCount64(s.g.winning(pos|st) &^ (mask | st))
		}
		// Insertion: a later move goes after the ones that score as well.
		k := len(dst)
		dst = append(dst, st)
		for ; k > 0 && score[k-1] < n; k-- {
			dst[k], score[k] = dst[k-1], score[k-1]
		}
		dst[k], score[k] = st, n
	}
	return dst
}

// probe narrows the window (alpha, beta) by what the table knows of key,
// and says when that settles the score, v.
func (s *Solver) probe(key uint64, alpha, beta int) (a, b, v int, settled bool) {
	v, flag, ok := s.tt.get(key)
	switch {
	case !ok:
		return alpha, beta, 0, false
	case flag == exact:
		return alpha, beta, v, true
	case flag == lower:
		alpha = max(alpha, v)
	default:
		beta = min(beta, v)
	}
	return alpha, beta, v, alpha >= beta
}

// child gives the score, for the side to move, of the move to the cell st.
func (s *Solver) child(pos, mask uint64, moves int, st uint64, alpha, beta int) int {
	mine := pos | st
	switch {
	case s.g.lined(mine): // only under misère: normal play returned already
		return -(s.cells - moves)
	case moves+1 == s.cells:
		return 0
	}
	after := mask | st
	return -s.negamax(after^mine, after, moves+1, -beta, -alpha)
}
