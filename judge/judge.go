// Package judge owns judging contest programs against perfect play, as an
// online judge does: it writes the cases in the problem's own input format,
// runs the program once, and gives a verdict (Accepted, Wrong Answer,
// Presentation Error, Time Limit Exceeded, Runtime Error) with the first
// wrong case. UVa 10111, "Find the Winning Move", is the one problem so far.
package judge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/extproc"
	"github.com/tateti-lab/tateti-lab/internal/figure"
	"github.com/tateti-lab/tateti-lab/internal/protocol"
	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

// The verdicts.
const (
	Accepted            = "Accepted"
	WrongAnswer         = "Wrong Answer"
	PresentationError   = "Presentation Error"
	TimeLimitExceeded   = "Time Limit Exceeded"
	RuntimeError        = "Runtime Error"
	OutputLimitExceeded = "Output Limit Exceeded"
	MemoryLimitExceeded = "Memory Limit Exceeded"
)

// Limits bound a judged run: its whole time, and the resident memory of
// the program and the children it starts (0: no bound).
type Limits struct {
	Time   time.Duration
	Memory uint64
}

// OutputLimit is the most bytes of output read from a program judged on n
// cases: a megabyte, and 64 bytes a case past that ("(3,4)" and its line
// end are 6). A program that prints more is stopped, Output Limit Exceeded.
func OutputLimit(n int) int64 { return 1<<20 + 64*int64(n) }

// UVa10111 is the problem's game: 4x4, four in a row, X first.
var UVa10111 = rules.Spec{Spec: game.Spec{Rows: 4, Cols: 4, K: 4}}

// CasesError refuses more cases than the problem allows: bad input.
type CasesError struct{ Asked, Allowed int }

func (e *CasesError) Error() string {
	return fmt.Sprintf("--cases %d is more than the %s positions the problem allows: give at most that, or --all for every one", e.Asked, figure.Commas(int64(e.Allowed)))
}

// Case is one test case and its right answer.
type Case struct {
	Board  game.Board
	Answer string // "(row,col)" or "#####"
}

// Sample is the problem's sample input, the first cases of every run.
var Sample = []string{"..../.xo./.ox./....", "o.../.ox./.xxx/xooo"}

// Cases gives the sample, then n positions chosen reproducibly from seed
// among those the problem allows (all of them when n < 0): reachable, x to
// move, each side with at least two marks, no line, not full. e is the
// enumerated 4x4 game, nil for the sample alone (n 0); o answers each
// case (made with oracle.Options.NoLines, as no best line is needed).
func Cases(ctx context.Context, e *enumerate.Result, o oracle.Oracle, n int, seed uint64) ([]Case, error) {
	var boards []game.Board
	for _, text := range Sample {
		b, err := UVa10111.Spec.Parse(text)
		if err != nil {
			return nil, err
		}
		if err := rules.CheckReachable(rules.New(UVa10111), b); err != nil {
			return nil, fmt.Errorf("sample %s: %w", text, err)
		}
		boards = append(boards, b)
	}
	if n == 0 {
		return answers(ctx, o, boards)
	}
	total := 0
	eachAllowed(e, func(int) { total++ })
	switch {
	case n < 0:
		n = total
	case n > total:
		return nil, &CasesError{Asked: n, Allowed: total}
	}
	picks, rank := protocol.Sample(total, n, seed), 0 // picks: ranks, sorted
	eachAllowed(e, func(i int) {
		if len(picks) > 0 && picks[0] == rank {
			boards, picks = append(boards, e.Board(i)), picks[1:]
		}
		rank++
	})
	return answers(ctx, o, boards)
}

// eachAllowed calls f with the index in e of each position the problem
// allows, in the order of the indices: two passes over the positions cost
// less than a list of the millions allowed.
func eachAllowed(e *enumerate.Result, f func(i int)) {
	for p := 4; p < UVa10111.Cells(); p += 2 { // x to move: an even ply
		lo, hi := e.Layer(p)
		for i := lo; i < hi; i++ {
			if !e.Status[i].Terminal() {
				f(i)
			}
		}
	}
}

