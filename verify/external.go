package verify

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/extproc"
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

// ExternalError is a failure of the program itself: it could not start, it
// stopped early, answered too much, answered garbage or was silent too long.
type ExternalError struct {
	Program string
	What    string
	Answers int64 // answers read before the failure
	Boards  int64
	Stderr  string // the tail of its standard error
}

func (e *ExternalError) Error() string {
	msg := fmt.Sprintf("checker program %q %s (%d of %d answers read)", e.Program, e.What, e.Answers, e.Boards)
	if e.Stderr != "" {
		msg += "; the end of its stderr:\n" + e.Stderr
	}
	return msg
}

// Run starts the program once, streams every board to it while reading its
// answers, and compares them with want. The program and its children are
// never left running. When ctx is cancelled, Run stops the program and gives
// ctx's error, blaming nobody.
func (x *External) Run(ctx context.Context, rs rules.Spec, boards Boards) (*ExternalReport, error) {
	s := rs.Spec
	prog := strings.Join(x.Argv, " ")
	n := boards.Len()
	rep := &ExternalReport{Program: prog, Boards: int64(n), First: []Disagreement{}, FirstUnreachable: []Disagreement{}}
	p, err := extproc.Start(ctx, extproc.Config{Argv: x.Argv, Env: Environment(rs), Silence: x.Timeout, Total: x.Total},
		func(w io.Writer) error { return x.writeRequests(w, s, boards) })
	if err != nil {
		return nil, &ExternalError{Program: prog, What: err.Error(), Boards: int64(n)}
	}
	defer p.Stop()
	var read int64
	fail := func(what string) error {
		p.Stop()
		return &ExternalError{Program: prog, What: what, Answers: read, Boards: int64(n), Stderr: p.Stderr()}
	}
	status := map[string]game.Status{x.Results[0]: game.XWon, x.Results[1]: game.OWon, x.Results[2]: game.Draw, x.Results[3]: game.InProgress}
	for k := range n {
		text, err := p.Line()
		if err != nil {
			return nil, x.failure(ctx, p, err, fail)
		}
		got, ok := status[strings.TrimSpace(text)]
		if !ok {
			return nil, fail(fmt.Sprintf("answered %q to request %d, want one of %s", game.Echo(strings.TrimSpace(text)), k+1, strings.Join(x.Results[:], ", ")))
		}
		read++
		rep.add(s, boards, k, got)
	}
	if err := p.Exit(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fail("answered every request but then failed: " + err.Error())
	}
	if extra := p.Rest(); extra != "" {
		return nil, fail(fmt.Sprintf("printed more answers than requests: line %d is %q", n+1, game.Echo(extra)))
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

// writeRequests writes one line per board: the cells row-major, spelled with
// x.Cells, separated by single spaces.
func (x *External) writeRequests(w io.Writer, s game.Spec, boards Boards) error {
	line := make([]byte, 0, 4*s.Cells())
	for k := range boards.Len() {
		b, _, _ := boards.At(k)
		line = line[:0]
		for i := range s.Cells() {
			if i > 0 {
				line = append(line, ' ')
			}
			line = append(line, x.Cells[cellIndex(b.At(i))]...)
		}
		if _, err := w.Write(append(line, '\n')); err != nil {
			return err
		}
	}
	return nil
}

// failure says why the answers stopped: the run was interrupted (ctx's error,
// passed on), the program was silent or over time, or its output ended.
func (x *External) failure(ctx context.Context, p *extproc.Proc, err error, fail func(string) error) error {
	var pe *extproc.Error
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.As(err, &pe):
		return fail(pe.What)
	case !errors.Is(err, io.EOF):
		return fail(err.Error())
	}
	exit := p.Exit()
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case exit != nil:
		return fail("stopped early: " + exit.Error())
	}
	return fail("stopped early: it exited with status 0 before answering every request")
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

func cellIndex(c game.Cell) int {
	switch c {
	case game.X:
		return 0
	case game.O:
		return 1
	}
	return 2
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
