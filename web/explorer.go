package web

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"math/bits"
	"sync"
	"time"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/report"
	"github.com/tateti-lab/tateti-lab/rules"
)

// An Explorer answers the API's positions from an oracle of perfect play.
// A table or a database answers at once, in the request. Search, and an
// opening book past its last ply, can take minutes, and searches one position at a time with all its workers: each
// position asked is queued once, its answer kept, and a request waits a
// little for it, then learns that it is being solved. The queue is bounded,
// in all and for each client; the position with the fewest empty cells,
// the cheapest to search, goes first, and stops a costlier one's search,
// which goes back to the queue (its table keeps what it found); a search
// no request has asked about for a while is stopped and forgotten.
type Explorer struct {
	rl      rules.Rules
	o       oracle.Oracle
	limit   time.Duration   // the most a position is searched; 0: no limit
	wait    time.Duration   // how long a request waits for its answer
	abandon time.Duration   // a search no one asks about for this long is stopped
	life    context.Context // searches stop when it ends

	mu      sync.Mutex
	kept    map[game.Board]*answer // answered, waiting or searched
	done    []game.Board           // answered, oldest first
	queue   queue                  // waiting their turn, cheapest first
	running *answer
	stop    context.CancelCauseFunc // stops the running search
	shares  map[string]int          // positions waiting or searched, by client
	wake    chan struct{}           // holds a token when the queue has work
	arrived int64                   // positions queued so far
}

// answer is the answer to one position, once done is closed.
type answer struct {
	b        game.Board
	done     chan struct{}
	client   string          // who asked first, charged until it is answered
	askers   map[string]bool // every client that asked for it and has not cancelled
	cost     int             // its empty cells: fewer are cheaper
	arrival  int64           // the order it came in, among equal costs
	asked    time.Time       // when a request last asked for it
	since    time.Time       // when its search started; zero while it waits
	searched time.Duration   // over its searches stopped for a cheaper one
	at       int             // its place in the queue's heap; -1 when not queued
	dropped  bool            // cancelled while searched: forgotten when its search returns, unless asked for anew
	view     report.Position
	err      error
}

// The explorer's bounds.
const (
	// MaxKept is how many answers an Explorer keeps; past it the oldest go.
	MaxKept = 100_000
	// MaxQueued is how many positions may wait for search or be searched.
	MaxQueued = 256
	// MaxShare is how many of them one client may have asked for.
	MaxShare = 16
	// Wait is how long a request waits for its answer before the API says
	// that the position is being solved, with its legal moves: short
	// enough that the page draws the board within a second.
	Wait = 500 * time.Millisecond
	// Abandon is how long a position waits or is searched with no request
	// asking about it (the page asks every few seconds) before it is
	// stopped and forgotten.
	Abandon = 30 * time.Second
	// RetryAfter is what a 429 tells a client to wait, in seconds.
	RetryAfter = 5
)

// Why a search stops before its end, beside its limit and the server's end.
var (
	errCheaper   = errors.New("a cheaper position came")
	errAbandoned = errors.New("no one asked for it any longer")
	errCancelled = errors.New("the page stopped waiting for it")
)

// ErrBusy refuses a position past the queue's bound or the client's share.
var ErrBusy = errors.New("too many positions are waiting for search")

// ErrGone answers a poll for a position no longer waiting or searched: its
// search was stopped (cancelled, or asked about by no one for a while);
// and a request that waited for a position cancelled meanwhile. Neither
// queues a search again, so that a page's request still in flight when
// it leaves a position cannot start it anew.
var ErrGone = errors.New("this position is no longer being searched; ask for it again without poll")

// NewExplorer gives the explorer of rl's game answered by o, each position
// within limit (0: no limit), its searches stopped when life ends.
func NewExplorer(life context.Context, rl rules.Rules, o oracle.Oracle, limit time.Duration) *Explorer {
	x := &Explorer{rl: rl, o: o, limit: limit, wait: Wait, abandon: Abandon, life: life,
		kept: map[game.Board]*answer{}, shares: map[string]int{}, wake: make(chan struct{}, 1)}
	go x.work() // it waits until a position the oracle does not answer at once comes
	return x
}

