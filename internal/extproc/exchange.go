package extproc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/tateti-lab/tateti-lab/game"
)

// ProgramError is a failure of the user's program itself: it could not
// start, stopped early, answered too much or what cannot be read, or was
// silent too long. Interrupts are not ProgramErrors.
type ProgramError struct {
	Role     string // "checker", "solver", "agent"
	Program  string
	What     string
	Answers  int // answers read before the failure
	Requests int
	Stderr   string // the tail of its standard error
}

func (e *ProgramError) Error() string {
	return fmt.Sprintf("%s program %q %s (%d of %d answers read)", e.Role, e.Program, e.What, e.Answers, e.Requests) + e.StderrEnd()
}

// StderrEnd says what the program last wrote to stderr, to follow what
// went wrong: "; the end of its stderr:" and the tail; "" when it wrote
// nothing there.
func (e *ProgramError) StderrEnd() string {
	if e.Stderr == "" {
		return ""
	}
	return "; the end of its stderr:\n" + e.Stderr
}

// Exchange runs the line protocol every external mode shares: the program is
// started once; request k is the line request appends (newline included),
// written while the answers are read; answer is called with each answer line
// in order and returns an error when the line cannot be read as an answer.
// The program must then exit with status 0 and print nothing more. Every
// failure of the program is a *ProgramError naming role; when ctx is
// cancelled Exchange gives ctx's error, blaming nobody. Nothing is left
// running.
func Exchange(ctx context.Context, cfg Config, role string, n int, request func(dst []byte, k int) []byte, answer func(k int, text string) error) error {
	prog := strings.Join(cfg.Argv, " ")
	p, err := Start(ctx, cfg, func(w io.Writer) error {
		var line []byte
		for k := range n {
			line = request(line[:0], k)
			if _, err := w.Write(line); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return &ProgramError{Role: role, Program: prog, What: err.Error(), Requests: n}
	}
	defer p.Stop()
	read := 0
	fail := func(what string) error {
		p.Stop()
		return &ProgramError{Role: role, Program: prog, What: what, Answers: read, Requests: n, Stderr: p.Stderr()}
	}
	for k := range n {
		text, err := p.Line()
		if err != nil {
			return p.failure(ctx, err, fail)
		}
		if err := answer(k, text); err != nil {
			return fail(err.Error())
		}
		read++
	}
	more := func(extra string) error {
		return fail(fmt.Sprintf("printed more answers than requests: line %d is %q", n+1, game.Echo(extra)))
	}
	if err := p.Exit(); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if extra := p.pending(); extra != "" { // it went on answering, and never exited
			return more(extra)
		}
		return fail("answered every request but then failed: " + err.Error())
	}
	if extra := p.Rest(); extra != "" {
		return more(extra)
	}
	return nil
}

// failure says why the answers stopped: the run was interrupted (ctx's
// error, passed on), the program was silent or over time, or its output
// ended early.
func (p *Proc) failure(ctx context.Context, err error, fail func(string) error) error {
	var pe *Error
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.As(err, &pe):
		return fail(pe.What)
	case !errors.Is(err, io.EOF):
		return fail(err.Error())
	}
	exit := p.exit("exit")
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.As(exit, &pe) && !pe.OverMemory: // its output closed, it ran on
		return fail("closed its output before answering every request, and " + pe.What)
	case exit != nil:
		return fail("stopped early: " + exit.Error())
	}
	return fail("stopped early: it exited with status 0 before answering every request")
}
