package tier

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
)

// Method is how a whole game is solved within the memory a run may use.
type Method int

const (
	// Enumerated enumerates every reachable position and solves it in
	// memory (package solve), at enumerate.BytesPerPosition bytes a
	// position.
	Enumerated Method = iota
	// Tiers solves tier by tier on disk (Solve), holding two plies, into
	// a temporary folder removed after: for a game whose enumeration does
	// not fit.
	Tiers
)

// Plan is the method chosen for a game, and why when it is not the first.
type Plan struct {
	Method Method
	// Why says why the game is not enumerated: the enumeration's memory
	// estimate against what the run may use. Empty for Enumerated.
	Why string
	// Tiers is what a tier solve needs, for the method Tiers.
	Tiers Estimate
}

// PlanFor chooses how to solve the whole game of rl with available bytes of
// memory (0: unknown, no limit) and workers goroutines: enumerated when the
// estimate fits, tier by tier when two plies fit and the temporary folder's
// disk holds the tiers; otherwise an error that gives both estimates. The
// board must be small enough to exhaust (enumerate.CheckSize).
func PlanFor(rl rules.Rules, available uint64, workers int) (Plan, error) {
	if err := enumerate.CheckSize(rl.Spec()); err != nil {
		return Plan{}, err
	}
	tooBig := enumerate.CheckMemory(rl.Spec(), available)
	if tooBig == nil {
		return Plan{Method: Enumerated}, nil
	}
	e, err := EstimateFor(rl, workers)
	if err == nil {
		err = e.Check(available, os.TempDir())
	}
	if err != nil {
		return Plan{}, fmt.Errorf("%w; and %v", tooBig, err)
	}
	why := fmt.Sprintf("%s needs about %s of memory to enumerate, more than the %s this run may use (TATETI_MEMORY caps it)",
		rl.Spec(), enumerate.Bytes(enumerate.EstimateFor(rl.Spec()).Bytes), enumerate.Bytes(available))
	return Plan{Method: Tiers, Why: why, Tiers: e}, nil
}

// Whole solves the whole game of rl by plan, with up to workers
// goroutines, and gives its summary. Tier by tier, the database is written
// to a temporary folder and removed before Whole returns, whether it ends
// or is interrupted; the summary then has each ply's positions by value for
// the side to move too.
func Whole(ctx context.Context, rl rules.Rules, plan Plan, workers int) (solve.Summary, error) {
	if plan.Method == Enumerated {
		return solve.Summarize(ctx, rl, workers)
	}
	tmp, err := os.MkdirTemp("", "tateti-tiers-")
	if err != nil {
		return solve.Summary{}, fmt.Errorf("a temporary folder for the tiers cannot be made (%v); set TMPDIR to a folder with room", err)
	}
	defer os.RemoveAll(tmp)
	return Build(ctx, rl, filepath.Join(tmp, "db"), workers)
}
