package judge

import (
	"context"

	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Verdict is a judged run of UVa 10111 with what it means for the caller.
type Verdict struct {
	Game rules.Spec `json:"game"`
	// Answered is who gave the right answers: the oracle's engine, and the
	// planner's reason where the caller sets it.
	perfect.Answered
	OK  bool    `json:"ok"` // Accepted
	Run *Result `json:"judge"`
}

// Misbehaved reports whether the program, rather than its answers, failed:
// it ran past the time, output or memory limit or ended with an error.
func (v *Verdict) Misbehaved() bool {
	switch v.Run.Verdict {
	case TimeLimitExceeded, RuntimeError, OutputLimitExceeded, MemoryLimitExceeded:
		return true
	}
	return false
}

// Judge enumerates the 4x4 game, draws the sample and n cases from seed (n
// < 0: every case the problem allows), asks o for their right answers, and
// judges the program on them under the limits. The sample alone (n 0)
// needs no enumeration.
func Judge(ctx context.Context, o oracle.Oracle, argv []string, n int, seed uint64, limits Limits, workers int) (*Verdict, error) {
	var e *enumerate.Result
	if n != 0 {
		var err error
		// The draw needs the positions and their status, not their paths.
		if e, err = enumerate.Positions(ctx, rules.New(UVa10111), workers); err != nil {
			return nil, err
		}
	}
	cases, err := Cases(ctx, e, o, n, seed)
	if err != nil {
		return nil, err
	}
	res, err := Run(ctx, argv, cases, limits)
	if err != nil {
		return nil, err
	}
	return &Verdict{Game: UVa10111, Answered: perfect.Answered{Engine: o.Name()}, OK: res.Verdict == Accepted, Run: res}, nil
}
