package plan

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/positions"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/search"
	"golang.org/x/sync/errgroup"
)

// AnswerEach answers the positions read from r, a line each, as they come,
// for a program that asks and waits: each line is a position
// (rules.ParsePosition, a board or moves), answered by p's engine with
// what o asks, within limit (oracle.Within). answer is called with the
// line's number and its analysis, or with the error that makes the line
// no position (bad), in the lines' order, each as soon as it and every
// line before it are answered. Lines already sent are read ahead (up to
// readAhead), and where the engine searches, lines that wait while every
// open oracle is busy are answered side by side, by another oracle opened
// for them (answerers): a line alone has every core, and a program that
// sends one at a time opens the engine once. flush is called whenever the
// answers given so far are all there is to give for now, before waiting
// for another: answer may hold what it writes until then, so that answers
// ready together go out together and none waits on a later line; what it
// holds when AnswerEach returns is the caller's to flush. A bad line does
// not stop it; r's end does, after the lines before it are answered, and
// so do an engine's failure, answer's or flush's error, a line longer
// than positions.MaxLine and ctx done.
func (p Plan) AnswerEach(ctx context.Context, r io.Reader, o oracle.Options, limit time.Duration, answer func(n int, a perfect.Analysis, bad error) error, flush func() error) error {
	g, ctx := errgroup.WithContext(ctx)
	as := p.answerers(ctx, g, o, limit)
	defer as.close()
	if err := as.first(); err != nil {
		return err
	}
	order := make(chan chan answered, inFlight)
	g.Go(func() error {
		defer close(as.jobs)
		defer close(order)
		return handOut(ctx, r, as, order)
	})
	g.Go(func() error {
		for n := 1; ; n++ {
			out, more, err := receive(ctx, order, flush)
			if err != nil || !more {
				return err
			}
			// ctx done here: handOut stopped before the line's answerer had it
			a, _, err := receive(ctx, out, flush)
			if err != nil {
				return err
			}
			places.Put(out) // sent once, now received: free for another line
			if a.err != nil {
				return a.err
			}
			if err := answer(n, a.a, a.bad); err != nil {
				return err
			}
		}
	})
	return g.Wait()
}

// receive gives the next value of c, and false when c is closed; where
// none is ready, it calls flush first, then waits for one or for ctx.
func receive[T any](ctx context.Context, c <-chan T, flush func() error) (v T, more bool, err error) {
	select {
	case v, more = <-c:
		return v, more, nil
	default:
	}
	if err := flush(); err != nil {
		return v, false, err
	}
	select {
	case v, more = <-c:
		return v, more, nil
	case <-ctx.Done():
		return v, false, ctx.Err()
	}
}

// inFlight is the most lines handed out whose answers are not yet
// written: enough that the answerers of short searches do not wait on one
// another, nor on the writer, a line at a time. Answers are written in the
// lines' order, so while one answerer is on a long search the others
// answer at most inFlight lines ahead of it and then wait: the window must
// hold the lines answered while the longest common search runs. On Pons'
// Middle-Easy most lines take about 10 µs and the longest a millisecond
// (8,880 nodes): 64 lines stalled the other answerer, 256 took 0.95 of the
// wall time (two rounds of 20 and 30 pairs), Begin-Easy and End-Easy 0.98
// to 1.02, and 1,024 no better.
const inFlight = 256

// places holds the channels, of one answer each, that lines' answers go
// through from their answerer to the writer, for the next lines to reuse.
var places = sync.Pool{New: func() any { return make(chan answered, 1) }}

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

// handOut reads r's lines and hands each to the answerers, its answer's
// place first put in order; at r's end, an error reading it takes the
// place after the last line's, so that every line before it is answered
// first.
func handOut(ctx context.Context, r io.Reader, as *answerers, order chan<- chan answered) error {
	lines, failed := readLines(ctx, r)
	for {
		var line string
		var more bool
		select {
		case line, more = <-lines:
		case <-ctx.Done():
			return ctx.Err()
		}
		out := places.Get().(chan answered)
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
		case as.jobs <- lineJob{line, out}:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// answerers answer the lines of jobs, each on a goroutine of g with an
// oracle of its own, opened as lines wait for them, up to most: where the
// engine searches, one a worker, each with every worker and its share of
// the memory, their searches sharing the cores (search.Cores), so that a
// line alone has them all; one otherwise.
type answerers struct {
	open   func() (oracle.Oracle, error)
	g      *errgroup.Group
	answer func(or oracle.Oracle, j lineJob)
	jobs   chan lineJob
	most   int
	mu     sync.Mutex
	all    []oracle.Oracle // those open, under mu
	opened int             // those open or opening, under mu
}

// answerers gives p's answerers of lines, with what o asks, none open.
func (p Plan) answerers(ctx context.Context, g *errgroup.Group, o oracle.Options, limit time.Duration) *answerers {
	o.Workers, o.Memory = p.req.Workers, p.req.Memory
	k := p.alongside(o.Workers, o.Workers)
	if k > 1 {
		o.Memory, o.Cores = o.Memory/uint64(k), search.NewCores(o.Workers)
	}
	return &answerers{
		open: func() (oracle.Oracle, error) { return p.open(ctx, o) },
		g:    g,
		answer: func(or oracle.Oracle, j lineJob) {
			j.out <- p.answerLine(ctx, or, j.line, limit)
		},
		jobs: make(chan lineJob, inFlight),
		most: k,
	}
}

// first opens the first answerer and starts it: an engine that cannot
// open fails before any line is read.
func (as *answerers) first() error {
	as.opened = 1
	or, err := as.open()
	if err != nil {
		return err
	}
	as.all = append(as.all, or)
	as.g.Go(func() error { as.run(or); return nil })
	return nil
}

// run answers lines by or until jobs closes; a line taken while another
// waits calls for one more answerer.
func (as *answerers) run(or oracle.Oracle) {
	for j := range as.jobs {
		if len(as.jobs) > 0 {
			as.another()
		}
		as.answer(or, j)
	}
}

// another opens one more answerer, on a goroutine of its own, and starts
// it, unless most are open or opening.
func (as *answerers) another() {
	as.mu.Lock()
	defer as.mu.Unlock()
	if as.opened >= as.most {
		return
	}
	as.opened++
	as.g.Go(func() error {
		or, err := as.open()
		if err != nil {
			return err
		}
		as.mu.Lock()
		as.all = append(as.all, or)
		as.mu.Unlock()
		as.run(or)
		return nil
	})
}

// close closes every answerer's oracle, once none runs.
func (as *answerers) close() {
	for _, or := range as.all {
		or.Close()
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
