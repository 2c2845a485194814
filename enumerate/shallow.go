package enumerate

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"slices"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/gc"
	"github.com/tateti-lab/tateti-lab/internal/progress"
	"github.com/tateti-lab/tateti-lab/rules"
	"golang.org/x/sync/errgroup"
)

// A node is a position of a shallow enumeration and the move sequences from
// the empty board that reach it.
type node struct {
	b     game.Board
	paths int64
}

// nodeBytes is what a node takes. Making a layer's children holds the
// layer, every child as its parent's worker made it, and all of them
// gathered into one list to be sorted: the layer and the children twice
// (layerBytes).
const nodeBytes = 24

// ErrLayerMemory is the refusal of a layer that would not fit the memory
// allowed: the run asked for more plies than the machine holds.
var ErrLayerMemory = errors.New("stop at an earlier ply")

// layerBytes is the most memory made the children of a layer of n
// positions, each with at most branching moves, takes at once.
func layerBytes(n, branching int) uint64 {
	return uint64(n) * (1 + 2*uint64(branching)) * nodeBytes
}

// ShallowPolicy is what the collector is asked for while Shallow works
// within memory bytes: each layer is let go once the next is made, and a
// soft limit at the memory allowed has the collector return it before it
// would otherwise, so the peak stays near the estimate.
func ShallowPolicy(memory uint64) gc.Policy { return gc.Policy{Limit: memory} }

// Shallow counts the first plies of rl's game on any board (up to
// game.MaxCells cells): every position reachable in at most maxPly plies,
// layer by layer, as Count counts a whole game, with Counts.MaxPly set and
// the complete games only those that end by then. A layer is a sorted list
// of boards, keyed by the marks themselves, so no state id is needed. Before
// each layer it checks that the layer's children fit in memory bytes.
func Shallow(ctx context.Context, rl rules.Rules, maxPly, workers int, memory uint64) (Counts, error) {
	return ShallowEach(ctx, rl, maxPly, workers, memory, nil)
}

// ShallowEach is Shallow, and calls visit, when not nil, with every
// position it counts, in order of ply, then of X marks and O marks as
// numbers, with the move sequences from the empty board that reach it.
func ShallowEach(ctx context.Context, rl rules.Rules, maxPly, workers int, memory uint64, visit func(b game.Board, paths int64)) (Counts, error) {
	c := Counts{Game: rl.Spec(), MaxPly: &maxPly}
	var sum checkedSum
	layer := []node{{paths: 1}}
	for p := 0; p <= maxPly && len(layer) > 0; p++ {
		if err := ctx.Err(); err != nil {
			return c, err
		}
		progress.Report(ctx, "enumerate", p, int64(len(layer)), 0)
		c.add(rl, p, layer, &sum)
		for k := range layer {
			if visit == nil {
				break
			}
			visit(layer[k].b, layer[k].paths)
		}
		if p == maxPly {
			break
		}
		if need := layerBytes(len(layer), branching(rl.Spec(), p)); need > memory {
			return c, fmt.Errorf("ply %d of %s would take about %d MiB, more than the %d MiB allowed (TATETI_MEMORY): %w", p+1, rl.Spec().Words(), need>>20, memory>>20, ErrLayerMemory)
		}
		var err error
		if layer, err = children(ctx, rl, layer, workers, &sum); err != nil {
			return c, err
		}
	}
	return c, c.finish(&sum)
}

// branching is the most moves a position of ply p has.
func branching(s rules.Spec, p int) int {
	if s.Gravity {
		return min(s.Cols, s.Cells()-p)
	}
	return s.Cells() - p
}

// add counts a layer of ply p, sorted and without repeats, into c.
func (c *Counts) add(rl rules.Rules, p int, layer []node, sum *checkedSum) {
	pc := PlyCounts{Ply: p, Positions: int64(len(layer))}
	perms := rl.Symmetries()
	for _, n := range layer {
		least, _ := game.Least(n.b, perms)
		class, s := least == n.b, rl.Game().Status(n.b)
		c.tally(&pc, s, n.paths, class, class && !s.Terminal() && rules.Quiet(rl, n.b), sum)
	}
	c.addPly(pc, sum)
}

// children gives the positions one move after those of layer that are not
// over, sorted, each once with the sum of its parents' paths. Each worker
// makes the children of its own part of the layer.
func children(ctx context.Context, rl rules.Rules, layer []node, workers int, sum *checkedSum) ([]node, error) {
	parts := make([][]node, max(1, min(workers, len(layer))))
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(len(parts))
	for k := range parts {
		lo, hi := k*len(layer)/len(parts), (k+1)*len(layer)/len(parts)
		g.Go(func() error {
			out := make([]node, 0, countChildren(rl, layer[lo:hi]))
			for i, n := range layer[lo:hi] {
				if i%4096 == 0 && ctx.Err() != nil {
					return ctx.Err()
				}
				if rl.Game().Status(n.b).Terminal() {
					continue
				}
				mover := n.b.ToMove()
				for m := uint64(rl.Moves(n.b)); m != 0; m &= m - 1 {
					out = append(out, node{n.b.Play(bits.TrailingZeros64(m), mover), n.paths})
				}
			}
			slices.SortFunc(out, func(a, b node) int { return game.CompareBoards(a.b, b.b) })
			parts[k] = out
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return merge(parts, sum), nil
}

// countChildren counts the children of the positions of layer that are
// not over, so that a worker's list of them is made once, to size.
func countChildren(rl rules.Rules, layer []node) int {
	n := 0
	for _, p := range layer {
		if !rl.Game().Status(p.b).Terminal() {
			n += bits.OnesCount64(uint64(rl.Moves(p.b)))
		}
	}
	return n
}

// merge merges sorted parts into one sorted list, adding the paths of a
// board found more than once. Each part is let go once copied, and the
// list kept is one of its own size, not the size with repeats.
func merge(parts [][]node, sum *checkedSum) []node {
	total := 0
	for _, p := range parts {
		total += len(p)
	}
	out := make([]node, 0, total)
	for k, p := range parts {
		out = append(out, p...)
		parts[k] = nil
	}
	slices.SortStableFunc(out, func(a, b node) int { return game.CompareBoards(a.b, b.b) })
	w := 0
	for _, n := range out {
		if w > 0 && out[w-1].b == n.b {
			sum.add(&out[w-1].paths, n.paths)
			continue
		}
		out[w] = n
		w++
	}
	return slices.Clone(out[:w])
}
