package tier

import (
	"context"
	"errors"
	"fmt"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/internal/figure"
	"github.com/tateti-lab/tateti-lab/internal/gc"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

// ErrOnlyReachFits says that a build does not fit, and its forward pass
// alone does.
var ErrOnlyReachFits = errors.New("its forward pass alone fits")

// A Target is a database folder a build writes into, checked before any
// work: what the build needs, and whether the database is there already.
type Target struct {
	Dir string
	// ReachOnly builds the forward pass alone (ReachTo), which needs the
	// estimate's ReachMemory and ReachDisk.
	ReachOnly bool
	Finished  bool // the folder holds the finished database already
	// Counting is set on a finished win/draw/loss database whose
	// manifest lacks the positions play reaches (a run stopped during its
	// forward pass): the build counts them (Estimate.CountSeconds).
	Counting bool
	Estimate Estimate
	Job      *Job // the whole game's, or an opening book's; nil for WDL's
	// WDL is the win/draw/loss solve where it is the one built, in place
	// of Job. Why says why the kind built was chosen, where either could
	// be: values and depths do not fit, or they do; "" where the flags
	// chose.
	WDL *WDLJob
	Why string
}

// Policy is what the collector is asked for while t is built: the forward
// pass's alone (Estimate.ReachPolicy), the whole build's (Estimate.Policy),
// or none when the database is finished.
func (t Target) Policy() gc.Policy {
	switch {
	case t.Finished:
		return gc.Policy{}
	case t.ReachOnly:
		return t.Estimate.ReachPolicy()
	}
	return t.Estimate.Policy()
}

// Reach runs the forward pass of t's build alone and counts each ply's
// positions, of plies 0 to maxPly (-1: all) of rl's game: the win/draw/loss
// solve's in memory (WDLJob.Reach, every ply), or the tier solve's into
// the folder (ReachTo).
func (t Target) Reach(ctx context.Context, rl rules.Rules, workers, maxPly int) (Reached, error) {
	if t.WDL == nil {
		return ReachTo(ctx, rl, t.Dir, workers, maxPly)
	}
	byPly, err := t.WDL.Reach(ctx, workers)
	if err != nil {
		return Reached{}, err
	}
	return reached(rl.Spec(), byPly, -1), nil
}

// Build builds t's database with up to workers goroutines, or finds it
// finished, and gives its summary: values and depths (BuildJob), or
// values alone (BuildWDL).
func (t Target) Build(ctx context.Context, workers int) (perfect.Summary, error) {
	if t.WDL != nil {
		return BuildWDL(ctx, t.WDL, t.Dir, workers)
	}
	return BuildJob(ctx, t.Job, t.Dir, workers)
}

// NewWDLTarget checks, before any work, that the win/draw/loss solve j can
// be built into dir with workers goroutines, or is there already: the
// folder is ours or new, and, when it must be built, memory bytes and the
// disk suffice; or with reachOnly that its forward pass (WDLJob.Reach),
// which keeps nothing in dir, fits memory.
func NewWDLTarget(dir string, j *WDLJob, workers int, memory uint64, reachOnly bool) (Target, error) {
	t := Target{Dir: dir, WDL: j, ReachOnly: reachOnly, Estimate: EstimateWDL(j, workers)}
	if reachOnly { // in memory: the folder is not written
		if err := t.Estimate.CheckReach(memory, dir); err != nil {
			return t, fmt.Errorf("%w (the forward pass: %s)", err, t.Estimate.ReachNeeds())
		}
		return t, nil
	}
	if err := checkFolder(dir, j.marker()); err != nil {
		return t, err
	}
	m, err := db.ReadManifest(dir)
	if t.Finished = err == nil; t.Finished || !errors.Is(err, db.ErrUnfinished) {
		t.Counting = t.Finished && len(m.Reached) == 0
		return t, err
	}
	if err := check("the win/draw/loss solve", t.Estimate.Memory, t.Estimate.Disk, memory, dir); err != nil {
		return t, fmt.Errorf("%w (the solve: %s)", err, t.Estimate.Needs())
	}
	return t, nil
}

// Fits says why values and depths are built where the win/draw/loss
// database could be instead (a whole game under gravity): the solve fits
// memory, the bytes this run may use.
func (t Target) Fits(memory uint64) string {
	return fmt.Sprintf("they fit: a tier solve holds up to %s at once, within the %s this run may use (--wdl builds the win/draw/loss database instead: values alone, two bits a board with no line)",
		figure.Bytes(t.Estimate.Memory), figure.Bytes(memory))
}

// NewTarget checks, before any work, that job, the whole game or an
// opening book, can be built into dir with workers goroutines, or is there already: the layout fits, the
// folder is ours or new (CheckFolder), and, when it must be built, memory
// bytes and the disk suffice. The error says what the build needs.
func NewTarget(dir string, job *Job, workers int, memory uint64, reachOnly bool) (Target, error) {
	t := Target{Dir: dir, ReachOnly: reachOnly, Job: job}
	var err error
	if t.Estimate, err = EstimateJob(job, workers); err != nil {
		return t, err
	}
	if err := checkFolder(dir, job.marker()); err != nil {
		return t, err
	}
	_, err = db.ReadManifest(dir)
	if t.Finished = err == nil; t.Finished {
		return t, nil
	}
	if !errors.Is(err, db.ErrUnfinished) {
		return t, err
	}
	e := t.Estimate
	if reachOnly {
		if err := e.CheckReach(memory, dir); err != nil {
			return t, fmt.Errorf("%w (the forward pass: %s)", err, e.ReachNeeds())
		}
		return t, nil
	}
	if err := e.Check(memory, dir); err != nil {
		if e.CheckReach(memory, dir) == nil {
			return t, fmt.Errorf("%w (the solve: %s); %w", err, e.Needs(), ErrOnlyReachFits)
		}
		return t, fmt.Errorf("%w (the solve: %s)", err, e.Needs())
	}
	return t, nil
}
