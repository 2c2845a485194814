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
	"math/bits"

	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/hugepage"
	"github.com/tateti-lab/tateti-lab/internal/par"
	"github.com/tateti-lab/tateti-lab/internal/progress"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Result holds the solution of every position of Enum, in Enum's order.
type Result struct {
	Enum  *enumerate.Result
	Value []perfect.Value // for X, with perfect play
	Depth []perfect.Depth // plies to the end with perfect play
	Best  []uint32        // the cells of the best moves: best value, then best depth (boards of at most 25 cells)
	Win   []uint8         // moves that win for the side to move
	Draw  []uint8         // moves that draw
	Lose  []uint8         // moves that lose
}

// Enumeration solves every position of e using up to workers goroutines. The result
// does not depend on workers.
func Enumeration(ctx context.Context, e *enumerate.Result, workers int) (*Result, error) {
	n := e.Len()
	r := &Result{Enum: e, Value: hugepage.Make[perfect.Value](n, n), Depth: hugepage.Make[perfect.Depth](n, n),
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
		r.Value[i] = perfect.Of(e.Rules.Winner(st))
		return
	}
	id := e.IDs[i]
	b := game.FromID(id)
	mover := b.ToMove()
	// The children are looked up first and weighed after, so that their
	// lookups, each a few reads at random places, overlap.
	moves := e.Rules.Playable(b) // the game goes on: st is not terminal
	n := e.Index.Children(kids, id, uint64(mover), moves)
	pk := perfect.NewPick() // values seen from the side to move
	m := uint64(moves)
	for _, j := range kids[:n] {
		pk.Add(bits.TrailingZeros64(m), r.Value[j].For(mover), r.Depth[j])
		m &= m - 1
	}
	v, d := pk.Result()
	r.Value[i], r.Depth[i], r.Best[i] = v.For(mover), d, uint32(pk.Best())
	r.Win[i], r.Draw[i], r.Lose[i] = pk.Counts()
}
