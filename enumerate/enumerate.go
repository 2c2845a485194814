// Package enumerate owns the reachable positions of a game under its rules:
// every board that can arise from the empty board (or from a given position)
// in play, layer by ply, with for each its status, the number of move
// sequences that reach it (paths), its canonical id up to the rules'
// symmetries and its orbit size, and a fast map from state id to its place in
// the result. Which moves are legal is asked of the rules.
package enumerate

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/index"
	"github.com/tateti-lab/tateti-lab/internal/hugepage"
	"github.com/tateti-lab/tateti-lab/internal/par"
	"github.com/tateti-lab/tateti-lab/internal/progress"
	"github.com/tateti-lab/tateti-lab/rules"
)

// MaxCells is the largest board exhaustive work handles: 3^25 ids fit 64
// bits with room to spare, and a board of 25 cells has at most 13!·12!
// (about 3·10^18) move sequences into one position, so a position's paths
// fit an int64.
const MaxCells = 25

// CheckSize returns an error when the spec's board is too large to exhaust.
func CheckSize(s game.Spec) error {
	if s.Cells() > MaxCells {
		return fmt.Errorf("size %s has %d cells, too many to exhaust: enumerate, solve, verify and export handle at most %d cells (5x5, 4x6, 3x8, ...)", s.Size(), s.Cells(), MaxCells)
	}
	return nil
}

// Result holds the reachable positions sorted by ply, then by state id.
// Position i has state id IDs[i]; the slices run in parallel.
type Result struct {
	Rules  rules.Rules
	Root   game.Board    // the position the enumeration started from
	Start  []int         // positions of ply p are [Start[p], Start[p+1]); len is cells+2
	IDs    []uint64      // state ids
	Status []game.Status // status by the bitmask lines
	Paths  []int64       // move sequences from Root that reach the position (nil after Lean)
	Canon  []uint64      // smallest state id over the rules' symmetries (nil after Lean)
	Orbit  []uint8       // how many distinct boards the symmetries make (nil after Lean)
	Index  index.Index   // state id to position
}

// All enumerates every position reachable from the empty board, using up to
// workers goroutines for the per-position work.
func All(ctx context.Context, rl rules.Rules, workers int) (*Result, error) {
	return From(ctx, rl, game.Board{}, workers)
}

// Lean enumerates as All does but leaves Paths, Canon and Orbit nil: what
// solving needs, in less time and memory. Complete adds the rest.
func Lean(ctx context.Context, rl rules.Rules, workers int) (*Result, error) {
	return from(ctx, rl, game.Board{}, workers, rl.Spec().Cells() > index.DenseCells)
}

// From enumerates every position reachable from root (itself included), which
// must be able to arise in play.
func From(ctx context.Context, rl rules.Rules, root game.Board, workers int) (*Result, error) {
	r, err := from(ctx, rl, root, workers, rl.Spec().Cells() > index.DenseCells)
	if err != nil {
		return nil, err
	}
	return r, r.Complete(ctx, workers)
}

// from is From with the choice of the sparse layers and index made by the
// caller (the tests compare the two on small boards).
func from(ctx context.Context, rl rules.Rules, root game.Board, workers int, sparse bool) (*Result, error) {
	if err := CheckSize(rl.Spec().Spec); err != nil {
		return nil, err
	}
	if err := rules.CheckReachable(rl, root); err != nil {
		return nil, err
	}
	ids, status, start, words, err := buildLayers(ctx, rl, root, workers, sparse)
	if err != nil {
		return nil, err
	}
	r := &Result{Rules: rl, Root: root, Start: start, IDs: ids, Status: status}
	if sparse {
		r.Index = index.NewSparse(r.IDs, r.Start)
	} else {
		r.Index = index.NewDenseWords(words, r.IDs, workers)
	}
	return r, nil
}

// buildLayers gives the ids reachable from root, sorted by ply and then by
// id, with their status, and start[p] the first of ply p (len(start) is
// cells+2). Each layer is expanded into the next by the rules' legal moves:
// through bitsets over every raw board on small boards, which also give the
// dense index's words (one bit per id found; nil when sparse), by sorting
// and merging the children on large ones.
func buildLayers(ctx context.Context, rl rules.Rules, root game.Board, workers int, sparse bool) (ids []uint64, status []game.Status, start []int, words []uint64, err error) {
	n := rl.Spec().Cells()
	rootID := game.ID(root)
	start = make([]int, n+2)
	p0 := root.Ply()
	start[p0+1] = 1
	// The dense layers learn the status of every ply but the last as they
	// are expanded; the sparse ones, whose memory counts more, none: their
	// status is computed once they are joined, with no copy held beside.
	if sparse {
		ids, err = buildSparse(ctx, rl, rootID, p0, start, workers)
		status = hugepage.Make[game.Status](len(ids), len(ids))
	} else {
		ids, status, words, err = buildDense(ctx, rl, rootID, p0, start, workers)
	}
	if err != nil {
		return nil, nil, nil, nil, err
	}
	lo, hi := start[n], start[n+1]
	if sparse {
		lo = 0
	}
	g := rl.Game()
	err = par.Ranges(ctx, lo, hi, workers, func(_ context.Context, _, a, b int) error {
		for i := a; i < b; i++ {
			status[i] = g.Status(game.FromID(ids[i]))
		}
		return nil
	})
	return ids, status, start, words, err
}

