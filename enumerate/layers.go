package enumerate

import (
	"context"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/hugepage"
	"github.com/tateti-lab/tateti-lab/internal/par"
	"github.com/tateti-lab/tateti-lab/internal/progress"
	"github.com/tateti-lab/tateti-lab/rules"
)

// The layers: each ply's positions, made from the one before by the legal
// moves.

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
