package verify

import (
	"context"
	"fmt"

	"github.com/tateti-lab/tateti-lab/checker"
	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/index"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
)

// Report is every proof of a game: the voices on every reachable position,
// the solver's cross-checks, and with all boards the raw boards.
type Report struct {
	Game      rules.Spec   `json:"game"`
	OK        bool         `json:"ok"` // no check found a disagreement
	Positions *CheckReport `json:"positions"`
	Solver    CrossChecks  `json:"solver"`
	AllBoards *RawReport   `json:"all_boards,omitempty"`
}

// CrossChecks are the solver's checks: the minimax recurrence on every
// position, and the naive solver where it is small enough.
type CrossChecks struct {
	Recurrence *RecurrenceReport `json:"recurrence"`
	Naive      *NaiveReport      `json:"naive"`
}

// ok reports whether no proof of r found a disagreement. Differences on
// boards that cannot arise are findings, not failures.
func (r *Report) ok() bool {
	return r.Positions.Disagree == 0 && r.Solver.Recurrence.Fail == 0 && r.Solver.Naive.Disagree == 0 &&
		(r.AllBoards == nil || (r.AllBoards.Reachable.Disagree == 0 && r.AllBoards.Mismatches == 0))
}

// CheckAllBoards refuses all boards of a board past index.DenseCells cells:
// they are all 3^n raw boards, not the reachable ones.
func CheckAllBoards(s rules.Spec) error {
	if s.Cells() > index.DenseCells {
		return fmt.Errorf("the raw boards are walked up to %d cells (%d boards), and %s has %d cells (%d boards)",
			index.DenseCells, game.Pow3(index.DenseCells), s.Size(), s.Cells(), game.Pow3(s.Cells()))
	}
	return nil
}

// Run proves the game of rl: it enumerates it, asks every checker and the
// bitmask status about every position, solves it and cross-checks the
// solver, and with allBoards also walks every raw board. Up to workers
// goroutines share the work; the report does not depend on workers.
func Run(ctx context.Context, rl rules.Rules, allBoards bool, workers int) (*Report, error) {
	e, err := enumerate.Game(ctx, rl, workers)
	if err != nil {
		return nil, err
	}
	cs, err := checker.All(rl.Spec().Spec)
	if err != nil {
		return nil, err
	}
	r := &Report{Game: rl.Spec()}
	if r.Positions, err = Positions(ctx, e, cs, workers); err != nil {
		return nil, err
	}
	sol, err := solve.Enumeration(ctx, e, workers)
	if err != nil {
		return nil, err
	}
	if r.Solver.Recurrence, err = Recurrence(ctx, sol, workers); err != nil {
		return nil, err
	}
	if r.Solver.Naive, err = Naive(ctx, sol); err != nil {
		return nil, err
	}
	if allBoards {
		if r.AllBoards, err = AllBoards(ctx, e, cs, workers); err != nil {
			return nil, err
		}
	}
	r.OK = r.ok()
	return r, nil
}
