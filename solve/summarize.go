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
	r, err := Lean(ctx, rl, workers) // the summary needs no paths or classes
	if err != nil {
		return perfect.Summary{}, err
	}
	return r.Summarize(), nil
}

// Lean solves the whole game of rl as Game does, but its enumeration leaves
// out the paths and classes of the positions (enumerate.Positions): values,
// depths and moves in less time and memory; Analysis finds a position's
// class and paths when it is asked for them.
func Lean(ctx context.Context, rl rules.Rules, workers int) (*Result, error) {
	e, err := enumerate.Positions(ctx, rl, workers)
	if err != nil {
		return nil, err
	}
	return Enumeration(ctx, e, workers)
}

// Positions gives the positions of the result in order: those whose game
// goes on, and with terminal also the finished ones. They are what a user's
// solver or agent is asked about.
func (r *Result) Positions(terminal bool) []int {
	out := make([]int, 0, len(r.Enum.Status)) // one allocation, at most all of them
	for i, st := range r.Enum.Status {
		if terminal || !st.Terminal() {
			out = append(out, i)
		}
	}
	return out
}
