package solve

import (
	"context"
	"math/bits"

	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Moves lists the legal moves of position i in cell order (none when the game
// is over), with the value and depth of each child.
func (r *Result) Moves(i int) []perfect.Move { return r.AppendMoves(nil, i) }

// AppendMoves appends the legal moves of position i to dst, as Moves lists them.
func (r *Result) AppendMoves(dst []perfect.Move, i int) []perfect.Move {
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
		mv := perfect.NewMove(s, c, r.Value[j], r.Depth[j])
		mv.Child, mv.Best = child, r.Best[i]>>c&1 == 1
		dst = append(dst, mv)
	}
	return dst
}

// Analyze solves the positions reachable from b (and only those) and returns
// b's value, depth and every legal move. A board that cannot arise in play
// gives a *rules.UnreachableError.
func Analyze(ctx context.Context, rl rules.Rules, b game.Board, workers int) (perfect.Analysis, error) {
	e, err := enumerate.From(ctx, rl, b, workers)
	if err != nil {
		return perfect.Analysis{}, err
	}
	r, err := Enumeration(ctx, e, workers)
	if err != nil {
		return perfect.Analysis{}, err
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
// solving anything again. Of a lean result (Lean) it finds the position's
// class and counts its paths itself.
func (r *Result) Analysis(i int) perfect.Analysis {
	e := r.Enum
	b := e.Board(i)
	a := perfect.Analysis{Spec: e.Rules.Spec(), Board: b, Status: e.Status[i], Value: r.Value[i], Depth: r.Depth[i], Moves: r.Moves(i),
		StateID: e.IDs[i], BestLine: r.BestLine(i), Engine: perfect.Memory, AnsweredBy: perfect.Memory}
	if e.Paths != nil { // completed (enumerate.Result.Complete)
		a.CanonicalID, a.Paths = e.Canon[i], e.Paths[i]
	} else {
		a.CanonicalID, _ = e.Rules.Canonical(e.IDs[i])
	}
	if e.Paths == nil || !e.FromStart() { // paths from a later root are not paths from the start
		a.Paths = enumerate.PathsTo(e.Rules, b)
	}
	if !a.Status.Terminal() {
		a.ToMove = b.ToMove()
	}
	return a
}
