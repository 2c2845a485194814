package grade

import (
	"context"

	"github.com/tateti-lab/tateti-lab/internal/protocol"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
)

// Result is an agent's grade with its verdict: passed unless a minimum
// accuracy was asked and not met.
type Result struct {
	Game        rules.Spec `json:"game"`
	Passed      bool       `json:"passed"`
	MinAccuracy *float64   `json:"min_accuracy"` // the percent asked for; null when none was
	Agent       *Report    `json:"agent"`
}

// Grade solves rl's game and grades the agent on every position whose game
// goes on, or on sample of them drawn from seed (sample 0: all). With
// minAccuracy not nil, it passes only when at least that percent of its
// moves keep the value.
func (a *Agent) Grade(ctx context.Context, rl rules.Rules, sample int, seed uint64, minAccuracy *float64, workers int) (*Result, error) {
	sol, err := solve.Game(ctx, rl, workers)
	if err != nil {
		return nil, err
	}
	rep, err := a.Run(ctx, sol, protocol.Choose(sol.Positions(false), sample, seed))
	if err != nil {
		return nil, err
	}
	r := &Result{Game: rl.Spec(), Passed: true, MinAccuracy: minAccuracy, Agent: rep}
	if minAccuracy != nil {
		r.Passed = rep.Overall.Accuracy >= *minAccuracy
	}
	return r, nil
}
