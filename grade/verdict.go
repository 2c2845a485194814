package grade

import (
	"context"
	"fmt"
	"slices"

	"github.com/tateti-lab/tateti-lab/internal/protocol"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
)

// Result is an agent's grade with its verdict: passed unless a minimum
// accuracy was asked and not met.
type Result struct {
	Game             rules.Spec `json:"game"`
	Passed           bool       `json:"passed"`
	MinAccuracy      *float64   `json:"min_accuracy"` // the percent asked for; null when none was
	Agent            *Report    `json:"agent"`
	perfect.Answered            // who gave the right answers, set by the caller
}

// Grade solves rl's game and grades the agent on every position whose game
// goes on, or on sample of them drawn from seed (sample 0: all). With
// minAccuracy not nil, it passes only when at least that percent of its
// moves keep the value.
func (a *Agent) Grade(ctx context.Context, rl rules.Rules, sample int, seed uint64, minAccuracy *float64, workers int) (*Result, error) {
	sol, err := solve.Lean(ctx, rl, workers) // values and moves: no paths asked
	if err != nil {
		return nil, err
	}
	return a.verdict(ctx, rl, sol.Set(protocol.Choose(sol.Positions(false), sample, seed)), minAccuracy)
}

// GradeAnalysed grades the agent on the analysed positions as of rl's
// game, those whose game is not over, in their order, as Grade does.
func (a *Agent) GradeAnalysed(ctx context.Context, rl rules.Rules, as []perfect.Analysis, minAccuracy *float64) (*Result, error) {
	going := slices.DeleteFunc(slices.Clone(as), func(a perfect.Analysis) bool { return a.Status.Terminal() })
	if len(going) == 0 {
		return nil, fmt.Errorf("none of the %d positions is in progress, and an agent is asked for moves only where the game goes on", len(as))
	}
	return a.verdict(ctx, rl, solve.Analysed(going), minAccuracy)
}

// verdict grades the agent on set, and passes it unless minAccuracy is
// asked and not met.
func (a *Agent) verdict(ctx context.Context, rl rules.Rules, set solve.Set, minAccuracy *float64) (*Result, error) {
	rep, err := a.Run(ctx, rl, set)
	if err != nil {
		return nil, err
	}
	r := &Result{Game: rl.Spec(), Passed: true, MinAccuracy: minAccuracy, Agent: rep}
	if minAccuracy != nil {
		r.Passed = rep.Overall.Accuracy >= *minAccuracy
	}
	return r, nil
}