// ask gives b's answer, queued for search once, client charged for it; the
// answer is not done yet when done is open. Past the bounds it gives
// ErrBusy; a poll for b, not kept, ErrGone.
func (x *Explorer) ask(b game.Board, client string, poll bool) (*answer, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if a, ok := x.kept[b]; ok {
		a.asked = time.Now()
		a.dropped = a.dropped && poll // asked anew: its search goes on
		if !poll {
			a.askers[client] = true
		}
		return a, nil
	}
	switch {
	case poll:
		return nil, ErrGone
	case len(x.queue) >= MaxQueued:
		return nil, fmt.Errorf("%w: %d are; ask again in a while", ErrBusy, len(x.queue))
	case x.shares[client] >= MaxShare:
		return nil, fmt.Errorf("%w: %d of them are yours; ask again when they are answered", ErrBusy, x.shares[client])
	}
	x.arrived++
	empty := x.rl.Spec().Cells() - bits.OnesCount64(uint64(b.X|b.O))
	a := &answer{b: b, done: make(chan struct{}), client: client, askers: map[string]bool{client: true}, cost: empty, arrival: x.arrived, asked: time.Now()}
	x.kept[b] = a
	x.shares[client]++
	heap.Push(&x.queue, a)
	if x.running != nil && a.cost < x.running.cost {
		x.stop(errCheaper)
	}
	select {
	case x.wake <- struct{}{}:
	default:
	}
	return a, nil
}

// work searches the queued positions one at a time, cheapest first, until
// the explorer's life ends.
func (x *Explorer) work() {
	for {
		a, ctx := x.next()
		if a == nil {
			return
		}
		limit := x.limit
		if limit > 0 {
			limit = max(limit-a.searched, time.Millisecond)
		}
		watched := x.watch(ctx, a)
		an, err := oracle.Within(ctx, x.o, a.b, limit)
		cause := context.Cause(ctx)
		x.stop(nil)
		<-watched
		x.settle(a, an, err, cause)
	}
}

// next gives the cheapest queued position that someone still asks for, as
// the one running, with the context of its search; nil when life ends.
// Positions no one asks for any longer are forgotten on the way.
func (x *Explorer) next() (*answer, context.Context) {
	for {
		x.mu.Lock()
		for len(x.queue) > 0 {
			a := heap.Pop(&x.queue).(*answer)
			if time.Since(a.asked) > x.abandon {
				x.forget(a, errAbandoned)
				continue
			}
			ctx, stop := context.WithCancelCause(x.life)
			x.running, x.stop, a.since = a, stop, time.Now()
			x.mu.Unlock()
			return a, ctx
		}
		x.mu.Unlock()
		select {
		case <-x.wake:
		case <-x.life.Done():
			return nil, nil
		}
	}
}

// watch stops a's search, whose context is ctx, once no request has asked
// about it for the explorer's abandon time; the channel it gives is closed
// when it has stopped watching, after ctx ends.
func (x *Explorer) watch(ctx context.Context, a *answer) <-chan struct{} {
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		tick := time.NewTicker(min(x.abandon/4, time.Second))
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			x.mu.Lock()
			idle := time.Since(a.asked)
			x.mu.Unlock()
			if idle > x.abandon {
				x.stop(errAbandoned)
			}
		}
	}()
	return watched
}

// settle ends a's search, which gave an and err, stopped by cause (nil
// when it was not stopped): a search cancelled is forgotten, whatever
// stopped it first; one stopped for a cheaper position, or cancelled and
// then asked for anew, goes back to the queue; one no one asked for is
// forgotten; any other is a's answer.
func (x *Explorer) settle(a *answer, an perfect.Analysis, err, cause error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.running = nil
	a.searched += time.Since(a.since)
	a.since = time.Time{}
	switch {
	case err != nil && a.dropped:
		x.forget(a, errCancelled)
		return
	case err != nil && (errors.Is(cause, errCheaper) || errors.Is(cause, errCancelled)):
		heap.Push(&x.queue, a) // cancelled, then asked anew: searched again
		return
	case err != nil && errors.Is(cause, errAbandoned):
		x.forget(a, errAbandoned)
		return
	}
	a.view, a.err = report.NewPosition(an), err
	x.release(a)
	close(a.done)
	x.done = append(x.done, a.b)
	for len(x.done) > MaxKept {
		delete(x.kept, x.done[0])
		x.done = x.done[1:]
	}
}

