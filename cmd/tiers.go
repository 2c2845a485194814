package cmd

import (
	"fmt"
	"io"
	"runtime/debug"

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

// start says what a solve will need, unless the database is finished, and
// has the collector run at a fifth more heap, not double: the plies live
// in buffers made once, so a collection costs little, and the scratch of
// each ply (its reach bits, its compressed blocks) would otherwise hold the
// peak above the estimate (Connect Four 6x5: 4.2 GB at the default). A
// solve or a forward pass also runs under a soft memory limit at its
// estimate, so that the collector's fifth of headroom over plies of
// gigabytes gives way before the estimate does. (Free 5x5 k=4's peak of
// 7.1 GB against 6.6 was a third copy of a ply's bits, mended in package
// tier; the limit alone did not hold it.) It gives a function that
// restores the collector.
func (t *tierTarget) start(w io.Writer) (restore func()) {
	var need uint64
	switch {
	case t.Finished:
	case t.ReachOnly:
		report.ReachPlan(w, t.Tiers, t.DB)
		need = t.Tiers.ReachMemory
	default:
		report.TierPlan(w, t.Tiers, t.DB)
		need = t.Tiers.Memory
	}
	restoreGC := lowGC()
	if need == 0 {
		return restoreGC
	}
	old := debug.SetMemoryLimit(int64(need))
	return func() {
		debug.SetMemoryLimit(old)
		restoreGC()
	}
}

// lowGC has the collector run at a fifth more heap during a tier solve
// (see start), and gives a function that restores it.
func lowGC() (restore func()) {
	old := debug.SetGCPercent(20)
	return func() { debug.SetGCPercent(old) }
}