// buildDense gives the ids reachable from the root rootID, of ply p0, and
// the status of all but the last ply's, as buildLayers does, filling start.
func buildDense(ctx context.Context, rl rules.Rules, rootID uint64, p0 int, start []int, workers int) (ids []uint64, status []game.Status, words []uint64, err error) {
	n := len(start) - 2
	// No ply holds more positions than its fair placements: room for all
	// of them from the start, so that no layer is ever copied (the pages
	// never written cost nothing).
	bound := int(EstimateFor(rl.Spec()).Placements)
	ids, status = hugepage.Make[uint64](1, bound), hugepage.Make[game.Status](bound, bound)
	ids[0] = rootID
	dense := newDenseLayers(game.Pow3(n), workers)
	dense.all[rootID>>6] |= 1 << (rootID & 63)
	for p := p0; p < n; p++ {
		if err := ctx.Err(); err != nil {
			return nil, nil, nil, err
		}
		progress.Report(ctx, "enumerate", p, int64(len(ids)), 0)
		lo, hi := start[p], start[p+1]
		if ids, err = dense.next(ctx, rl, ids[lo:hi], status[lo:hi], ids); err != nil {
			return nil, nil, nil, err
		}
		start[p+2] = len(ids)
	}
	return ids, status[:len(ids)], dense.all, nil
}

// buildSparse gives the ids reachable from the root rootID, of ply p0, as
// buildLayers does, filling start: each layer is made on its own, and the
// layers are joined once at the end.
func buildSparse(ctx context.Context, rl rules.Rules, rootID uint64, p0 int, start []int, workers int) ([]uint64, error) {
	n := len(start) - 2
	layers := [][]uint64{{rootID}}
	for p := p0; p < n; p++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		progress.Report(ctx, "enumerate", p, int64(start[p+1]), 0)
		kids, err := nextSparse(ctx, rl, layers[len(layers)-1], workers)
		if err != nil {
			return nil, err
		}
		layers = append(layers, kids)
		start[p+2] = start[p+1] + len(kids)
	}
	ids := hugepage.Make[uint64](0, start[n+1])
	for k := range layers {
		ids = append(ids, layers[k]...)
		layers[k] = nil
	}
	return ids, nil
}

// expand gives the status of the board of id and appends to dst the ids of
// the positions its legal moves make.
func expand(dst []uint64, rl rules.Rules, id uint64) ([]uint64, game.Status) {
	b := game.FromID(id)
	st, moves := rl.Turn(b)
	w := uint64(b.ToMove())
	for m := moves; m != 0; m &= m - 1 {
		dst = append(dst, id+w*game.Pow3(trailing(m)))
	}
	return dst, st
}

// Complete computes what Lean leaves out: each position's canonical id and
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
	fromStart := r.FromStart() // Orders counts from the empty board
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
					n, ok = r.Rules.Orders(b)
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
			if n, ok := r.Rules.Orders(game.FromID(parent)); ok {
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
	for m := uint32(rl.ParentCells(bd)); m != 0; m &= m - 1 {
		sum += paths(id - w*game.Pow3(bits.TrailingZeros32(m)))
	}
	return sum
}

// PathsTo counts the move sequences from the empty board that reach b, as
// All's Paths would, without enumerating the game: it walks back from b
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
			if n, ok = rl.Orders(bd); !ok {
				n = sumParents(rl, bd, id, walk)
			}
		}
		memo[id] = n
		return n
	}
	return walk(game.ID(b))
}

// FromStart reports whether the enumeration starts from the empty board,
// so that Paths count the move sequences from the start of the game.
func (r *Result) FromStart() bool { return r.Root == game.Board{} }

// Len is the number of positions.
func (r *Result) Len() int { return len(r.IDs) }

// Layer gives the positions of ply p as the range [lo, hi); it is empty for a
// ply outside the result.
func (r *Result) Layer(p int) (lo, hi int) {
	if p < 0 || p+1 >= len(r.Start) {
		return 0, 0
	}
	return r.Start[p], r.Start[p+1]
}

// Board gives the board of position i.
func (r *Result) Board(i int) game.Board { return game.FromID(r.IDs[i]) }

// Lookup gives the position of a state id, and whether it is in the result.
func (r *Result) Lookup(id uint64) (int, bool) { return r.Index.Lookup(id) }