// Cancel withdraws client's request for b, and says whether client had
// asked for b and it was not answered yet. Once no client that asked for b
// waits for it, its search stops, or it is taken off the queue: a search
// already stopped for a cheaper position is forgotten too, not queued
// again; a request still waiting for b's answer gets ErrGone. A client
// cancels only what it asked for: another's search goes on. A request for
// b later queues it again.
func (x *Explorer) Cancel(b game.Board, client string) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	a, ok := x.kept[b]
	switch {
	case !ok || isDone(a) || !a.askers[client]:
		return false
	case len(a.askers) > 1: // others still wait for it
		delete(a.askers, client)
	case x.running == a: // the worker forgets it when the search returns
		delete(a.askers, client)
		a.dropped = true
		x.stop(errCancelled)
	default: // waiting: off the queue, so that it counts against no bound
		heap.Remove(&x.queue, a.at)
		x.forget(a, errCancelled)
	}
	return true
}

// isDone says whether a has its answer, or was forgotten.
func isDone(a *answer) bool {
	select {
	case <-a.done:
		return true
	default:
		return false
	}
}

// forget drops a, waiting or searched, with err: the next request for it
// queues it again. x.mu is held.
func (x *Explorer) forget(a *answer, err error) {
	delete(x.kept, a.b)
	x.release(a)
	a.err = err
	close(a.done)
}

// release takes a, answered or forgotten, off its client's share; a
// client with none left is forgotten too. x.mu is held.
func (x *Explorer) release(a *answer) {
	x.shares[a.client]--
	if x.shares[a.client] == 0 {
		delete(x.shares, a.client)
	}
}

// Solving is the API's answer while a position is being solved (status
// 202): the page draws Position, which has no value yet, and asks again.
type Solving struct {
	Board    string          `json:"board"`
	Queued   bool            `json:"queued"`   // waiting for another position's search
	Seconds  float64         `json:"seconds"`  // searched so far
	Position report.Position `json:"position"` // its status and legal moves, nothing proved (report.Unanswered)
}

// view gives b's view, asked by client: at once from an oracle that
// answers at once, or answers b so (an opening book's position); from
// search when its answer comes within the wait, or what is being done
// about it. A poll asks again about b, and queues no search (ask).
func (x *Explorer) view(ctx context.Context, b game.Board, client string, poll bool) (*report.Position, *Solving, error) {
	if x.o.Instant(b) {
		an, err := oracle.Within(ctx, x.o, b, x.limit)
		v := report.NewPosition(an)
		return &v, nil, err
	}
	a, err := x.ask(b, client, poll)
	if err != nil {
		return nil, nil, err
	}
	timer := time.NewTimer(x.wait)
	defer timer.Stop()
	select {
	case <-a.done:
		switch {
		case errors.Is(a.err, errCancelled): // the page left it: no search anew
			return nil, nil, ErrGone
		case errors.Is(a.err, errAbandoned): // forgotten just as it was asked: ask anew
			return x.view(ctx, b, client, poll)
		}
		return &a.view, nil, a.err
	case <-timer.C:
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	s := &Solving{Board: x.rl.Spec().Format(b), Queued: a.since.IsZero(), Position: report.Unanswered(x.rl, b)}
	s.Seconds = (a.searched + x.sinceStart(a)).Round(100 * time.Millisecond).Seconds()
	return nil, s, nil
}

// sinceStart gives how long a's search has run, zero while it waits.
func (x *Explorer) sinceStart(a *answer) time.Duration {
	if a.since.IsZero() {
		return 0
	}
	return time.Since(a.since)
}

// queue is a heap of answers waiting for search, cheapest first, then in
// the order they came (container/heap).
type queue []*answer

func (q queue) Len() int { return len(q) }
func (q queue) Less(i, j int) bool {
	return q[i].cost < q[j].cost || (q[i].cost == q[j].cost && q[i].arrival < q[j].arrival)
}
func (q queue) Swap(i, j int) {
	q[i], q[j] = q[j], q[i]
	q[i].at, q[j].at = i, j
}
func (q *queue) Push(v any) {
	a := v.(*answer)
	a.at = len(*q)
	*q = append(*q, a)
}
func (q *queue) Pop() any {
	old := *q
	a := old[len(old)-1]
	old[len(old)-1], a.at = nil, -1
	*q = old[:len(old)-1]
	return a
}
