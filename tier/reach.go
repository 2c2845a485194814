package tier

import (
	"context"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Reached is what the forward pass of a tier solve counts: the positions
// play reaches at each ply, finished boards among them, as enumerate
// counts them; with MaxPly, of plies 0 to MaxPly only.
type Reached struct {
	Game      rules.Spec `json:"game"`
	MaxPly    *int       `json:"max_ply,omitempty"`
	Positions int64      `json:"positions"`
	ByPly     []int64    `json:"positions_by_ply"` // index: the ply
}

// Reach runs only the forward pass of the tier solve of rl's game into the
// database folder dir (see Solve): it marks the placements play can reach,
// ply by ply, keeps each ply's bits in the folder, where a later Solve
// resumes from them, and counts each ply's positions. Plies a former run
// marked are read back, and a finished database's manifest gives its
// counts. The pass holds two plies' bits, a bit a placement, so it runs
// where the backward pass, a byte a placement, does not fit (Estimate's
// ReachMemory). ReachTo stops at a ply.
func Reach(ctx context.Context, rl rules.Rules, dir string, workers int) (Reached, error) {
	return ReachTo(ctx, rl, dir, workers, -1)
}

// ReachTo is Reach of plies 0 to maxPly only, which it marks or reads
// back; maxPly -1 stands for the last ply.
func ReachTo(ctx context.Context, rl rules.Rules, dir string, workers, maxPly int) (Reached, error) {
	job, err := NewJob(rl)
	if err != nil {
		return Reached{}, err
	}
	m, r, unlock, err := begin(job, dir, workers)
	switch {
	case err != nil:
		return Reached{}, err
	case r == nil:
		return reachedOf(m, maxPly), nil
	}
	defer unlock()
	last := r.cells
	if maxPly >= 0 {
		last = min(maxPly, last)
	}
	byPly, err := r.reachAll(ctx, last)
	if err != nil {
		return Reached{}, err
	}
	return reached(rl.Spec(), byPly, maxPly), nil
}

// reached gives the counts byPly of the game of spec, of plies 0 to maxPly
// (-1: all of them).
func reached(spec rules.Spec, byPly []int64, maxPly int) Reached {
	c := Reached{Game: spec}
	if maxPly >= 0 {
		c.MaxPly = &maxPly
		byPly = byPly[:min(maxPly+1, len(byPly))]
	}
	c.ByPly = byPly
	for _, n := range byPly {
		c.Positions += n
	}
	return c
}

// reachedOf gives the counts of the finished database of manifest m, of
// plies 0 to maxPly (-1: all of them).
func reachedOf(m db.Manifest, maxPly int) Reached {
	var byPly []int64
	for _, p := range m.Plies {
		byPly = append(byPly, p.Positions)
	}
	return reached(m.Game, byPly, maxPly)
}
