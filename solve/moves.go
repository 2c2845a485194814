package solve

import (
	"context"
	"math/bits"

	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Move is one legal move and the value and depth of the position it makes.
type Move struct {
	Cell  int    `json:"cell"`
	Row   int    `json:"row"`
	Col   int    `json:"col"`
	Child uint64 `json:"-"`
	Value int8   `json:"value"`
	Depth int8   `json:"depth"`
	Best  bool   `json:"best"`
}

// Moves lists the legal moves of position i in cell order (none when the game
// is over), with the value and depth of each child.
func (r *Result) Moves(i int) []Move { return r.AppendMoves(nil, i) }

// AppendMoves appends the legal moves of position i to dst, as Moves lists them.
func (r *Result) AppendMoves(dst []Move, i int) []Move {
	e := r.Enum
	if e.Status[i].Terminal() {
		return dst
	}
	b := e.Board(i)
	s := e.Rules.Spec()
	mover := b.ToMove()
	id := uint64(e.IDs[i])
	for m := e.Rules.Moves(b); m != 0; m &= m - 1 {
		c := bits.TrailingZeros64(uint64(m))
		child := id + uint64(mover)*game.Pow3(c)
		j, _ := e.Lookup(child)
		dst = append(dst, Move{Cell: c, Row: c / s.Cols, Col: c % s.Cols, Child: child,
			Value: r.Value[j], Depth: r.Depth[j], Best: r.Best[i]>>c&1 == 1})
	}
	return dst
}

// Analysis is one position analysed with perfect play.
type Analysis struct {
	Spec   rules.Spec
	Board  game.Board
	Status game.Status
	ToMove game.Cell // game.Empty when the game is over
	Value  int8
	Depth  int8
	Moves  []Move // every legal move in cell order; none when the game is over

	// The board's state id and the smallest over the rules' symmetries;
	// set when HasIDs (boards of at most game.MaxIDCells cells).
	StateID, CanonicalID uint64
	HasIDs               bool
	Paths                int64  // move sequences from the empty board that reach it; -1 when not counted
	BestLine             []int  // cells of a line of perfect play to the end
	Oracle               string // who answered: "table" (the game solved exhaustively) or "search"

	// Proved is set when the answer is not settled (a search stopped by
	// its time limit): what is proved of the value. Value, Depth, Moves
	// and BestLine are then not known, and left empty.
	Proved *Bounds
}

// Analyze solves the positions reachable from b (and only those) and returns
// b's value, depth and every legal move. A board that cannot arise in play
// gives a *rules.UnreachableError.
func Analyze(ctx context.Context, rl rules.Rules, b game.Board, workers int) (Analysis, error) {
	e, err := enumerate.From(ctx, rl, b, workers)
	if err != nil {
		return Analysis{}, err
	}
	r, err := Enumeration(ctx, e, workers)
	if err != nil {
		return Analysis{}, err
	}
	i, _ := e.Lookup(game.ID(b))
	return r.Analysis(i), nil
}

// BestLine gives a line of perfect play from position i to the end of the
// game: at each position the first of its best moves, in cell order.
func (r *Result) BestLine(i int) []int {
	var line []int
	e := r.Enum
	for !e.Status[i].Terminal() {
		c := bits.TrailingZeros64(uint64(r.Best[i]))
		b := e.Board(i)
		line = append(line, c)
		i, _ = e.Lookup(game.ID(b.Play(c, b.ToMove())))
	}
	return line
}

// Analysis gives position i of the solved game as Analyze would, without
// solving anything again.
func (r *Result) Analysis(i int) Analysis {
	e := r.Enum
	b := e.Board(i)
	a := Analysis{Spec: e.Rules.Spec(), Board: b, Status: e.Status[i], Value: r.Value[i], Depth: r.Depth[i], Moves: r.Moves(i),
		StateID: e.IDs[i], CanonicalID: e.Canon[i], HasIDs: true, Paths: e.Paths[i], BestLine: r.BestLine(i), Oracle: "table"}
	if !e.FromStart() { // paths from a later root are not paths from the start
		a.Paths = enumerate.PathsTo(e.Rules, b)
	}
	if !a.Status.Terminal() {
		a.ToMove = b.ToMove()
	}
	return a
}

// Weigh chooses among the moves ms of a position where mover is to move,
// each with its child's value (for X) and depth, as every solve here does:
// it marks the best moves (the best value for the mover, then the fastest
// win or the slowest loss) and gives the position's value and depth.
func Weigh(mover game.Cell, ms []Move) (value, depth int8) {
	sign := Sign(mover)
	pk := newPick()
	for _, m := range ms {
		pk.add(m.Cell, sign*m.Value, m.Depth)
	}
	for i := range ms {
		ms[i].Best = pk.best>>ms[i].Cell&1 != 0
	}
	return sign * pk.value, pk.depth + 1
}

// MovesBy gives the legal moves of b, whose game goes on, in cell order,
// each with the value (for X) and depth child gives its child, weighed as
// Weigh weighs them, and b's value and depth: for an oracle that knows one
// position at a time (search, a database).
func MovesBy(rl rules.Rules, b game.Board, child func(game.Board) (value, depth int8, err error)) ([]Move, int8, int8, error) {
	cols := rl.Spec().Cols
	var ms []Move
	for m := uint64(rl.Moves(b)); m != 0; m &= m - 1 {
		c := bits.TrailingZeros64(m)
		after := b.Play(c, b.ToMove())
		v, d, err := child(after)
		if err != nil {
			return nil, 0, 0, err
		}
		mv := Move{Cell: c, Row: c / cols, Col: c % cols, Value: v, Depth: d}
		if rl.Spec().HasIDs() {
			mv.Child = game.ID(after)
		}
		ms = append(ms, mv)
	}
	v, d := Weigh(b.ToMove(), ms)
	return ms, v, d, nil
}
