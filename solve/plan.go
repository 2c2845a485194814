package solve

import (
	"context"

	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Method is how a whole game is solved within the memory a run may use.
type Method int

const (
	// Enumerated enumerates every reachable position and solves it in
	// memory, at enumerate.BytesPerPosition bytes a position.
	Enumerated Method = iota
	// ByRank solves every placement at a byte each (SolveRanked), for a
	// game whose enumeration does not fit but whose placements do.
	ByRank
)

// Plan is the method chosen for a game, and why when it is not the first.
type Plan struct {
	Method Method
	// Why says why the game is not enumerated: the enumeration's memory
	// estimate against what the run may use. Empty for Enumerated.
	Why string
	// Bytes is the memory the method needs.
	Bytes uint64
}

// PlanFor chooses how to solve the whole game of rl with available bytes of
// memory (0: unknown, no limit): enumerated when the estimate fits, over
// placement ranks when a byte a placement fits; otherwise the enumeration's
// memory error. The board must be small enough to exhaust
// (enumerate.CheckSize).
func PlanFor(rl rules.Rules, available uint64) (Plan, error) {
	if err := enumerate.CheckSize(rl.Spec()); err != nil {
		return Plan{}, err
	}
	tooBig := enumerate.CheckMemory(rl.Spec(), available)
	if tooBig == nil {
		return Plan{Method: Enumerated, Bytes: enumerate.EstimateFor(rl.Spec()).Bytes}, nil
	}
	ranked := RankedBytes(rl.Spec())
	if available != 0 && ranked > available {
		return Plan{}, tooBig
	}
	return Plan{Method: ByRank, Why: tooBig.Error(), Bytes: ranked}, nil
}

// Summarize solves the whole game of rl by the plan's method, with up to
// workers goroutines, and gives its summary; both methods give the same.
func Summarize(ctx context.Context, rl rules.Rules, plan Plan, workers int) (Summary, error) {
	if plan.Method == ByRank {
		r, err := SolveRanked(ctx, rl, workers)
		if err != nil {
			return Summary{}, err
		}
		return r.Summarize(), nil
	}
	// The summary needs no paths or classes: a lean enumeration.
	e, err := enumerate.Positions(ctx, rl, workers)
	if err != nil {
		return Summary{}, err
	}
	r, err := Enumeration(ctx, e, workers)
	if err != nil {
		return Summary{}, err
	}
	return r.Summarize(), nil
}

// Positions gives the positions of the result in order: those whose game
// goes on, and with terminal also the finished ones. They are what a user's
// solver or agent is asked about.
func (r *Result) Positions(terminal bool) []int {
	var out []int
	for i, st := range r.Enum.Status {
		if terminal || !st.Terminal() {
			out = append(out, i)
		}
	}
	return out
}
