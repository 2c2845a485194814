package solve

import (
	"context"

	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Summarize enumerates and solves the whole game of rl in memory, with up
// to workers goroutines, and gives its summary.
func Summarize(ctx context.Context, rl rules.Rules, workers int) (perfect.Summary, error) {
	// The summary needs no paths or classes: a lean enumeration.
	e, err := enumerate.Positions(ctx, rl, workers)
	if err != nil {
		return perfect.Summary{}, err
	}
	r, err := Enumeration(ctx, e, workers)
	if err != nil {
		return perfect.Summary{}, err
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
