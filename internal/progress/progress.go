// Package progress owns showing long work as it goes: the domain packages
// report their phase, ply and positions done to whatever reporter the
// context carries (none by default), and Line shows that on a terminal,
// overwritten in place, with an estimate of the time left.
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

// Line shows progress on one terminal line: nothing for the first second of
// the run, then at most five times a second.
type Line struct {
	mu         sync.Mutex
	w          io.Writer
	start      time.Time
	phase      string
	phaseStart time.Time
	last       time.Time
	shown      bool
	muted      bool
}

// Mute stops the line from showing anything from now on (--quiet).
func (l *Line) Mute() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.muted = true
}

// NewLine starts a Line on w, a terminal.
func NewLine(w io.Writer) *Line {
	now := time.Now()
	return &Line{w: w, start: now, phaseStart: now}
}

// Report shows phase, ply and positions done, with the time left in the
// phase at its pace so far.
func (l *Line) Report(phase string, ply int, done, total int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	if !l.due(phase, now) {
		return
	}
	if total <= 0 { // the total is not known yet
		fmt.Fprintf(l.w, "\r\033[K%s: ply %d, %d positions so far", phase, ply, done)
		return
	}
	left := ""
	if done > 0 && total > done {
		rest := time.Duration(float64(now.Sub(l.phaseStart)) * float64(total-done) / float64(done))
		left = fmt.Sprintf(", about %s left", rest.Round(time.Second))
	}
	fmt.Fprintf(l.w, "\r\033[K%s: ply %d, %d of %d positions%s", phase, ply, done, total, left)
}

// Tell shows phase and text.
func (l *Line) Tell(phase, text string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.due(phase, time.Now()) {
		fmt.Fprintf(l.w, "\r\033[K%s: %s", phase, text)
	}
}

// due notes the phase and says whether to show the line now: not in the
// first second of the run, nor within 200 ms of the last time, nor muted.
// The caller holds l.mu.
func (l *Line) due(phase string, now time.Time) bool {
	if phase != l.phase {
		l.phase, l.phaseStart = phase, now
	}
	if l.muted || now.Sub(l.start) < time.Second || now.Sub(l.last) < 200*time.Millisecond {
		return false
	}
	l.last, l.shown = now, true
	return true
}

// Done ends the line, if anything was shown.
func (l *Line) Done() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.shown {
		fmt.Fprint(l.w, "\r\033[K")
		l.shown = false
	}
}
