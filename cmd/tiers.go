package cmd

import (
	"fmt"
	"io"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/report"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/tier"
)

// tierTarget is a database folder the whole game is solved into, tier by
// tier, or read from when Finished; Tiers is what solving needs.
type tierTarget struct {
	DB       string
	Finished bool
	Tiers    tier.Estimate
	// ReachOnly runs the forward pass alone (tier.Reach), which needs the
	// estimate's ReachMemory and ReachDisk.
	ReachOnly bool
}

// resolve checks, before any work, that the game of rl can be solved into
// dir, or is there already: the layout fits, the folder is ours or new,
// and, when it must be solved, memory bytes and the disk suffice.
func (t *tierTarget) resolve(dir string, rl rules.Rules, workers int, memory uint64) error {
	t.DB = dir
	var err error
	if t.Tiers, err = tier.EstimateFor(rl, workers); err != nil {
		return err
	}
	if err := tier.CheckFolder(dir, rl.Spec()); err != nil {
		return err
	}
	_, err = db.ReadManifest(dir)
	if t.Finished = err == nil; t.Finished {
		return nil
	}
	if t.ReachOnly {
		if err := t.Tiers.CheckReach(memory, dir); err != nil {
			return fmt.Errorf("%w (the forward pass: %s)", err, report.ReachNeeds(t.Tiers))
		}
		return nil
	}
	if err := t.Tiers.Check(memory, dir); err != nil {
		hint := ""
		if t.Tiers.CheckReach(memory, dir) == nil {
			hint = "; its forward pass alone fits: db build --reach-only with the same flags"
		}
		return fmt.Errorf("%w (the solve: %s)%s", err, report.TierNeeds(t.Tiers), hint)
	}
	return nil
}

// start says what a build will need, unless the database is finished,
// and asks the collector for the build's policy (tier.Estimate.Policy),
// giving a function that restores it.
func (t *tierTarget) start(w io.Writer) (restore func()) {
	switch {
	case t.Finished:
		return func() {}
	case t.ReachOnly:
		report.ReachPlan(w, t.Tiers, t.DB)
		return t.Tiers.ReachPolicy().Apply()
	}
	report.TierPlan(w, t.Tiers, t.DB)
	return t.Tiers.Policy().Apply()
}
