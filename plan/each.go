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
)

// AnswerEach answers the positions read from r, a line each, as they come,
// for a program that asks and waits: each line is a position
// (rules.ParsePosition, a board or moves), answered by p's engine, opened
// once with what o asks, within limit (oracle.Within). answer is called
// with the line's number and its analysis, or with the error that makes
// the line no position (bad), in order, before the next line is answered
// (lines already sent are read ahead, up to readAhead of them). A
// bad line does not stop it; r's end does, and so do an engine's failure,
// answer's error, a line longer than positions.MaxLine and ctx done.
func (p Plan) AnswerEach(ctx context.Context, r io.Reader, o oracle.Options, limit time.Duration, answer func(n int, a perfect.Analysis, bad error) error) error {
	return p.Use(ctx, o, func(or oracle.Oracle) error {
		lines, failed := readLines(ctx, r)
		for n := 1; ; n++ {
			var line string
			var more bool
			select {
			case line, more = <-lines:
			case <-ctx.Done():
				return ctx.Err()
			}
			if !more {
				return <-failed
			}
			b, bad := rules.ParsePosition(p.req.Rules, line)
			var a perfect.Analysis
			if bad == nil {
				var err error
				if a, err = oracle.Within(ctx, or, b, limit); err != nil {
					return err
				}
			}
			if err := answer(n, a, bad); err != nil {
				return err
			}
		}
	})
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
