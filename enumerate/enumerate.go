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
	"github.com/tateti-lab/tateti-lab/index"
	"github.com/tateti-lab/tateti-lab/rules"
)

// MaxCells is the largest board exhaustive work handles: 3^25 ids fit 64
// bits with room to spare, and a board of 25 cells has at most 13!·12!
// (about 3·10^18) move sequences into one position, so a position's paths
// fit an int64.
const MaxCells = 25

// CheckSize returns an error when the spec's board is too large to exhaust.
func CheckSize(s rules.Spec) error {
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
	Paths  []int64       // move sequences from Root that reach the position (nil after Positions)
	Canon  []uint64      // smallest state id over the rules' symmetries (nil after Positions)
	Orbit  []uint8       // how many distinct boards the symmetries make (nil after Positions)
	Index  index.Index   // state id to position
}

// Game enumerates every position reachable from the empty board, using up to
// workers goroutines for the per-position work.
func Game(ctx context.Context, rl rules.Rules, workers int) (*Result, error) {
	return From(ctx, rl, game.Board{}, workers)
}

// Positions enumerates as Game does but leaves Paths, Canon and Orbit nil: what
// solving needs, in less time and memory. Complete adds the rest.
func Positions(ctx context.Context, rl rules.Rules, workers int) (*Result, error) {
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
	if err := CheckSize(rl.Spec()); err != nil {
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
		if r.Index, err = index.NewDenseWords(ctx, words, r.IDs, workers); err != nil {
			return nil, err
		}
	}
	return r, nil
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
