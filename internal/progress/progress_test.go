package progress

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

func TestLine(t *testing.T) {
	var buf bytes.Buffer
	l := NewLine(&buf)
	ctx := With(context.Background(), l)
	Report(ctx, "solve", 3, 10, 100)
	if buf.Len() != 0 {
		t.Fatalf("shown in the first second: %q", buf.String())
	}
	l.start = l.start.Add(-2 * time.Second) // as if the run began 2 s ago
	l.pace = NewWindow(l.start, 10)         // the phase's first report, 2 s ago
	Report(ctx, "solve", 3, 50, 100)
	if got := buf.String(); !strings.Contains(got, "solve: ply 3, 50 of 100 positions, about 3s left") { // 40 in 2 s since the first report, 50 left
		t.Fatalf("line %q, want phase, ply, positions and time left", got)
	}
	Report(ctx, "solve", 4, 60, 100)
	if strings.Count(buf.String(), "solve:") != 1 {
		t.Fatalf("shown twice within 200 ms: %q", buf.String())
	}
	l.Done()
	if !strings.HasSuffix(buf.String(), "\r\033[K") {
		t.Fatalf("Done left the line: %q", buf.String())
	}
	Report(context.Background(), "solve", 1, 1, 1) // no reporter: nothing
}

func TestTell(t *testing.T) {
	var buf bytes.Buffer
	l := NewLine(&buf)
	ctx := With(context.Background(), l)
	Tell(ctx, "search", "1.0M nodes")
	if buf.Len() != 0 {
		t.Fatalf("shown in the first second: %q", buf.String())
	}
	l.start = l.start.Add(-2 * time.Second)
	Tell(ctx, "search", "2.0M nodes")
	if got, want := buf.String(), "\r\033[Ksearch: 2.0M nodes"; got != want {
		t.Fatalf("line %q, want %q", got, want)
	}
	Tell(context.Background(), "search", "3.0M nodes") // no reporter: nothing
}

// A log gets plain lines, none in the first every of the run and then one
// an every at most, each kept: a run in the background leaves its progress.
func TestLog(t *testing.T) {
	var buf bytes.Buffer
	l := NewLog(&buf, time.Minute)
	ctx := With(context.Background(), l)
	Report(ctx, "reachable placements", 3, 10, 100)
	if buf.Len() != 0 {
		t.Fatalf("written in the first minute: %q", buf.String())
	}
	l.start = l.start.Add(-2 * time.Minute) // as if the run began 2 minutes ago
	l.pace = NewWindow(l.start, 10)         // the phase's first report, 2 s ago
	Report(ctx, "reachable placements", 4, 50, 100)
	Tell(ctx, "search", "2.0M nodes")                                              // within the minute: not written
	want := "reachable placements: ply 4, 50 of 100 positions, about 2m30s left\n" // 40 in 2 minutes, 50 left
	if got := buf.String(); got != want {
		t.Fatalf("log %q, want %q", got, want)
	}
	l.last = l.last.Add(-time.Minute)
	Tell(ctx, "search", "3.0M nodes")
	l.Done()
	if got, want := buf.String(), want+"search: 3.0M nodes\n"; got != want {
		t.Fatalf("log %q, want %q (Done leaves the lines)", got, want)
	}
	l.Mute()
	l.last = l.last.Add(-time.Minute)
	Tell(ctx, "search", "4.0M nodes")
	if strings.Contains(buf.String(), "4.0M") {
		t.Fatalf("muted log written: %q", buf.String())
	}
}

// Under puts a head before what the work under it tells and reports, in
// the phase of the head.
func TestUnder(t *testing.T) {
	var buf bytes.Buffer
	l := NewLog(&buf, 0)
	ctx := Under(With(context.Background(), l), "export", "position 3 of 200")
	tests := []struct {
		name string
		do   func()
		want string
	}{
		{"a tell", func() { Tell(ctx, "search", "2.0M nodes") }, "export: position 3 of 200; search: 2.0M nodes\n"},
		{"a report", func() { Report(ctx, "solve", 4, 10, 20) }, "export: position 3 of 200; solve: ply 4, 10 of 20 positions\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			buf.Reset()
			l.last = time.Time{}
			tt.do()
			if got := buf.String(); got != tt.want {
				t.Errorf("shown %q, want %q", got, tt.want)
			}
		})
	}
	if got := Under(context.Background(), "export", "x"); got != context.Background() {
		t.Error("Under without a reporter made a new context")
	}
}

// A window measures from the oldest mark within its span: from the start
// early on, from ten minutes back later, and after a long pause from the
// first mark after it.
func TestWindow(t *testing.T) {
	start := time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC)
	at := func(m int) time.Time { return start.Add(time.Duration(m) * time.Minute) }
	w := NewWindow(start, 0)
	tests := []struct {
		name     string
		now      int // minutes from the start
		n        int64
		wantFrom int
		wantN    int64
	}{
		{"early on", 3, 30, 0, 0},
		{"still within the span", 10, 100, 0, 0},
		{"past the span", 13, 130, 3, 30},
		{"after an hour's pause", 80, 200, 80, 200},
		{"going on after it", 85, 250, 80, 200},
	}
	for _, tt := range tests {
		gotAt, gotN := w.Since(at(tt.now), tt.n)
		if !gotAt.Equal(at(tt.wantFrom)) || gotN[0] != tt.wantN {
			t.Errorf("%s: from minute %v with %d, want minute %d with %d", tt.name, gotAt.Sub(start).Minutes(), gotN[0], tt.wantFrom, tt.wantN)
		}
	}
}
