package enumerate

import (
	"context"
	"math/bits"
	"slices"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
	"golang.org/x/sync/errgroup"
)

// idSet is a set of state ids of a small board as a bit per raw board.
type idSet struct{ words []uint64 }

func newIDSet(n uint64) *idSet { return &idSet{words: make([]uint64, (n+63)/64)} }

// next gives the sorted ids the legal moves of layer make.
func (s *idSet) next(rl rules.Rules, layer []uint64) []uint64 {
	clear(s.words)
	var kids []uint64
	n := 0
	for _, id := range layer {
		kids = children(kids[:0], rl, id)
		for _, k := range kids {
			if s.words[k>>6]&(1<<(k&63)) == 0 {
				s.words[k>>6] |= 1 << (k & 63)
				n++
			}
		}
	}
	out := make([]uint64, 0, n)
	for w, x := range s.words {
		for ; x != 0; x &= x - 1 {
			out = append(out, uint64(w)<<6|uint64(bits.TrailingZeros64(x)))
		}
	}
	return out
}

// nextSparse gives the sorted ids the legal moves of layer make, without a
// table over the raw boards: each range's children are sorted and deduplicated
// in parallel, then merged in pairs.
func nextSparse(ctx context.Context, rl rules.Rules, layer []uint64, workers int) ([]uint64, error) {
	parts := make([][]uint64, Chunks(0, len(layer), workers))
	err := Ranges(ctx, 0, len(layer), workers, func(_ context.Context, k, a, b int) error {
		var out []uint64
		for _, id := range layer[a:b] {
			out = children(out, rl, id)
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

func trailing(m game.Mask) int { return bits.TrailingZeros32(uint32(m)) }
