package enumerate

import (
	"context"
	"math/bits"
	"slices"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/hugepage"
	"github.com/tateti-lab/tateti-lab/internal/par"
	"github.com/tateti-lab/tateti-lab/rules"
	"golang.org/x/sync/errgroup"
)

// denseLayers builds the layers of a board small enough for a bit per raw
// board. Each part of a layer marks the children of its positions in a
// bitset of its own; each range of words then merges the parts' bitsets into
// its piece of the next layer, in id order, and into all, the set of every id
// found, which becomes the index's words. No goroutine writes outside its
// own part or range, and the layers do not depend on the number of parts.
type denseLayers struct {
	parts [][]uint64 // parts[w]: the children marked by part w, cleared as merged
	all   []uint64   // every id of every layer built so far
}

func newDenseLayers(n uint64, workers int) *denseLayers {
	words := (n + 63) / 64
	// Parts past a few cost a bitset each and gain nothing on this work.
	d := &denseLayers{parts: make([][]uint64, min(max(workers, 1), 8)), all: hugepage.Make[uint64](int(words), int(words))}
	for w := range d.parts {
		d.parts[w] = hugepage.Make[uint64](int(words), int(words))
	}
	return d
}

// next appends to dst the sorted ids the legal moves of layer make, and
// writes the status of each id of layer in status.
func (d *denseLayers) next(ctx context.Context, rl rules.Rules, layer []uint64, status []game.Status, dst []uint64) ([]uint64, error) {
	g, gctx := errgroup.WithContext(ctx)
	for w, part := range d.parts {
		lo, hi := w*len(layer)/len(d.parts), (w+1)*len(layer)/len(d.parts)
		g.Go(func() error {
			mark(part, rl, layer[lo:hi], status[lo:hi])
			return gctx.Err()
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return d.merge(ctx, dst)
}

// mark sets the bit in set of every child of the positions ids, and writes
// their status in status.
func mark(set []uint64, rl rules.Rules, ids []uint64, status []game.Status) {
	var kids []uint64
	for i, id := range ids {
		kids, status[i] = expand(kids[:0], rl, id)
		for _, k := range kids {
			set[k>>6] |= 1 << (k & 63)
		}
	}
}

// merge appends to dst the ids marked in any part, sorted, and clears the
// parts: a first pass over ranges of words ORs the parts into the first one
// and counts the ids of each range, a second writes each range's ids at its
// offset.
func (d *denseLayers) merge(ctx context.Context, dst []uint64) ([]uint64, error) {
	first, nw := d.parts[0], len(d.all)
	workers := len(d.parts)
	counts := make([]int, par.Chunks(0, nw, workers))
	err := par.Ranges(ctx, 0, nw, workers, func(_ context.Context, k, a, b int) error {
		n := 0
		for i := a; i < b; i++ {
			x := first[i]
			for _, part := range d.parts[1:] {
				x |= part[i]
				part[i] = 0
			}
			first[i] = x
			d.all[i] |= x
			n += bits.OnesCount64(x)
		}
		counts[k] = n
		return nil
	})
	if err != nil {
		return nil, err
	}
	offset := make([]int, len(counts)+1)
	offset[0] = len(dst)
	for k, n := range counts {
		offset[k+1] = offset[k] + n
	}
	out := slices.Grow(dst, offset[len(counts)]-len(dst))[:offset[len(counts)]]
	err = par.Ranges(ctx, 0, nw, workers, func(_ context.Context, k, a, b int) error {
		piece := out[offset[k]:offset[k]:offset[k+1]]
		for i := a; i < b; i++ {
			for x := first[i]; x != 0; x &= x - 1 {
				piece = append(piece, uint64(i)<<6|uint64(bits.TrailingZeros64(x)))
			}
			first[i] = 0
		}
		return nil
	})
	return out, err
}

// nextSparse gives the sorted ids the legal moves of layer make, without a
// table over the raw boards: each range's children are sorted and
// deduplicated in parallel, then merged in pairs.
func nextSparse(ctx context.Context, rl rules.Rules, layer []uint64, workers int) ([]uint64, error) {
	parts := make([][]uint64, par.Chunks(0, len(layer), workers))
	err := par.Ranges(ctx, 0, len(layer), workers, func(_ context.Context, k, a, b int) error {
		var out []uint64
		for _, id := range layer[a:b] {
			out, _ = expand(out, rl, id)
		}
		slices.Sort(out)
		parts[k] = slices.Compact(out)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for len(parts) > 1 {
		merged := make([][]uint64, (len(parts)+1)/2)
		g, _ := errgroup.WithContext(ctx)
		g.SetLimit(max(workers, 1))
		for k := range merged {
			if 2*k+1 == len(parts) {
				merged[k] = parts[2*k]
				continue
			}
			g.Go(func() error { merged[k] = mergeUnique(parts[2*k], parts[2*k+1]); return nil })
		}
		g.Wait()
		parts = merged
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	if len(parts) == 0 {
		return nil, nil
	}
	return parts[0], nil
}

// mergeUnique merges two sorted lists without repeats into one.
func mergeUnique(a, b []uint64) []uint64 {
	out := make([]uint64, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		switch {
		case a[0] < b[0]:
			out, a = append(out, a[0]), a[1:]
		case b[0] < a[0]:
			out, b = append(out, b[0]), b[1:]
		default:
			out, a, b = append(out, a[0]), a[1:], b[1:]
		}
	}
	return append(append(out, a...), b...)
}

func trailing(m game.Mask) int { return bits.TrailingZeros64(uint64(m)) }
