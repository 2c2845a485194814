// Package extproc owns running a user's program for the external protocols
// (checker, solver, agent, contest judge): it starts the program in a process
// group of its own, writes the requests to its stdin while its answers are
// read from its stdout, so that neither pipe fills and blocks the other, keeps
// the tail of its stderr, stops it when it has been silent too long or the
// whole run is over its limit, and never leaves it or its children running.
package extproc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Config says what to run and how long to wait.
type Config struct {
	Argv    []string      // the program and its arguments
	Env     []string      // added to the environment, NAME=value
	Silence time.Duration // the longest wait for a line of output or for the exit; 0: no limit
	// Start, when more than 0, is the longest wait for the first line in
	// place of Silence: the program's start-up (an interpreter, a model
	// loaded) and its first answer.
	Start time.Duration
	Total time.Duration // the longest the whole run may take; 0: no limit
	// Memory bounds the resident memory of the program's process group, in
	// bytes, read every 50 ms (Linux only); past it the program is stopped
	// and its Line and Exit give an *Error with OverMemory set. 0: no bound.
	Memory uint64
}

// DefaultMemory is the memory bound the commands give a user's program
// unless told otherwise.
const DefaultMemory = 2 << 30

// markEnv names the variable every program gets, with a value of its run's
// own: its descendants inherit it, so that they are found and stopped with
// it even when they leave its process group.
const markEnv = "TATETI_RUN"

// exitGrace is how long the children of a program that has exited may go on
// holding its output before they are stopped.
const exitGrace = 500 * time.Millisecond

// runs counts the programs started, for their marks.
var runs atomic.Uint64

// MaxLine is the longest answer line read.
const MaxLine = 1 << 20

// ErrLongLine is the error of a line longer than MaxLine: output past any
// limit on it, not a crash.
var ErrLongLine = fmt.Errorf("printed a line longer than %d bytes", MaxLine)

// Proc is a running program. Its methods are for one goroutine.
type Proc struct {
	cfg     Config
	ctx     context.Context
	cmd     *exec.Cmd
	mark    string // markEnv=value, in its environment
	lines   chan line
	tail    *tailWriter
	exited  chan struct{}    // closed when the program has exited
	errDone chan struct{}    // closed when its stderr is read to the end
	err     error            // its exit error, once exited is closed
	total   <-chan time.Time // fires once the total limit has passed
	stop    sync.Once
	killed  sync.Once             // killAll's work, done once: after it no descendant is left
	over    atomic.Pointer[Error] // set when the program used more than its memory bound
	started bool                  // a line has been read: the start-up is over
}

type line struct {
	text string
	err  error // io.EOF at the end of the output
}

// Error is a failure of the program: it did not answer in time, ran past
// the total limit, or used more than its memory bound (OverMemory). The
// sentence says which and how to give it more.
type Error struct {
	What       string
	OverMemory bool
}

// overMemory says that a program used more than limit bytes: in MiB where
// limit is a whole number of them, else in bytes (never "0 MiB").
func overMemory(limit uint64) string {
	amount := fmt.Sprintf("%d MiB", limit>>20)
	if limit%(1<<20) != 0 {
		amount = fmt.Sprintf("%d bytes", limit)
	}
	return fmt.Sprintf("used more than %s of memory (set --memory for more)", amount)
}

func (e *Error) Error() string { return e.What }

// Start starts the program. feed writes every request to w, in a goroutine
// of its own, and returns; stdin is then closed. A write that fails because
// the program has gone ends the feeding quietly: Line says why it is gone.
func Start(ctx context.Context, cfg Config, feed func(w io.Writer) error) (*Proc, error) {
	if len(cfg.Argv) == 0 {
		return nil, errors.New("no program to run")
	}
	cmd := exec.Command(cfg.Argv[0], cfg.Argv[1:]...)
	mark := markEnv + "=" + strconv.Itoa(os.Getpid()) + "." + strconv.FormatUint(runs.Add(1), 10)
	cmd.Env = append(append(os.Environ(), cfg.Env...), mark)
	ownGroup(cmd)
	becomeSubreaper()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	// Our own pipes for stdout and stderr, so that waiting for the program
	// never waits for a child of it that holds them open.
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	err = cmd.Start()
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return nil, fmt.Errorf("cannot start: %w", err)
	}
	p := &Proc{cfg: cfg, ctx: ctx, cmd: cmd, mark: mark, lines: make(chan line, 1024), tail: &tailWriter{max: 2048},
		exited: make(chan struct{}), errDone: make(chan struct{})}
	if cfg.Total > 0 {
		p.total = time.After(cfg.Total)
	}
	go func() {
		p.err = cmd.Wait()
		close(p.exited)
		// What is left once the program has exited is its children: a
		// moment for their last words, then they go, and with them the
		// pipes they hold, so that reading ends.
		time.Sleep(exitGrace)
		p.killAll()
	}()
	go p.watchMemory()
	go func() { io.Copy(p.tail, errR); errR.Close(); close(p.errDone) }()
	go p.read(outR)
	go func() {
		w := bufio.NewWriterSize(stdin, 64<<10)
		if feed(w) == nil {
			w.Flush()
		}
		stdin.Close()
	}()
	return p, nil
}

