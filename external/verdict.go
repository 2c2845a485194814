package external

import (
	"context"
	"errors"
	"slices"

	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/internal/protocol"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
)

// CheckerResult is the verdict on a checker program: OK when it agrees on
// every reachable board it was sent.
type CheckerResult struct {
	Game     rules.Spec     `json:"game"`
	OK       bool           `json:"ok"`
	External *CheckerReport `json:"external"`
}

// Verify sends the checker every reachable position of rl's game, or with
// allBoards every raw board, and judges its answers.
func (x *Checker) Verify(ctx context.Context, rl rules.Rules, allBoards bool, workers int) (*CheckerResult, error) {
	var boards Boards
	if allBoards {
		boards = RawBoards(rl)
	} else {
		e, err := enumerate.Positions(ctx, rl, workers) // boards and status alone
		if err != nil {
			return nil, err
		}
		boards = PositionBoards(e)
	}
	rep, err := x.Run(ctx, rl.Spec(), boards)
	if err != nil {
		return nil, err
	}
	return &CheckerResult{Game: rl.Spec(), OK: rep.Disagree == 0, External: rep}, nil
}

// SolverResult is the verdict on a solver program: OK when it agrees on
// every position it was sent.
type SolverResult struct {
	Game             rules.Spec    `json:"game"`
	OK               bool          `json:"ok"`
	Solver           *SolverReport `json:"solver"`
	perfect.Answered               // who gave the right answers, set by the caller
}

// Selection says which positions of a game a program is sent.
type Selection struct {
	Terminal bool   // the finished positions too
	Sample   int    // that many, drawn reproducibly; 0: all
	Seed     uint64 // the seed of the draw
}

// Verify solves rl's game, sends the solver the selected positions and
// judges its answers.
func (x *Solver) Verify(ctx context.Context, rl rules.Rules, sel Selection, workers int) (*SolverResult, error) {
	sol, err := solve.Lean(ctx, rl, workers) // values and moves: no paths asked
	if err != nil {
		return nil, err
	}
	return x.verdict(ctx, rl, sol.Set(protocol.Choose(sol.Positions(sel.Terminal), sel.Sample, sel.Seed)))
}

// ErrNoneInProgress is VerifyAnalysed's refusal of a set of finished
// positions alone, without the finished ones asked for.
var ErrNoneInProgress = errors.New("none of the positions is in progress")

// VerifyAnalysed sends the solver the analysed positions as of rl's game,
// in their order (with terminal, the finished ones too), and judges its
// answers.
func (x *Solver) VerifyAnalysed(ctx context.Context, rl rules.Rules, as []perfect.Analysis, terminal bool) (*SolverResult, error) {
	if !terminal {
		as = slices.DeleteFunc(slices.Clone(as), func(a perfect.Analysis) bool { return a.Status.Terminal() })
	}
	if len(as) == 0 {
		return nil, ErrNoneInProgress
	}
	return x.verdict(ctx, rl, solve.Analysed(as))
}

// verdict sends the solver set and judges its answers.
func (x *Solver) verdict(ctx context.Context, rl rules.Rules, set solve.Set) (*SolverResult, error) {
	rep, err := x.Run(ctx, rl, set)
	if err != nil {
		return nil, err
	}
	return &SolverResult{Game: rl.Spec(), OK: rep.Disagree == 0, Solver: rep}, nil
}
