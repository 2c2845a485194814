// Package external owns the tests of a user's own programs against the lab's
// answers: a checker program (a board in, its status out) against the
// bitmask status, and a solver program (a board in, its value and optionally
// depth and best moves out) against the solved game, each over its line
// protocol (docs/protocols.md). Agents and contest programs have packages of
// their own, grade and judge; all run programs through internal/extproc.
package external

import (
	"context"
	"fmt"
	"strings"

	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/extproc"
	"github.com/tateti-lab/tateti-lab/internal/protocol"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/verify"
)

// Boards is a sequence of boards to send to an external checker, each with the
// status it should get and whether it can arise in play.
type Boards interface {
	Len() int
	At(k int) (b game.Board, want game.Status, reachable bool)
}

// Checker describes a user's checker program and the spelling of its
// requests and answers (the external checker protocol of DESIGN.md).
type Checker struct {
	protocol.Program
	Results [4]string // tokens for X wins, O wins, draw, in progress
}

// CheckerReport compares the program's answers with the bitmask status.
type CheckerReport struct {
	Program  string                `json:"program"`
	Boards   int64                 `json:"boards"`
	Agree    int64                 `json:"agree"`    // reachable boards answered right
	Disagree int64                 `json:"disagree"` // reachable boards answered wrong
	First    []verify.Disagreement `json:"first_disagreements"`
	// Boards that cannot arise (with --all-boards): differences are findings.
	UnreachableBoards int64                 `json:"unreachable_boards"`
	UnreachableDiffer int64                 `json:"unreachable_differ"`
	FirstUnreachable  []verify.Disagreement `json:"first_unreachable_differences"`
}

// Run starts the program once, streams every board to it while reading its
// answers, and compares them with the bitmask status. A failure of the
// program is an *extproc.ProgramError; when ctx is cancelled Run gives ctx's
// error. The program and its children are never left running.
func (x *Checker) Run(ctx context.Context, rs rules.Spec, boards Boards) (*CheckerReport, error) {
	n := boards.Len()
	rep := &CheckerReport{Program: strings.Join(x.Argv, " "), Boards: int64(n), First: []verify.Disagreement{}, FirstUnreachable: []verify.Disagreement{}}
	status := map[string]game.Status{x.Results[0]: game.XWon, x.Results[1]: game.OWon, x.Results[2]: game.Draw, x.Results[3]: game.InProgress}
	cells := x.Cells
	err := extproc.Exchange(ctx, x.Config(rs), "checker", n,
		func(dst []byte, k int) []byte {
			b, _, _ := boards.At(k)
			return cells.AppendLine(dst, rs.Spec, b)
		},
		func(k int, text string) error {
			got, ok := status[strings.TrimSpace(text)]
			if !ok {
				return fmt.Errorf("answered %q to request %d, want one of %s", game.Echo(strings.TrimSpace(text)), k+1, strings.Join(x.Results[:], ", "))
			}
			rep.add(rs.Spec, boards, k, got)
			return nil
		})
	if err != nil {
		return nil, err
	}
	return rep, nil
}

// add counts the answer got to request k.
func (r *CheckerReport) add(s game.Spec, boards Boards, k int, got game.Status) {
	b, want, reachable := boards.At(k)
	diff := func() verify.Disagreement {
		return verify.Disagreement{Board: s.Format(b), StateID: game.ID(b), Statuses: []string{want.String(), got.String()}}
	}
	switch {
	case reachable && got == want:
		r.Agree++
	case reachable:
		r.Disagree++
		r.First = verify.Keep(r.First, diff())
	default:
		r.UnreachableBoards++
		if got != want {
			r.UnreachableDiffer++
			r.FirstUnreachable = verify.Keep(r.FirstUnreachable, diff())
		}
	}
}

// PositionBoards gives the positions of e, all reachable, as Boards.
func PositionBoards(e *enumerate.Result) Boards { return positions{e} }

type positions struct{ e *enumerate.Result }

func (p positions) Len() int { return p.e.Len() }

func (p positions) At(k int) (game.Board, game.Status, bool) {
	return p.e.Board(k), p.e.Status[k], true
}

// RawBoards gives every raw board of rl's game, 3^cells of them in state id
// order, as Boards; the ones that cannot arise under rl are marked so.
func RawBoards(rl rules.Rules) Boards { return raw{rl} }

type raw struct{ rl rules.Rules }

func (r raw) Len() int { return int(game.Pow3(r.rl.Spec().Cells())) }

func (r raw) At(k int) (game.Board, game.Status, bool) {
	b := game.FromID(uint64(k))
	return b, r.rl.Game().Status(b), r.rl.Reachability(b) == rules.Reachable
}
