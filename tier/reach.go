package tier

import (
	"context"
	"errors"
	"io/fs"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Reached is what the forward pass of a tier solve counts: the positions
// play reaches at each ply, finished boards among them, as enumerate
// counts them.
type Reached struct {
	Game      rules.Spec `json:"game"`
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
// ReachMemory).
func Reach(ctx context.Context, rl rules.Rules, dir string, workers int) (Reached, error) {
	if err := CheckFolder(dir, rl.Spec()); err != nil {
		return Reached{}, err
	}
	if m, err := db.ReadManifest(dir); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return reachedOf(m), err
	}
	job, err := NewJob(rl)
	if err != nil {
		return Reached{}, err
	}
	unlock, err := Claim(dir, rl.Spec())
	if err != nil {
		return Reached{}, err
	}
	defer unlock()
	r := &run{Job: job, dir: dir, workers: workers}
	r.total, r.largest = sizes(job.layout, job.cells)
	byPly, err := r.reachAll(ctx)
	if err != nil {
		return Reached{}, err
	}
	c := Reached{Game: rl.Spec(), ByPly: byPly}
	for _, n := range byPly {
		c.Positions += n
	}
	return c, nil
}

// reachedOf gives the counts of the finished database of manifest m.
func reachedOf(m db.Manifest) Reached {
	c := Reached{Game: m.Game, Positions: m.Positions}
	for _, p := range m.Plies {
		c.ByPly = append(c.ByPly, p.Positions)
	}
	return c
}
