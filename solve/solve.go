// Package solve owns perfect play: for every position of an enumeration, its
// value (+1 X wins, 0 draw, -1 O wins), its depth (plies to the end when the
// winner wins fastest and the loser loses slowest), its best moves and how many
// moves win, draw or lose for the side to move; the game's summary; and the
// move-by-move analysis of one position. It solves ply by ply from the last
// layer back, memoized in the per-position arrays, in parallel. Legal moves
// and what a finished game is worth come from the rules of the enumeration.
// A game too large to enumerate is solved tier by tier (package tier).
package solve

import (
	"context"
	"math"
	"math/bits"

	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/hugepage"
	"github.com/tateti-lab/tateti-lab/internal/par"
	"github.com/tateti-lab/tateti-lab/internal/progress"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Result holds the solution of every position of Enum, in Enum's order.
type Result struct {
	Enum  *enumerate.Result
	Value []int8   // +1 X wins, 0 draw, -1 O wins, with perfect play
	Depth []int8   // plies to the end with perfect play
	Best  []uint32 // the cells of the best moves: best value, then best depth (boards of at most 25 cells)
	Win   []uint8  // moves that win for the side to move
	Draw  []uint8  // moves that draw
	Lose  []uint8  // moves that lose
}

// Enumeration solves every position of e using up to workers goroutines. The result
// does not depend on workers.
func Enumeration(ctx context.Context, e *enumerate.Result, workers int) (*Result, error) {
	n := e.Len()
	r := &Result{Enum: e, Value: hugepage.Make[int8](n, n), Depth: hugepage.Make[int8](n, n),
		Best: hugepage.Make[uint32](n, n), Win: hugepage.Make[uint8](n, n),
		Draw: hugepage.Make[uint8](n, n), Lose: hugepage.Make[uint8](n, n)}
	for p := e.Rules.Spec().Cells(); p >= 0; p-- {
		lo, hi := e.Layer(p)
		err := par.Ranges(ctx, lo, hi, workers, func(_ context.Context, _, a, b int) error {
			kids := make([]int, game.MaxCells) // scratch, one per range
			for i := a; i < b; i++ {
				r.solve(i, kids)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		progress.Report(ctx, "solve", p, int64(n-lo), int64(n))
	}
	return r, nil
}

// Game enumerates every position of the rules' game from the empty board
// and solves it: what every use of perfect play over a whole game starts
// with.
func Game(ctx context.Context, rl rules.Rules, workers int) (*Result, error) {
	e, err := enumerate.Game(ctx, rl, workers)
	if err != nil {
		return nil, err
	}
	return Enumeration(ctx, e, workers)
}

// solve fills position i from its children, which are solved already;
// kids is scratch space for their positions.
func (r *Result) solve(i int, kids []int) {
	e := r.Enum
	if st := e.Status[i]; st.Terminal() {
		r.Value[i] = e.Rules.Value(st)
		return
	}
	id := e.IDs[i]
	b := game.FromID(id)
	mover := b.ToMove()
	sign := Sign(mover) // values seen from the side to move
	// The children are looked up first and weighed after, so that their
	// lookups, each a few reads at random places, overlap.
	moves := e.Rules.Playable(b) // the game goes on: st is not terminal
	n := e.Index.Children(kids, id, uint64(mover), moves)
	pk := newPick()
	m := uint64(moves)
	for _, j := range kids[:n] {
		pk.add(bits.TrailingZeros64(m), sign*r.Value[j], r.Depth[j])
		m &= m - 1
	}
	r.Value[i], r.Depth[i], r.Best[i] = sign*pk.value, pk.depth+1, uint32(pk.best)
	r.Win[i], r.Draw[i], r.Lose[i] = pk.win(), pk.draw(), pk.lose()
}

// Sign is +1 for X and -1 for O: a value for X times the sign of a side is
// the value for that side.
func Sign(side game.Cell) int8 {
	if side == game.O {
		return -1
	}
	return 1
}

// pick chooses among a position's moves, seen from the side to move: the
// best value and depth, the best moves, and how many win, draw or lose.
type pick struct {
	score        int16 // the best score so far (see score)
	value, depth int8
	best         game.Mask
	counts       [4]uint8 // moves by value+1: lose, draw, win
}

func newPick() pick { return pick{score: math.MinInt16} }

// add weighs the move at cell c to a child of value v and depth d (value
// seen from the mover).
func (pk *pick) add(c int, v, d int8) {
	pk.counts[(v+1)&3]++
	s := score(v, d)
	if s > pk.score {
		pk.score, pk.value, pk.depth, pk.best = s, v, d, 0
	}
	if s == pk.score {
		pk.best |= 1 << c
	}
}

// Pick chooses among a position's moves one at a time, as Weigh does, for
// a solve that weighs children without making a Move of each.
type Pick struct{ pk pick }

// NewPick gives a Pick with no move yet.
func NewPick() Pick { return Pick{newPick()} }

// Add weighs a move to a child of value v and depth d, v seen from the
// mover; c is the move's cell.
func (p *Pick) Add(c int, v, d int8) { p.pk.add(c, v, d) }

// Result gives the position's value, seen from the mover, and depth.
func (p *Pick) Result() (value, depth int8) { return p.pk.value, p.pk.depth + 1 }

// win, draw and lose give how many moves win, draw and lose.
func (pk *pick) win() uint8  { return pk.counts[2] }
func (pk *pick) draw() uint8 { return pk.counts[1] }
func (pk *pick) lose() uint8 { return pk.counts[0] }

// score orders the moves to children of value v and depth d (value seen
// from the mover, depth at most 64): a higher value first, then a faster
// win or a slower loss. Drawn children all score alike, as they all have
// the same depth: the empty cells left.
func score(v, d int8) int16 { return int16(v) * (256 - int16(d)) }