// read sends every line of out to p.lines, then the error that ended the
// output, and closes p.lines.
func (p *Proc) read(out *os.File) {
	defer out.Close()
	defer close(p.lines)
	r := bufio.NewReaderSize(out, MaxLine)
	for {
		s, err := r.ReadSlice('\n')
		if len(s) > 0 && (err == nil || errors.Is(err, io.EOF)) { // the last line may lack its newline
			p.lines <- line{text: strings.TrimRight(string(s), "\r\n")}
		}
		switch {
		case err == nil:
			continue
		case errors.Is(err, bufio.ErrBufferFull):
			err = ErrLongLine
		}
		p.lines <- line{err: err}
		return
	}
}

// waitFor receives from c within the silence limit, the total limit and the
// caller's context; when one runs out first it stops the program and says
// which. ok is false when c is closed.
func waitFor[T any](p *Proc, c <-chan T, waiting string) (v T, ok bool, err error) {
	select { // the common case, without a timer
	case v, ok = <-c:
		return v, ok, nil
	default:
	}
	limit, said := p.cfg.Silence, fmt.Sprintf("gave no %s for %v (set --timeout for a longer silence)", waiting, p.cfg.Silence)
	if !p.started && p.cfg.Start > 0 {
		limit, said = p.cfg.Start, fmt.Sprintf("gave no %s within %v of its start (set --start-timeout for a longer start-up)", waiting, p.cfg.Start)
	}
	var silence <-chan time.Time
	if limit > 0 {
		t := time.NewTimer(limit)
		defer t.Stop()
		silence = t.C
	}
	select {
	case v, ok = <-c:
		return v, ok, nil
	case <-p.ctx.Done():
		err = p.ctx.Err()
	case <-silence:
		err = &Error{What: said}
	case <-p.total:
		err = &Error{What: fmt.Sprintf("ran past the total limit of %v (set --total-timeout for more)", p.cfg.Total)}
	}
	p.Stop()
	return v, false, err
}

// Line gives the next line of output, without its line end. At the end of
// the output it gives io.EOF; Exit then says how the program ended. Any
// other error (an *Error, or the context's error) has stopped the program.
func (p *Proc) Line() (string, error) {
	l, ok, err := waitFor(p, p.lines, "answer")
	p.started = true
	switch {
	case p.over.Load() != nil && (err != nil || !ok || l.err != nil):
		return "", p.over.Load()
	case err != nil:
		return "", err
	case !ok:
		return "", io.EOF
	}
	return l.text, l.err
}

// Exit waits for the program to exit, within the limits, and gives how it
// ended: nil for status 0, else its exit error. Its process group is killed
// once it has exited, so no child of it is left.
func (p *Proc) Exit() error { return p.exit("exit after its last answer") }

// exit is Exit, its silence said as "gave no " + waiting.
func (p *Proc) exit(waiting string) error {
	if _, _, err := waitFor(p, p.exited, waiting); err != nil {
		return err
	}
	p.killAll()
	if over := p.over.Load(); over != nil {
		return over
	}
	return p.err
}

// Rest gives the first non-empty line the program printed after the ones
// read, once it has exited and its group is gone; "" when there is none.
func (p *Proc) Rest() string {
	return p.nextText(time.After(time.Second)) // a child that left the group may hold stdout
}

// pending gives the first non-empty line the program printed after the
// ones read that is already at hand, without waiting; "" when none is.
func (p *Proc) pending() string {
	return p.nextText(nil)
}

// nextText gives the first non-empty line of output still to read, waiting
// for one until done fires; with done nil, without waiting. "" when none
// comes.
func (p *Proc) nextText(done <-chan time.Time) string {
	for {
		var l line
		var ok bool
		if done == nil {
			select {
			case l, ok = <-p.lines:
			default:
				return ""
			}
		} else {
			select {
			case l, ok = <-p.lines:
			case <-done:
				return ""
			}
		}
		if !ok || l.err != nil {
			return ""
		}
		if strings.TrimSpace(l.text) != "" {
			return l.text
		}
	}
}

// Stop kills the program and its group and waits for it; it is safe to call
// more than once and after the program has exited.
func (p *Proc) Stop() {
	p.stop.Do(func() {
		p.killAll()
		<-p.exited
	})
}

// killAll kills the program's process group and every descendant that kept
// the mark in its environment, in the group or out of it.
func (p *Proc) killAll() {
	p.killed.Do(func() {
		killGroup(p.cmd)
		killMarked(p.mark, p.cmd.Process.Pid)
	})
}

// Stderr gives the tail of what the program wrote to stderr. Once the
// program has exited it waits, a moment at most, for the last of it.
func (p *Proc) Stderr() string {
	select {
	case <-p.exited:
		select {
		case <-p.errDone:
		case <-time.After(time.Second): // a child that left the group may hold it
		}
	default:
	}
	return p.tail.String()
}

// tailWriter keeps the last max bytes written to it.
type tailWriter struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailWriter) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = t.buf[len(t.buf)-t.max:]
	}
	return len(b), nil
}

func (t *tailWriter) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimRight(string(t.buf), "\n")
}