// answers gives the cases of boards, each with its right answer, o's.
func answers(ctx context.Context, o oracle.Oracle, boards []game.Board) ([]Case, error) {
	cases := make([]Case, len(boards))
	err := oracle.Each(ctx, o, rules.New(UVa10111), boards, "answers", func(i int, a perfect.Analysis) error {
		cases[i] = Case{Board: boards[i], Answer: answer(a)}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return cases, nil
}

// answer is the first move in row-major order that wins for x, or #####.
func answer(a perfect.Analysis) string {
	for _, m := range a.Moves {
		if m.Value == 1 {
			return fmt.Sprintf("(%d,%d)", m.Row, m.Col)
		}
	}
	return "#####"
}

// Input writes the cases in the problem's format: "?", the four rows in
// lower case with '.' for empty, and "$" at the end.
func Input(cases []Case) []byte {
	var buf bytes.Buffer
	for _, c := range cases {
		buf.WriteString("?\n")
		rows := strings.Split(strings.ToLower(UVa10111.Spec.Format(c.Board)), "/")
		buf.WriteString(strings.Join(rows, "\n") + "\n")
	}
	buf.WriteString("$\n")
	return buf.Bytes()
}

// Result is a judged run.
type Result struct {
	Problem string        `json:"problem"`
	Program string        `json:"program"`
	Verdict string        `json:"verdict"`
	Cases   int           `json:"cases"`
	Correct int           `json:"correct"` // cases answered right before the first wrong one
	First   *Wrong        `json:"first_wrong,omitempty"`
	Exit    string        `json:"exit,omitempty"`   // how the program ended, for a Runtime Error
	Stderr  string        `json:"stderr,omitempty"` // the tail of its stderr, for a Runtime Error
	Time    time.Duration `json:"-"`
}

// Ending says how a program with a Runtime Error failed, as words after
// "the program": "ended with exit status 3", or what it did wrong, such as
// "printed a line longer than ...".
func (r *Result) Ending() string {
	if strings.HasPrefix(r.Exit, "exit status ") || strings.HasPrefix(r.Exit, "signal: ") {
		return "ended with " + r.Exit
	}
	return r.Exit
}

// Wrong is the first case answered wrong.
type Wrong struct {
	Case     int    `json:"case"` // from 1
	Board    string `json:"board"`
	Expected string `json:"expected"`
	Got      string `json:"got"` // the line printed, or "" when there was none
}

// Run judges the program on the cases: it is run once with the whole input
// on stdin, under the limits. An interrupt gives ctx's error; a program that
// cannot start is an error too.
func Run(ctx context.Context, argv []string, cases []Case, limits Limits) (*Result, error) {
	res := &Result{Problem: "UVa 10111", Program: strings.Join(argv, " "), Cases: len(cases)}
	input := Input(cases)
	start := time.Now()
	p, err := extproc.Start(ctx, extproc.Config{Argv: argv, Total: limits.Time, Memory: limits.Memory}, func(w io.Writer) error {
		_, err := w.Write(input)
		return err
	})
	if err != nil {
		return nil, &extproc.ProgramError{Role: "contest", Program: res.Program, What: err.Error(), Requests: len(cases)}
	}
	defer p.Stop()
	out, done := readOutput(ctx, p, res, len(cases), start)
	if done {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if res.Verdict == "" {
			res.compare(cases, out)
		}
		return res, nil
	}
	exit := p.Exit()
	res.Time = time.Since(start)
	var pe *extproc.Error
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case errors.As(exit, &pe):
		res.Verdict = overLimit(pe)
	case exit != nil:
		res.Verdict, res.Exit, res.Stderr = RuntimeError, exit.Error(), p.Stderr()
	default:
		res.compare(cases, out)
	}
	return res, nil
}

// overLimit gives the verdict of a program stopped by a limit.
func overLimit(e *extproc.Error) string {
	if e.OverMemory {
		return MemoryLimitExceeded
	}
	return TimeLimitExceeded
}

// readOutput reads the program's output lines for n cases, and says
// whether the judging is done before the program's exit: a verdict set in
// res (over time, a read error, over the output limit), an interruption,
// or a line past the n answers (a Wrong Answer that compare gives, the
// program stopped: a flood of lines is not read to its end).
func readOutput(ctx context.Context, p *extproc.Proc, res *Result, n int, start time.Time) ([]string, bool) {
	var out []string
	var bytes int64
	printed := 0
	for {
		line, err := p.Line()
		if errors.Is(err, io.EOF) {
			return out, false
		}
		var pe *extproc.Error
		switch {
		case ctx.Err() != nil:
			return nil, true
		case errors.As(err, &pe):
			res.Verdict, res.Time = overLimit(pe), time.Since(start)
			return nil, true
		case errors.Is(err, extproc.ErrLongLine): // more bytes than any limit, in one line
			bytes = OutputLimit(n)
		case err != nil:
			res.Verdict, res.Exit = RuntimeError, err.Error()
			return nil, true
		}
		if bytes += int64(len(line)) + 1; bytes > OutputLimit(n) {
			p.Stop()
			res.Verdict, res.Time = OutputLimitExceeded, time.Since(start)
			res.Exit = fmt.Sprintf("printed more than %d bytes for %d cases", OutputLimit(n), n)
			return nil, true
		}
		out = append(out, line)
		if strings.TrimSpace(line) != "" {
			if printed++; printed > n {
				p.Stop()
				res.Time = time.Since(start)
				return out, true
			}
		}
	}
}

// compare sets the verdict from the output lines: Wrong Answer at the first
// case whose answer is wrong, blank lines and white space aside, or at a line
// too many; else Presentation Error at the first line that differs only in
// white space (or a blank line); else Accepted.
func (r *Result) compare(cases []Case, out []string) {
	var printed []string
	for _, l := range out {
		if strings.TrimSpace(l) != "" {
			printed = append(printed, l)
		}
	}
	wrong := func(k int, got string) *Wrong {
		w := &Wrong{Case: k + 1, Expected: "(nothing more)", Got: got}
		if k < len(cases) {
			w.Board, w.Expected = UVa10111.Spec.Format(cases[k].Board), cases[k].Answer
		}
		return w
	}
	for k, c := range cases {
		got := ""
		if k < len(printed) {
			got = printed[k]
		}
		if strings.Join(strings.Fields(got), "") != c.Answer {
			r.Verdict, r.First = WrongAnswer, wrong(k, got)
			return
		}
		r.Correct++
	}
	if len(printed) > len(cases) {
		r.Verdict, r.First = WrongAnswer, wrong(len(cases), printed[len(cases)])
		return
	}
	for k := range max(len(out), len(cases)) {
		if k >= len(out) || k >= len(cases) || out[k] != cases[k].Answer {
			got := ""
			if k < len(out) {
				got = out[k]
			}
			r.Verdict, r.First = PresentationError, wrong(k, got)
			return
		}
	}
	r.Verdict = Accepted
}
