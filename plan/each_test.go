package plan

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

// slow is an oracle whose every answer takes a while, so that lines sent
// together wait for it.
type slow struct{ oracle.Oracle }

func (s slow) Analyze(ctx context.Context, b game.Board) (perfect.Analysis, error) {
	time.Sleep(20 * time.Millisecond)
	return s.Oracle.Analyze(ctx, b)
}

// AnswerEach opens another oracle only when lines wait while every open
// one is busy, up to one a worker: a program that sends a line and waits
// for its answer has the engine opened once, and lines sent together have
// one a worker. The answers come in the lines' order either way.
func TestAnswerEachOpensAsLinesWait(t *testing.T) {
	rl := rules.New(spec(4, 5, 4, true, false))
	lines := []string{"", "3", "33", "3342", "11", "5544", "2233", "12345"}
	tests := []struct {
		name      string
		workers   int
		oneByOne  bool
		wantOpens int64
	}{
		{"sent together, two workers", 2, false, 2},
		{"sent together, one worker", 1, false, 1},
		{"one at a time, two workers", 2, true, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var opens atomic.Int64
			open := func(ctx context.Context, p Plan, o oracle.Options) (oracle.Oracle, error) {
				opens.Add(1)
				or, err := Open(ctx, p, o)
				return slow{or}, err
			}
			p, err := For(Request{Rules: rl, Scope: Many, Named: "search", Workers: tt.workers, Memory: 64 << 20, Open: open})
			if err != nil {
				t.Fatal(err)
			}
			in, answered := sendLines(lines, tt.oneByOne)
			// An answer reaches the program when flushed, as solve --stdin
			// writes it: one at a time, a line waits on the last's flush.
			var got, held []string
			done := make(chan error, 1)
			go func() {
				done <- p.AnswerEach(context.Background(), in, oracle.Options{ValueOnly: true}, 0, func(n int, a perfect.Analysis, bad error) error {
					held = append(held, fmt.Sprintf("%d %v", n, bad))
					return nil
				}, func() error {
					for range held {
						answered <- struct{}{}
					}
					got, held = append(got, held...), held[:0]
					return nil
				})
			}()
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("no answer in 10 s: the answers held were not flushed before AnswerEach waited for a line")
			}
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, held...) // the caller's flush at the end
			for i, g := range got {
				if want := fmt.Sprintf("%d <nil>", i+1); g != want {
					t.Errorf("answer %d: got %q, want %q", i+1, g, want)
				}
			}
			if len(got) != len(lines) {
				t.Errorf("got %d answers, want %d", len(got), len(lines))
			}
			if got := opens.Load(); got != tt.wantOpens {
				t.Errorf("the engine opened %d times, want %d", got, tt.wantOpens)
			}
		})
	}
}

// sendLines gives a reader of lines, each one only after the answer
// before it (a signal on answered) where oneByOne, else all at once.
func sendLines(lines []string, oneByOne bool) (io.Reader, chan struct{}) {
	answered := make(chan struct{}, len(lines))
	if !oneByOne {
		return strings.NewReader(strings.Join(lines, "\n") + "\n"), answered
	}
	r, w := io.Pipe()
	go func() {
		for _, l := range lines {
			fmt.Fprintln(w, l)
			<-answered
		}
		w.Close()
	}()
	return r, answered
}
