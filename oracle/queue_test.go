package oracle

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/oracle/oracletest"
	"github.com/tateti-lab/tateti-lab/rules"
)

var connectFour = rules.New(rules.Spec{Spec: game.Spec{Rows: 6, Cols: 7, K: 4}, Gravity: true})

// The clients of the tests: two tabs of one browser, and a page.
var one, two, page = Client{Addr: "127.0.0.1", Tab: "tab 1"}, Client{Addr: "127.0.0.1", Tab: "tab 2"}, Client{Addr: "127.0.0.2", Tab: "a page"}

// pending asks q for b as client, waiting a millisecond, and fails unless
// it is not answered yet.
func pending(t *testing.T, q *Queue, b game.Board, client Client) {
	t.Helper()
	if an, p, err := q.Ask(t.Context(), b, client, false, time.Millisecond); err != nil || p == nil {
		t.Fatalf("Ask %v: %v, %v, %v; want it being solved", b, an, p, err)
	}
}

// The queue is bounded for each client and in all: past a client's share
// its requests are refused while another client's are still queued; past
// the bound, everyone's (issue 43, case 5: 2,000 positions were all queued).
func TestQueueBounds(t *testing.T) {
	t.Parallel() // a queue of its own, mostly waiting on its searcher
	s := oracletest.NewStalling()
	q := NewQueue(t.Context(), s, 0)
	bs := oracletest.Positions(t, connectFour, MaxQueued+2)
	for _, b := range bs[:MaxShare] {
		pending(t, q, b, one)
	}
	if _, _, err := q.Ask(t.Context(), bs[MaxShare], one, false, time.Millisecond); !errors.Is(err, ErrBusy) {
		t.Fatalf("past its share: %v, want %v", err, ErrBusy)
	}
	<-s.Started // one of them is searched, the others wait
	queued := MaxShare - 1
	for i, b := range bs[MaxShare:] {
		_, _, err := q.Ask(t.Context(), b, Client{Addr: fmt.Sprint("client ", i)}, false, time.Millisecond)
		switch {
		case err == nil:
			queued++
		case errors.Is(err, ErrBusy):
			if queued != MaxQueued {
				t.Fatalf("refused with %d queued, want %d", queued, MaxQueued)
			}
			return
		default:
			t.Fatal(err)
		}
	}
	t.Fatalf("%d positions queued and none refused", queued)
}

// Two tabs of one address are two clients, each with its share; the
// address, whatever tabs it makes up, is bounded too (MaxAddress).
func TestQueueAddressBound(t *testing.T) {
	t.Parallel() // a queue of its own, mostly waiting on its searcher
	s := oracletest.NewStalling()
	q := NewQueue(t.Context(), s, 0)
	bs := oracletest.Positions(t, connectFour, MaxAddress+1)
	for i, b := range bs[:MaxAddress] {
		pending(t, q, b, Client{Addr: "127.0.0.1", Tab: fmt.Sprint("tab ", i/MaxShare)})
	}
	_, _, err := q.Ask(t.Context(), bs[MaxAddress], Client{Addr: "127.0.0.1", Tab: "one more tab"}, false, time.Millisecond)
	if !errors.Is(err, ErrBusy) || !strings.Contains(err.Error(), "your address's") {
		t.Fatalf("past the address's bound: %v, want %v for the address", err, ErrBusy)
	}
}

