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

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
	"golang.org/x/sync/errgroup"
)

// MaxCells is the largest board exhaustive work handles: 3^16 raw boards fit
// dense tables.
const MaxCells = 16

// CheckSize returns an error when the spec's board is too large to exhaust.
func CheckSize(s game.Spec) error {
	if s.Cells() > MaxCells {
		return fmt.Errorf("size %s has %d cells, too many to exhaust: enumerate, solve, verify and export handle at most %d cells (3x3, 3x4, 4x4, ...)", s.Size(), s.Cells(), MaxCells)
	}
	return nil
}

// Result holds the reachable positions sorted by ply, then by state id.
// Position i has state id IDs[i]; the slices run in parallel.
type Result struct {
	Rules  rules.Rules
	Root   game.Board    // the position the enumeration started from
	Start  []int         // positions of ply p are [Start[p], Start[p+1]); len is cells+2
	IDs    []uint32      // state ids
	Status []game.Status // status by the bitmask lines
	Paths  []int64       // move sequences from Root that reach the position
	Canon  []uint32      // smallest state id over the symmetries
	Orbit  []uint8       // how many distinct boards the symmetries make
	all    *idSet        // every id, for Index
	perm   []uint32      // perm[rank of id among all ids] is its position
}

// All enumerates every position reachable from the empty board, using up to
// workers goroutines for the per-position work.
func All(ctx context.Context, rl rules.Rules, workers int) (*Result, error) {
	return From(ctx, rl, game.Board{}, workers)
}

// From enumerates every position reachable from root (itself included), which
// must be able to arise in play.
func From(ctx context.Context, rl rules.Rules, root game.Board, workers int) (*Result, error) {
	g := rl.Game()
	if err := CheckSize(g.Spec); err != nil {
		return nil, err
	}
	if err := rules.CheckReachable(rl, root); err != nil {
		return nil, err
	}
	n := g.Spec.Cells()
	var pow [MaxCells]uint32
	for i := range n {
		pow[i] = uint32(game.Pow3(i))
	}
	raw := game.Pow3(n)

	// Phase 1: the sorted ids of each layer, each expanded into the next.
	layers := make([][]uint32, n+1)
	p0 := root.Ply()
	layers[p0] = []uint32{uint32(game.ID(root))}
	next := newIDSet(raw)
	for p := p0; p < n; p++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		next.clear()
		for _, id := range layers[p] {
			b := game.FromID(uint64(id))
			w := uint32(b.ToMove())
			for m := rl.Moves(b); m != 0; m &= m - 1 {
				next.add(id + w*pow[trailing(m)])
			}
		}
		layers[p+1] = next.appendTo(make([]uint32, 0, next.buildRank()))
	}

	// Phase 2: one array per column, filled layer by layer in parallel ranges.
	r := &Result{Rules: rl, Root: root, Start: make([]int, n+2)}
	total := 0
	for p := range n + 1 {
		r.Start[p] = total
		total += len(layers[p])
	}
	r.Start[n+1] = total
	r.IDs = make([]uint32, 0, total)
	for p := range layers {
		r.IDs = append(r.IDs, layers[p]...)
		layers[p] = nil
	}
	r.Status = make([]game.Status, total)
	r.Paths = make([]int64, total)
	r.Canon = make([]uint32, total)
	r.Orbit = make([]uint8, total)

	prev, cur := newIDSet(raw), newIDSet(raw)
	for p := p0; p <= n; p++ {
		lo, hi := r.Layer(p)
		cur.clear()
		for _, id := range r.IDs[lo:hi] {
			cur.add(id)
		}
		cur.buildRank()
		plo, _ := r.Layer(p - 1)
		err := Ranges(ctx, lo, hi, workers, func(_ context.Context, _, a, b int) error {
			for i := a; i < b; i++ {
				id := r.IDs[i]
				bd := game.FromID(uint64(id))
				r.Status[i] = g.Status(bd)
				c, o := rl.Canonical(uint64(id))
				r.Canon[i], r.Orbit[i] = uint32(c), uint8(o)
				if p == p0 {
					r.Paths[i] = 1
					continue
				}
				r.Paths[i] = r.pullPaths(bd, id, prev, plo, &pow)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		prev, cur = cur, prev
	}

	// The index: a set of every id with ranks, and a permutation to positions.
	r.all = prev // reuse one buffer
	r.all.clear()
	for _, id := range r.IDs {
		r.all.add(id)
	}
	r.all.buildRank()
	r.perm = make([]uint32, total)
	for i, id := range r.IDs {
		r.perm[r.all.rankOf(id)] = uint32(i)
	}
	return r, nil
}

// pullPaths sums the paths of every parent of bd (state id id) in the previous
// layer, the set prev whose first position is plo, whose legal moves reach bd.
func (r *Result) pullPaths(bd game.Board, id uint32, prev *idSet, plo int, pow *[MaxCells]uint32) int64 {
	lastX := bd.ToMove() == game.O
	mine, w := bd.O, uint32(2)
	if lastX {
		mine, w = bd.X, 1
	}
	var sum int64
	for m := mine; m != 0; m &= m - 1 {
		c := trailing(m)
		pid := id - w*pow[c]
		if !prev.has(pid) {
			continue
		}
		parent := game.Board{X: bd.X, O: bd.O &^ (1 << c)}
		if lastX {
			parent = game.Board{X: bd.X &^ (1 << c), O: bd.O}
		}
		if r.Rules.Moves(parent)>>c&1 == 1 {
			sum += r.Paths[plo+prev.rankOf(pid)]
		}
	}
	return sum
}

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
func (r *Result) Board(i int) game.Board { return game.FromID(uint64(r.IDs[i])) }

// Index gives the position of a state id, and whether it is in the result.
func (r *Result) Index(id uint64) (int, bool) {
	if id >= uint64(len(r.all.words))*64 || !r.all.has(uint32(id)) {
		return 0, false
	}
	return int(r.perm[r.all.rankOf(uint32(id))]), true
}

// Chunks is the number of ranges Ranges splits [lo, hi) into for workers.
func Chunks(lo, hi, workers int) int {
	size := chunkSize(lo, hi, workers)
	return (hi - lo + size - 1) / size
}

func chunkSize(lo, hi, workers int) int {
	workers = max(workers, 1)
	return max((hi-lo+4*workers-1)/(4*workers), 4096)
}

// Ranges splits [lo, hi) into Chunks(lo, hi, workers) contiguous ranges and
// calls fn on each, with its chunk number k, from an errgroup limited to
// workers goroutines (at least 1). Each call must write only data of its own
// range or chunk, so that the result does not depend on workers.
func Ranges(ctx context.Context, lo, hi, workers int, fn func(ctx context.Context, k, a, b int) error) error {
	size := chunkSize(lo, hi, workers)
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(max(workers, 1))
	for a := lo; a < hi; a += size {
		k, b := (a-lo)/size, min(a+size, hi)
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			return fn(ctx, k, a, b)
		})
	}
	return g.Wait()
}
