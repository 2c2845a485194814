package verify

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/extproc"
	"github.com/tateti-lab/tateti-lab/internal/protocol"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Boards is a sequence of boards to send to an external checker, each with the
// status it should get and whether it can arise in play.
type Boards interface {
	Len() int
	At(k int) (b game.Board, want game.Status, reachable bool)
}

// External describes a user's checker program and the spelling of its
// requests and answers (the external checker protocol of DESIGN.md).
type External struct {
	Argv    []string      // the program and its arguments
	Cells   [3]string     // tokens for X, O and an empty cell
	Results [4]string     // tokens for X wins, O wins, draw, in progress
	Timeout time.Duration // the longest silence: no answer (or no exit) for that long stops it
	Total   time.Duration // the longest the whole run may take; 0: no limit
}

// ExternalReport compares the program's answers with the bitmask status.
type ExternalReport struct {
	Program  string         `json:"program"`
	Boards   int64          `json:"boards"`
	Agree    int64          `json:"agree"`    // reachable boards answered right
	Disagree int64          `json:"disagree"` // reachable boards answered wrong
	First    []Disagreement `json:"first_disagreements"`
	// Boards that cannot arise (with --all-boards): differences are findings.
	UnreachableBoards int64          `json:"unreachable_boards"`
	UnreachableDiffer int64          `json:"unreachable_differ"`
	FirstUnreachable  []Disagreement `json:"first_unreachable_differences"`
}

// Run starts the program once, streams every board to it while reading its
// answers, and compares them with the bitmask status. A failure of the
// program is an *extproc.ProgramError; when ctx is cancelled Run gives ctx's
// error. The program and its children are never left running.
func (x *External) Run(ctx context.Context, rs rules.Spec, boards Boards) (*ExternalReport, error) {
	n := boards.Len()
	rep := &ExternalReport{Program: strings.Join(x.Argv, " "), Boards: int64(n), First: []Disagreement{}, FirstUnreachable: []Disagreement{}}
	status := map[string]game.Status{x.Results[0]: game.XWon, x.Results[1]: game.OWon, x.Results[2]: game.Draw, x.Results[3]: game.InProgress}
	cells := protocol.Cells(x.Cells)
	err := extproc.Exchange(ctx, extproc.Config{Argv: x.Argv, Env: Environment(rs), Silence: x.Timeout, Total: x.Total}, "checker", n,
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
func (r *ExternalReport) add(s game.Spec, boards Boards, k int, got game.Status) {
	b, want, reachable := boards.At(k)
	diff := func() Disagreement {
		return Disagreement{Board: game.Format(s, b), StateID: game.ID(b), Statuses: []string{want.String(), got.String()}}
	}
	switch {
	case reachable && got == want:
		r.Agree++
	case reachable:
		r.Disagree++
		r.First = keep(r.First, diff())
	default:
		r.UnreachableBoards++
		if got != want {
			r.UnreachableDiffer++
			r.FirstUnreachable = keep(r.FirstUnreachable, diff())
		}
	}
}

// Environment gives the variables that tell an external program the game:
// TATETI_ROWS, TATETI_COLS and TATETI_K, and TATETI_GRAVITY=1 and
// TATETI_MISERE=1 where those rules are on.
func Environment(s rules.Spec) []string {
	env := []string{fmt.Sprintf("TATETI_ROWS=%d", s.Rows), fmt.Sprintf("TATETI_COLS=%d", s.Cols), fmt.Sprintf("TATETI_K=%d", s.K)}
	if s.Gravity {
		env = append(env, "TATETI_GRAVITY=1")
	}
	if s.Misere {
		env = append(env, "TATETI_MISERE=1")
	}
	return env
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