// A search no request asks about any longer is stopped and forgotten: the
// next request queues it again (issue 43, case 5: a search ran on after
// its client had gone).
func TestQueueAbandon(t *testing.T) {
	t.Parallel() // a queue of its own, mostly waiting on its searcher
	s := oracletest.NewStalling()
	q := NewQueue(t.Context(), s, 0)
	q.abandon = 100 * time.Millisecond
	b := oracletest.Positions(t, connectFour, 1)[0]
	pending(t, q, b, Client{Addr: "gone"})
	<-s.Started
	select {
	case cause := <-s.Stopped:
		if !errors.Is(cause, errAbandoned) {
			t.Fatalf("the search stopped: %v, want %v", cause, errAbandoned)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the search nobody asks about still runs 10 s on")
	}
	pending(t, q, b, Client{Addr: "back"})
	s.Next(t, b)
}

// A position cancelled while queued leaves the queue at once, counting
// against no bound, and is never searched; one cancelled while searched
// stops; a poll for either is told it is gone, even before the stopped
// search returns; asked anew, it is queued.
func TestQueueCancel(t *testing.T) {
	t.Parallel() // a queue of its own, mostly waiting on its searcher
	s := oracletest.NewStalling()
	s.Hold = make(chan struct{}) // a stopped search returns when told: the poll comes before
	q := NewQueue(t.Context(), s, 0)
	bs := oracletest.Positions(t, connectFour, 2)
	running, queued := bs[0], bs[1]
	pending(t, q, running, page)
	pending(t, q, queued, page)
	s.Next(t, running)
	tests := []struct {
		name  string
		b     game.Board
		want  bool
		stops bool
	}{
		{"the queued position", queued, true, false},
		{"the running position", running, true, true},
		{"the running position again", running, false, false},
	}
	for _, tt := range tests {
		if got := q.Cancel(tt.b, page); got != tt.want {
			t.Errorf("%s: Cancel = %t, want %t", tt.name, got, tt.want)
		}
		if tt.b == queued {
			q.mu.Lock()
			waiting := len(q.queue)
			q.mu.Unlock()
			if waiting != 0 {
				t.Errorf("%d positions wait after the cancel, want none", waiting)
			}
		}
		if tt.stops {
			if cause := <-s.Stopped; !errors.Is(cause, ErrCancelled) {
				t.Errorf("the search stopped: %v, want %v", cause, ErrCancelled)
			}
		}
	}
	if _, _, err := q.Ask(t.Context(), running, page, true, time.Millisecond); !errors.Is(err, ErrGone) {
		t.Errorf("a poll after the cancel: %v, want %v", err, ErrGone)
	}
	close(s.Hold)
	noMore(t, q, s, running)
	pending(t, q, queued, Client{Addr: "back"})
	s.Next(t, queued)
}

// A position cancelled is not searched again by what was under way when
// the client left it: a search a cheaper position had just stopped, which
// would go back to the queue, or the client's first request for it, still
// waiting for its answer (the explorer's browser test saw both).
func TestQueueCancelInFlight(t *testing.T) {
	t.Parallel() // a queue of its own, mostly waiting on its searcher
	left := oracletest.Positions(t, connectFour, 1)[0]
	cheaper, err := rules.Play(connectFour, left, "1")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		race func(t *testing.T, q *Queue, s *oracletest.Stalling)
	}{
		{"stopped for a cheaper position just before", func(t *testing.T, q *Queue, s *oracletest.Stalling) {
			s.Hold = make(chan struct{})
			pending(t, q, left, page)
			<-s.Started
			pending(t, q, cheaper, page)
			if cause := <-s.Stopped; !errors.Is(cause, errCheaper) {
				t.Fatalf("the search stopped: %v, want %v", cause, errCheaper)
			}
			q.Cancel(left, page) // its search has stopped but not yet returned
			close(s.Hold)
			s.Next(t, cheaper)
			q.Cancel(cheaper, page)
		}},
		{"a request waiting for its answer", func(t *testing.T, q *Queue, s *oracletest.Stalling) {
			errc := make(chan error, 1)
			go func() {
				_, _, err := q.Ask(t.Context(), left, page, false, time.Minute)
				errc <- err
			}()
			<-s.Started
			q.Cancel(left, page)
			if err := <-errc; !errors.Is(err, ErrGone) {
				t.Errorf("the request waiting: %v, want %v", err, ErrGone)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := oracletest.NewStalling()
			q := NewQueue(t.Context(), s, 0)
			tt.race(t, q, s)
			noMore(t, q, s, left)
		})
	}
}

// Two clients ask for one position: the search stops only when both have
// cancelled; a client that never asked cancels nothing.
func TestQueueCancelShared(t *testing.T) {
	t.Parallel() // a queue of its own, mostly waiting on its searcher
	s := oracletest.NewStalling()
	q := NewQueue(t.Context(), s, 0)
	b := oracletest.Positions(t, connectFour, 1)[0]
	for _, c := range []Client{one, two} {
		pending(t, q, b, c)
	}
	<-s.Started
	tests := []struct {
		client Client
		want   bool // cancelled
		stops  bool
	}{
		{Client{Addr: "127.0.0.1", Tab: "tab 3"}, false, false},
		{one, true, false},
		{one, false, false},
		{two, true, true},
	}
	for _, tt := range tests {
		if got := q.Cancel(b, tt.client); got != tt.want {
			t.Errorf("Cancel by %v = %t, want %t", tt.client, got, tt.want)
		}
		select {
		case <-s.Stopped:
			if !tt.stops {
				t.Fatalf("cancelled by %v: the search stopped, want it running", tt.client)
			}
		case <-time.After(200 * time.Millisecond):
			if tt.stops {
				t.Fatalf("cancelled by %v: the search runs on, want it stopped", tt.client)
			}
		}
	}
}

// A position cancelled and asked for anew (not a poll) before its search
// returned is searched again, and the request is not told it is gone.
func TestQueueCancelAskedAgain(t *testing.T) {
	t.Parallel() // a queue of its own, mostly waiting on its searcher
	q, s, b := held(t)
	<-s.Started
	q.Cancel(b, page)
	<-s.Stopped // its search has stopped but not yet returned
	pending(t, q, b, page)
	close(s.Hold)
	s.Next(t, b)
}

// held gives a queue over a stalling oracle whose searches hold until
// s.Hold is closed, and a position the page has asked it for, pending.
func held(t *testing.T) (*Queue, *oracletest.Stalling, game.Board) {
	t.Helper()
	s := oracletest.NewStalling()
	s.Hold = make(chan struct{})
	q := NewQueue(t.Context(), s, 0)
	b := oracletest.Positions(t, connectFour, 1)[0]
	pending(t, q, b, page)
	return q, s, b
}

// noMore fails if b is searched again or kept.
func noMore(t *testing.T, q *Queue, s *oracletest.Stalling, b game.Board) {
	t.Helper()
	select {
	case got := <-s.Started:
		if got == b {
			t.Fatalf("%v was searched again after its cancel", b)
		}
	case <-time.After(300 * time.Millisecond):
	}
	q.mu.Lock()
	_, kept := q.kept[b]
	q.mu.Unlock()
	if kept {
		t.Errorf("%v is kept after its cancel, want it forgotten", b)
	}
}

// The queue is an Oracle: Analyze gives what the oracle behind it gives,
// for a position it answers at once and for one it searches.
func TestQueueIsAnOracle(t *testing.T) {
	t.Parallel() // a queue of its own, mostly waiting on its searcher
	o, err := Search(connectFour, Options{Memory: 16 << 20, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	q := NewQueue(t.Context(), o, 0)
	b, err := rules.Play(connectFour, game.Board{}, "4444443333332222")
	if err != nil {
		t.Fatal(err)
	}
	var _ Oracle = q
	got, err := q.Analyze(t.Context(), b)
	if err != nil {
		t.Fatal(err)
	}
	want, err := o.Analyze(t.Context(), b)
	if err != nil {
		t.Fatal(err)
	}
	if got.Value != want.Value || got.Depth != want.Depth || len(got.Moves) != len(want.Moves) || q.Name() != "search" || q.Instant(b) {
		t.Errorf("through the queue: %v in %d, %d moves, %s; want %v in %d, %d moves, search, not instant",
			got.Value, got.Depth, len(got.Moves), q.Name(), want.Value, want.Depth, len(want.Moves))
	}
}

// Close stops the running search and waits until it has returned before it
// closes the oracle: a database's files are not let go under a probe.
func TestQueueCloseJoins(t *testing.T) {
	t.Parallel() // a queue of its own, mostly waiting on its searcher
	q, s, b := held(t)
	s.Next(t, b)
	closed := make(chan error, 1)
	go func() { closed <- q.Close() }()
	select {
	case cause := <-s.Stopped:
		if !errors.Is(cause, context.Canceled) {
			t.Fatalf("the search stopped: %v, want it cancelled", cause)
		}
	case err := <-closed:
		t.Fatalf("Close returned (%v) while the search went on", err)
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not stop the search within 10 s")
	}
	select {
	case err := <-closed:
		t.Fatalf("Close returned (%v) while the search had not", err)
	case <-time.After(100 * time.Millisecond):
	}
	close(s.Hold)
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	if err := q.Close(); err != nil {
		t.Errorf("a second Close: %v, want nil", err)
	}
}
