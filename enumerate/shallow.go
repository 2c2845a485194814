package enumerate

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/figure"
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

// layerBytes is the most memory making the children of a layer of n
// positions, each with at most branching moves, takes at once; saturated
// at 2^64-1.
func layerBytes(n uint64, branching int) uint64 {
	hi, lo := bits.Mul64(n, (1+2*uint64(branching))*nodeBytes)
	if hi != 0 {
		return math.MaxUint64
	}
	return lo
}

// ShallowEstimate is what counting the first plies of a game (Shallow)
// will need, known before it starts: bounds, since the positions of a ply
// are at most its placements (EstimateFor's, ply by ply).
type ShallowEstimate struct {
	Game   rules.Spec
	MaxPly int
	// Positions bounds the positions of plies 0 to MaxPly.
	Positions uint64
	// Bytes bounds the memory of making the largest layer, ply Ply's, from
	// the one before (layerBytes): the most Shallow holds at once.
	Bytes uint64
	Ply   int
	needs []uint64 // needs[p]: the bound of making ply p, p > 0
}

// EstimateShallow gives the estimate of counting plies 0 to maxPly of the
// game of rs. A ply's bound is exact while no line can be complete (on a
// free board every placement is then a position), and tight in gravity's
// first plies. The sums saturate at 2^64-1.
func EstimateShallow(rs rules.Spec, maxPly int) ShallowEstimate {
	byCount := placements(rs, game.Board{}, 0, 0)
	at := func(p int) uint64 { return byCount[(p+1)/2][p/2] } // X has ⌈p/2⌉ marks
	e := ShallowEstimate{Game: rs, MaxPly: maxPly, Positions: 1, needs: make([]uint64, maxPly+1)}
	for p := 1; p <= maxPly; p++ {
		e.Positions = addSaturated(e.Positions, at(p))
		e.needs[p] = layerBytes(at(p-1), branching(rs, p-1))
		if e.needs[p] > e.Bytes {
			e.Bytes, e.Ply = e.needs[p], p
		}
	}
	return e
}

// Check refuses, with a *LayerMemoryError, an estimate whose layers may
// take more than memory bytes, naming the first ply that may not fit.
func (e ShallowEstimate) Check(memory uint64) error {
	for p := 1; p <= e.MaxPly; p++ {
		if e.needs[p] > memory {
			return &LayerMemoryError{Game: e.Game, Ply: p, Needs: e.needs[p], Memory: memory}
		}
	}
	return nil
}

// LayerMemoryError is the refusal of a ply whose layer may not fit in the
// memory a run may use; the plies before it fit. It is ErrLayerMemory.
type LayerMemoryError struct {
	Game          rules.Spec
	Ply           int
	Needs, Memory uint64
}

func (e *LayerMemoryError) Error() string {
	return fmt.Sprintf("ply %d of %s may take up to %s to make, more than the %s this run may use (TATETI_MEMORY caps it): %v",
		e.Ply, e.Game.Words(), figure.Bytes(e.Needs), figure.Bytes(e.Memory), ErrLayerMemory)
}

// Is reports whether target is ErrLayerMemory.
func (e *LayerMemoryError) Is(target error) bool { return target == ErrLayerMemory }

// addSaturated gives a+b, or 2^64-1 past it.
func addSaturated(a, b uint64) uint64 {
	if sum, carry := bits.Add64(a, b, 0); carry == 0 {
		return sum
	}
	return math.MaxUint64
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
// of boards, keyed by the marks themselves, so no state id is needed.
// Before any work it refuses plies whose layers may not fit in memory
// bytes (EstimateShallow).
func Shallow(ctx context.Context, rl rules.Rules, maxPly, workers int, memory uint64) (Counts, error) {
	return ShallowEach(ctx, rl, maxPly, workers, memory, nil)
}

// ShallowEach is Shallow, and calls visit, when not nil, with every
// position it counts, in order of ply, then of X marks and O marks as
// numbers, with the move sequences from the empty board that reach it.
func ShallowEach(ctx context.Context, rl rules.Rules, maxPly, workers int, memory uint64, visit func(b game.Board, paths int64)) (Counts, error) {
	c := Counts{Game: rl.Spec(), MaxPly: &maxPly}
	if err := EstimateShallow(rl.Spec(), maxPly).Check(memory); err != nil {
		return c, err
	}
	var sum checkedSum
	layer := []node{{paths: 1}}
	for p := 0; p <= maxPly && len(layer) > 0; p++ {
		if err := ctx.Err(); err != nil {
			return c, err
		}
		progress.Report(ctx, "enumerate", p, int64(len(layer)), 0)
		if err := c.add(ctx, rl, p, layer, &sum); err != nil {
			return c, err
		}
		for k := range layer {
			if visit == nil {
				break
			}
			visit(layer[k].b, layer[k].paths)
		}
		if p == maxPly {
			break
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

// add counts a layer of ply p, sorted and without repeats, into c, or
// stops with ctx's error.
func (c *Counts) add(ctx context.Context, rl rules.Rules, p int, layer []node, sum *checkedSum) error {
	pc := PlyCounts{Ply: p, Positions: int64(len(layer))}
	perms := rl.Symmetries()
	for i, n := range layer {
		if i%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		least, _ := game.Least(n.b, perms)
		class, s := least == n.b, rl.Game().Status(n.b)
		c.tally(&pc, s, n.paths, class, class && !s.Terminal() && rules.Quiet(rl, n.b), sum)
	}
	c.addPly(pc, sum)
	return nil
}

// children gives the positions one move after those of layer that are not
// over, sorted, each once with the sum of its parents' paths. Each worker
// makes, sorts and compacts the children of its own part of the layer;
// merge gathers them. A signal stops it within a partition's pass.
func children(ctx context.Context, rl rules.Rules, layer []node, workers int, sum *checkedSum) ([]node, error) {
	parts := make([][]node, max(1, min(workers, len(layer))))
	sums := make([]checkedSum, len(parts))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(len(parts))
	for k := range parts {
		lo, hi := k*len(layer)/len(parts), (k+1)*len(layer)/len(parts)
		g.Go(func() error {
			out := make([]node, 0, countChildren(rl, layer[lo:hi]))
			for i, n := range layer[lo:hi] {
				if i%4096 == 0 && gctx.Err() != nil {
					return gctx.Err()
				}
				if rl.Game().Status(n.b).Terminal() {
					continue
				}
				mover := n.b.ToMove()
				for m := uint64(rl.Moves(n.b)); m != 0; m &= m - 1 {
					out = append(out, node{n.b.Play(bits.TrailingZeros64(m), mover), n.paths})
				}
			}
			if err := sortNodes(gctx, out); err != nil {
				return err
			}
			parts[k] = compact(out, &sums[k])
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	for _, s := range sums {
		sum.over = sum.over || s.over
	}
	return merge(ctx, parts, sum)
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

// merge merges sorted parts, each without repeats, into one sorted list,
// adding the paths of a board found in more than one. Each part is let go
// once copied, and the list kept is one of its own size.
func merge(ctx context.Context, parts [][]node, sum *checkedSum) ([]node, error) {
	if len(parts) == 1 {
		return slices.Clone(parts[0]), nil
	}
	total := 0
	for _, p := range parts {
		total += len(p)
	}
	out := make([]node, 0, total)
	for k, p := range parts {
		out = append(out, p...)
		parts[k] = nil
	}
	if err := sortNodes(ctx, out); err != nil {
		return nil, err
	}
	return slices.Clone(compact(out, sum)), nil
}
