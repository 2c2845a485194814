// Package progress owns showing long work as it goes: the domain packages
// report their phase, ply and positions done to whatever reporter the
// context carries (none by default), and Line shows that with an estimate
// of the time left: on a terminal one line overwritten in place, in a log
// a plain line now and then.
package progress

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"
)

// Reporter hears of work done: in phase, at ply, done of total positions
// (a total of 0 when it is not known yet).
type Reporter interface {
	Report(phase string, ply int, done, total int64)
}

// A Teller hears of work measured otherwise than in positions (a search's
// nodes and bounds), as a line of text.
type Teller interface {
	Tell(phase, text string)
}

type key struct{}

// With gives a context that carries r.
func With(ctx context.Context, r Reporter) context.Context { return context.WithValue(ctx, key{}, r) }

// Report tells the context's reporter, if it has one.
func Report(ctx context.Context, phase string, ply int, done, total int64) {
	if r, ok := ctx.Value(key{}).(Reporter); ok {
		r.Report(phase, ply, done, total)
	}
}

// Wanted reports whether ctx carries a reporter: work that costs something
// to report can skip it when no one listens.
func Wanted(ctx context.Context) bool {
	_, ok := ctx.Value(key{}).(Reporter)
	return ok
}

// Tell tells the context's reporter text, if it has one that is a Teller.
func Tell(ctx context.Context, phase, text string) {
	if t, ok := ctx.Value(key{}).(Teller); ok {
		t.Tell(phase, text)
	}
}

// Line shows progress, nothing in a first wait of the run and then at most
// once a gap: on a terminal (NewLine) as one line overwritten in place, in
// a log (NewLog) as plain lines.
type Line struct {
	mu        sync.Mutex
	w         io.Writer
	log       bool // plain lines, each kept (NewLog)
	wait, gap time.Duration
	start     time.Time
	phase     string
	pace      *Window // the phase's positions done, from its first report
	last      time.Time
	shown     bool // a terminal line is on the screen
	muted     bool
}

// Mute stops the line from showing anything from now on (--quiet).
func (l *Line) Mute() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.muted = true
}

// NewLine starts a Line on w, a terminal: nothing for the first second,
// then at most five times a second.
func NewLine(w io.Writer) *Line {
	now := time.Now()
	return &Line{w: w, wait: time.Second, gap: 200 * time.Millisecond, start: now}
}

// NewLog starts a Line on w, a file or a pipe: nothing in the first every
// of the run, then a plain line at most once an every, so that a short run
// writes none and a long one, left in the background, leaves its progress
// in its log.
func NewLog(w io.Writer, every time.Duration) *Line {
	now := time.Now()
	return &Line{w: w, log: true, wait: every, gap: every, start: now}
}

// Report shows phase, ply and positions done, with the time left in the
// phase at its pace (a Window's: the last minutes'), counted from the
// phase's first report: a run resumed counts what it read back, which is
// not its pace.
func (l *Line) Report(phase string, ply int, done, total int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	if phase != l.phase || l.pace == nil {
		l.pace = NewWindow(now, done)
	}
	then, was := l.pace.Since(now, done)
	if !l.due(phase, now) {
		return
	}
	if total <= 0 { // the total is not known yet
		l.show(fmt.Sprintf("%s: ply %d, %d positions so far", phase, ply, done))
		return
	}
	left := ""
	if done > was[0] && total > done {
		rest := time.Duration(float64(now.Sub(then)) * float64(total-done) / float64(done-was[0]))
		left = fmt.Sprintf(", about %s left", rest.Round(time.Second))
	}
	l.show(fmt.Sprintf("%s: ply %d, %d of %d positions%s", phase, ply, done, total, left))
}

// show writes text: in a log as a line of its own, on a terminal over the
// line shown before. The caller holds l.mu.
func (l *Line) show(text string) {
	if l.log {
		fmt.Fprintln(l.w, text)
		return
	}
	fmt.Fprintf(l.w, "\r\033[K%s", text)
	l.shown = true
}

// Tell shows phase and text.
func (l *Line) Tell(phase, text string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.due(phase, time.Now()) {
		l.show(phase + ": " + text)
	}
}

// due notes the phase and says whether to show the line now: not in the
// first wait of the run, nor within a gap of the last time, nor muted.
// The caller holds l.mu.
func (l *Line) due(phase string, now time.Time) bool {
	if phase != l.phase {
		l.phase = phase
	}
	if l.muted || now.Sub(l.start) < l.wait || now.Sub(l.last) < l.gap {
		return false
	}
	l.last = now
	return true
}

// Done ends the terminal line, if one is shown; a log's lines stay.
func (l *Line) Done() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.shown {
		fmt.Fprint(l.w, "\r\033[K")
		l.shown = false
	}
}

// Under gives a context whose reporter tells ctx's, in phase, head before
// whatever the work under it reports or tells: "position 3 of 200, ...;
// search: 1.2 G nodes". Without a Teller on ctx it gives ctx.
func Under(ctx context.Context, phase, head string) context.Context {
	t, ok := ctx.Value(key{}).(Teller)
	if !ok {
		return ctx
	}
	return With(ctx, under{t, phase, head})
}

// under tells its Teller what the work under a head says, after the head.
type under struct {
	t           Teller
	phase, head string
}

func (u under) Report(phase string, ply int, done, total int64) {
	u.t.Tell(u.phase, fmt.Sprintf("%s; %s: ply %d, %d of %d positions", u.head, phase, ply, done, total))
}

func (u under) Tell(phase, text string) { u.t.Tell(u.phase, u.head+"; "+phase+": "+text) }
