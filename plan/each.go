package plan

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/positions"
	"github.com/tateti-lab/tateti-lab/rules"
	"golang.org/x/sync/errgroup"
)

// AnswerEach answers the positions read from r, a line each, as they come,
// for a program that asks and waits: each line is a position
// (rules.ParsePosition, a board or moves), answered by p's engine with
// what o asks, within limit (oracle.Within). answer is called with the
// line's number and its analysis, or with the error that makes the line
// no position (bad), in the lines' order, each as soon as it and every
// line before it are answered. Lines already sent are read ahead (up to
// readAhead), and where the engine searches, one is answered a worker at
// once, by oracles opened once each, whose searches share the cores
// (useAlongside): a line alone has every core, as many sent at once are
// answered side by side. A bad line does not stop it; r's end does, after
// the lines before it are answered, and so do an engine's failure,
// answer's error, a line longer than positions.MaxLine and ctx done.
func (p Plan) AnswerEach(ctx context.Context, r io.Reader, o oracle.Options, limit time.Duration, answer func(n int, a perfect.Analysis, bad error) error) error {
	return p.useAlongside(ctx, o, func(ors []oracle.Oracle) error {
		g, ctx := errgroup.WithContext(ctx)
		jobs, order := make(chan lineJob, inFlight), make(chan chan answered, inFlight)
		for _, or := range ors {
			g.Go(func() error {
				for j := range jobs {
					j.out <- p.answerLine(ctx, or, j.line, limit)
				}
				return nil
			})
		}
		g.Go(func() error {
			defer close(jobs)
			defer close(order)
			return handOut(ctx, r, jobs, order)
		})
		g.Go(func() error {
			n := 0
			for out := range order {
				a := <-out
				if a.err != nil {
					return a.err
				}
				n++
				if err := answer(n, a.a, a.bad); err != nil {
					return err
				}
			}
			return nil
		})
		return g.Wait()
	})
}

// inFlight is the most lines handed out whose answers are not yet
// written: enough that the answerers of short searches do not wait on one
// another, nor on the writer, a line at a time.
const inFlight = 64

// A lineJob is a line to answer and where its answer goes.
type lineJob struct {
	line string
	out  chan<- answered
}

// answered is a line's answer: its analysis, or the error that makes it
// no position (bad), or the error that stops every answer (err).
type answered struct {
	a        perfect.Analysis
	bad, err error
}

// handOut reads r's lines and hands each to an answerer (jobs), its
// answer's place first put in order; at r's end, an error reading it
// takes the place after the last line's, so that every line before it is
// answered first.
func handOut(ctx context.Context, r io.Reader, jobs chan<- lineJob, order chan<- chan answered) error {
	lines, failed := readLines(ctx, r)
	for {
		var line string
		var more bool
		select {
		case line, more = <-lines:
		case <-ctx.Done():
			return ctx.Err()
		}
		out := make(chan answered, 1)
		if !more {
			err := <-failed
			if err == nil {
				return nil
			}
			out <- answered{err: err}
		}
		select {
		case order <- out:
		case <-ctx.Done():
			return ctx.Err()
		}
		if !more {
			return nil
		}
		select {
		case jobs <- lineJob{line, out}:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// answerLine answers one line by or, as AnswerEach does.
func (p Plan) answerLine(ctx context.Context, or oracle.Oracle, line string, limit time.Duration) answered {
	b, bad := rules.ParsePosition(p.req.Rules, line)
	if bad != nil {
		return answered{bad: bad}
	}
	a, err := oracle.Within(ctx, or, b, limit)
	return answered{a: a, err: err}
}

// readAhead is how many lines readLines holds read before they are
// answered: a program that sends many at once is then read while they are
// answered, not a line at a time with a hand-over between goroutines.
const readAhead = 256

// readLines reads r's lines, as it may block, on a goroutine of its own
// that hands each on and ends with ctx: it closes lines at r's end, after
// giving failed the error that ended r (nil at its end).
func readLines(ctx context.Context, r io.Reader) (lines <-chan string, failed <-chan error) {
	out, errc := make(chan string, readAhead), make(chan error, 1)
	go func() {
		defer close(out)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 0, 4096), positions.MaxLine)
		n := 0
		for sc.Scan() {
			n++
			select {
			case out <- sc.Text():
			case <-ctx.Done():
				errc <- ctx.Err()
				return
			}
		}
		err := sc.Err()
		if errors.Is(err, bufio.ErrTooLong) {
			err = fmt.Errorf("line %d is longer than %d bytes", n+1, positions.MaxLine)
		}
		errc <- err
	}()
	return out, errc
}
