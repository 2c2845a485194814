package verify

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/game"
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
	Timeout time.Duration // for the whole run
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
// stopped early, answered too much, answered garbage or ran too long.
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
// answers, and compares them with want. The program is never left running.
func (x *External) Run(ctx context.Context, rs rules.Spec, boards Boards) (*ExternalReport, error) {
	s := rs.Spec
	prog := strings.Join(x.Argv, " ")
	n := boards.Len()
	rep := &ExternalReport{Program: prog, Boards: int64(n), First: []Disagreement{}, FirstUnreachable: []Disagreement{}}
	ctx, cancel := context.WithTimeout(ctx, x.Timeout)
	defer cancel()

	cmd := exec.CommandContext(ctx, x.Argv[0], x.Argv[1:]...)
	cmd.Env = append(os.Environ(), Environment(rs)...)
	killGroup(cmd)
	cmd.WaitDelay = time.Second
	tail := &tailWriter{max: 2048}
	cmd.Stderr = tail
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	wait := sync.OnceValue(cmd.Wait) // every path below waits once, however it ends
	fail := func(answers int64, what string) error {
		cancel()
		_ = wait()
		return &ExternalError{Program: prog, What: what, Answers: answers, Boards: int64(n), Stderr: tail.String()}
	}
	if err := cmd.Start(); err != nil {
		return nil, &ExternalError{Program: prog, What: "cannot start: " + err.Error(), Boards: int64(n)}
	}

	// The writer streams every request while the reader below reads answers, so
	// that neither side's pipe fills up and blocks the other.
	go func() {
		w := bufio.NewWriterSize(stdin, 64<<10)
		line := make([]byte, 0, 2*s.Cells())
		for k := range n {
			b, _, _ := boards.At(k)
			line = line[:0]
			for i := range s.Cells() {
				if i > 0 {
					line = append(line, ' ')
				}
				line = append(line, x.Cells[cellIndex(b.At(i))]...)
			}
			line = append(line, '\n')
			if _, err := w.Write(line); err != nil {
				break // the program is gone; the reader says why
			}
		}
		_ = w.Flush()
		_ = stdin.Close()
	}()

	status := map[string]game.Status{x.Results[0]: game.XWon, x.Results[1]: game.OWon, x.Results[2]: game.Draw, x.Results[3]: game.InProgress}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var read int64
	for k := range n {
		if !sc.Scan() {
			return nil, fail(read, x.stopped(ctx, wait, sc.Err()))
		}
		tok := strings.TrimSpace(sc.Text())
		got, ok := status[tok]
		if !ok {
			return nil, fail(read, fmt.Sprintf("answered %q to request %d, want one of %s", tok, k+1, strings.Join(x.Results[:], ", ")))
		}
		read++
		b, want, reachable := boards.At(k)
		d := Disagreement{Board: game.Format(s, b), StateID: game.ID(b), Statuses: []string{want.String(), got.String()}}
		switch {
		case reachable && got == want:
			rep.Agree++
		case reachable:
			rep.Disagree++
			rep.First = keep(rep.First, d)
		default:
			rep.UnreachableBoards++
			if got != want {
				rep.UnreachableDiffer++
				rep.FirstUnreachable = keep(rep.FirstUnreachable, d)
			}
		}
	}
	if sc.Scan() {
		return nil, fail(read, fmt.Sprintf("printed more answers than requests: line %d is %q", n+1, sc.Text()))
	}
	if err := wait(); err != nil {
		if ctx.Err() != nil {
			return nil, fail(read, fmt.Sprintf("answered every request but did not exit within %v of the start", x.Timeout))
		}
		return nil, fail(read, "answered every request but then failed: "+err.Error())
	}
	return rep, nil
}

// stopped says why the program's output ended before every answer.
func (x *External) stopped(ctx context.Context, wait func() error, readErr error) string {
	if readErr != nil {
		return "printed an answer line that could not be read: " + readErr.Error()
	}
	err := wait()
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Sprintf("ran past the timeout of %v (set --timeout for more)", x.Timeout)
	}
	if err != nil {
		return "stopped early: " + err.Error()
	}
	return "stopped early: it exited with status 0 before answering every request"
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

// tailWriter keeps the last max bytes written to it.
type tailWriter struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailWriter) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = t.buf[len(t.buf)-t.max:]
	}
	return len(p), nil
}

func (t *tailWriter) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimRight(string(t.buf), "\n")
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
