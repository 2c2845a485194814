package oracle

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/search"
	"github.com/tateti-lab/tateti-lab/solve"
)

// tableBits sizes search's transposition table: 2^24 entries of 16 bytes,
// 256 MiB.
const tableBits = 24

// searcher is the oracle of search: each legal move's child is searched,
// and the position weighed from them as every solve here weighs moves.
type searcher struct {
	rl rules.Rules
	s  *search.Solver
}

func newSearcher(rl rules.Rules) (*searcher, error) {
	sp := rl.Spec()
	if !sp.Gravity {
		return nil, fmt.Errorf("search answers gravity boards only (--gravity); free placement past %d cells is not solved yet", enumerate.MaxCells)
	}
	s, err := search.NewGravity(sp.Rows, sp.Cols, sp.K, sp.Misere, tableBits)
	if err != nil {
		return nil, err
	}
	return &searcher{rl: rl, s: s}, nil
}

func (o *searcher) Analyze(ctx context.Context, b game.Board) (solve.Analysis, error) {
	a := solve.Analysis{Spec: o.rl.Spec(), Board: b, Status: o.rl.Game().Status(b), Paths: -1, Oracle: "search"}
	if o.rl.Spec().HasIDs() {
		a.StateID = game.ID(b)
		a.CanonicalID, _ = o.rl.Canonical(a.StateID)
		a.HasIDs = true
	}
	if a.Status.Terminal() {
		_, a.Value = o.rl.Outcome(b)
		return a, nil
	}
	a.ToMove = b.ToMove()
	var err error
	if a.Moves, a.Value, a.Depth, err = o.moves(ctx, b); err != nil {
		return a, err
	}
	a.BestLine, err = o.bestLine(ctx, b, a.Moves)
	return a, err
}

// moves searches the child of every legal move of b, which is not over, and
// weighs them.
func (o *searcher) moves(ctx context.Context, b game.Board) ([]solve.Move, int8, int8, error) {
	cols := o.rl.Spec().Cols
	var ms []solve.Move
	for m := uint64(o.rl.Moves(b)); m != 0; m &= m - 1 {
		c := bits.TrailingZeros64(m)
		child := b.Play(c, b.ToMove())
		v, d, err := o.s.Solve(ctx, uint64(child.X), uint64(child.O))
		if err != nil {
			return nil, 0, 0, err
		}
		mv := solve.Move{Cell: c, Row: c / cols, Col: c % cols, Value: v, Depth: d}
		if o.rl.Spec().HasIDs() {
			mv.Child = game.ID(child)
		}
		ms = append(ms, mv)
	}
	v, d := solve.Weigh(b.ToMove(), ms)
	return ms, v, d, nil
}

// bestLine follows the first best move, in cell order, from b (whose moves
// ms are weighed) to the end of the game.
func (o *searcher) bestLine(ctx context.Context, b game.Board, ms []solve.Move) ([]int, error) {
	var line []int
	for {
		i := 0
		for !ms[i].Best {
			i++
		}
		b = b.Play(ms[i].Cell, b.ToMove())
		line = append(line, ms[i].Cell)
		if over, _ := o.rl.Outcome(b); over {
			return line, nil
		}
		var err error
		if ms, _, _, err = o.moves(ctx, b); err != nil {
			return nil, err
		}
	}
}
