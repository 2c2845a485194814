package enumerate

import (
	"context"
	"math/bits"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/hugepage"
	"github.com/tateti-lab/tateti-lab/internal/par"
	"github.com/tateti-lab/tateti-lab/internal/progress"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Paths: how many move sequences reach each position, and each position's
// class up to the symmetries.

// Complete computes what Positions leaves out: each position's canonical id and
// orbit, and its paths pulled from its parents, layer by layer in parallel
// ranges. It does nothing when they are there already.
func (r *Result) Complete(ctx context.Context, workers int) error {
	if r.Paths != nil {
		return nil
	}
	total := len(r.IDs)
	paths := hugepage.Make[int64](total, total)
	r.Canon = hugepage.Make[uint64](total, total)
	r.Orbit = hugepage.Make[uint8](total, total)
	p0 := r.Root.Ply()
	fromStart := r.FromStart() // Rules.Paths counts from the empty board
	for p := p0; p < len(r.Start)-1; p++ {
		lo, hi := r.Layer(p)
		err := par.Ranges(ctx, lo, hi, workers, func(_ context.Context, _, a, b int) error {
			for i := a; i < b; i++ {
				c, o := r.Rules.Canonical(r.IDs[i])
				r.Canon[i], r.Orbit[i] = c, uint8(o)
				if p == p0 {
					paths[i] = 1
					continue
				}
				b := game.FromID(r.IDs[i])
				n, ok := int64(0), false
				if fromStart {
					n, ok = r.Rules.Paths(b)
				}
				if !ok {
					n = r.pullPaths(paths, b, r.IDs[i], fromStart)
				}
				paths[i] = n
			}
			return nil
		})
		if err != nil {
			return err
		}
		progress.Report(ctx, "classes and paths", p, int64(hi), int64(total))
	}
	r.Paths = paths
	return nil
}

// pullPaths sums the paths of every parent of bd (state id id) whose legal
// moves reach bd; its parents' paths are known already. When the rules give
// a parent's paths (fromStart), no lookup is needed: under free placement,
// a board with a line has no parent with one.
func (r *Result) pullPaths(paths []int64, bd game.Board, id uint64, fromStart bool) int64 {
	return sumParents(r.Rules, bd, id, func(parent uint64) int64 {
		if fromStart {
			if n, ok := r.Rules.Paths(game.FromID(parent)); ok {
				return n
			}
		}
		// The legality test is done; the lookup, on a large board, a search.
		if j, ok := r.Index.Lookup(parent); ok {
			return paths[j]
		}
		return 0
	})
}

// sumParents sums paths(parent) over every parent of bd (state id id), as
// the rules' ParentCells gives them.
func sumParents(rl rules.Rules, bd game.Board, id uint64, paths func(parent uint64) int64) int64 {
	w := uint64(2) // O's digit
	if bd.ToMove() == game.O {
		w = 1
	}
	var sum int64
	for m := uint64(rl.ParentCells(bd)); m != 0; m &= m - 1 {
		sum += paths(id - w*game.Pow3(bits.TrailingZeros64(m)))
	}
	return sum
}

// PathsTo counts the move sequences from the empty board that reach b, as
// Game's Paths would, without enumerating the game: it walks back from b
// through its parents, each counted once. It costs at most one step per
// sub-board of b that can arise, so it suits one position of any board.
func PathsTo(rl rules.Rules, b game.Board) int64 {
	memo := map[uint64]int64{}
	var walk func(id uint64) int64
	walk = func(id uint64) int64 {
		if id == 0 {
			return 1
		}
		if n, ok := memo[id]; ok {
			return n
		}
		n := int64(0)
		// Pruning boards that cannot arise (under gravity, a mark left
		// floating) keeps the walk to the sub-boards play can make.
		if bd := game.FromID(id); rl.Reachability(bd) == rules.Reachable {
			var ok bool
			if n, ok = rl.Paths(bd); !ok {
				n = sumParents(rl, bd, id, walk)
			}
		}
		memo[id] = n
		return n
	}
	return walk(game.ID(b))
}
