package oracle

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/perfect"
)

// A Queue is an oracle in front of one that may take minutes a position
// (search, an opening book past its last ply), for many clients at once,
// as the explorer's server asks it. A position the oracle answers at once
// (Instant) is answered in the request. Any other is queued once, its
// answer kept, and a request waits a while for it, then learns what is
// being done about it (Pending). The queue is bounded, in all and for each
// client; the position with the fewest empty cells, the cheapest to
// search, goes first, and stops a costlier one's search, which goes back to
// the queue (search's table keeps what it found); a search no request has
// asked about for a while is stopped and forgotten. One position is
// searched at a time, with all the oracle's workers.
type Queue struct {
	o       Oracle
	limit   time.Duration      // the most a position is searched; 0: no limit
	abandon time.Duration      // a search no one asks about for this long is stopped
	end     context.CancelFunc // ends the queue's life: its searches stop (Stop)
	worked  chan struct{}      // closed when work has returned
	closed  sync.Once

	mu      sync.Mutex
	kept    map[game.Board]*ticket // answered, waiting or searched
	done    []game.Board           // answered, oldest first
	queue   queue                  // waiting their turn, cheapest first
	running *ticket
	stop    context.CancelCauseFunc // stops the running search
	shares  map[Client]int          // positions waiting or searched, by client
	addrs   map[string]int          // the same, by address
	wake    chan struct{}           // holds a token when the queue has work
	arrived int64                   // positions queued so far
}

// ticket is one position asked: its answer once done is closed.
type ticket struct {
	b        game.Board
	done     chan struct{}
	client   Client          // who asked first, charged until it is answered
	askers   map[Client]bool // every client that asked for it and has not cancelled
	cost     int             // its empty cells: fewer are cheaper
	arrival  int64           // the order it came in, among equal costs
	asked    time.Time       // when a request last asked for it
	since    time.Time       // when its search started; zero while it waits
	searched time.Duration   // over its searches stopped for a cheaper one
	at       int             // its place in the queue's heap; -1 when not queued
	dropped  bool            // cancelled while searched: forgotten when its search returns, unless asked for anew
	an       perfect.Analysis
	err      error
}

// The queue's bounds.
const (
	// MaxKept is how many answers a Queue keeps; past it the oldest go.
	MaxKept = 100_000
	// MaxQueued is how many positions may wait for search or be searched.
	MaxQueued = 256
	// MaxShare is how many of them one client may have asked for.
	MaxShare = 16
	// MaxAddress is how many of them the clients of one address may have
	// asked for together: a bound against a flood of made-up tabs.
	MaxAddress = 4 * MaxShare
	// Abandon is how long a position waits or is searched with no request
	// asking about it (the explorer's page asks every few seconds) before
	// it is stopped and forgotten.
	Abandon = 30 * time.Second
)

// Why a search stops before its end, beside its limit and the queue's life.
var (
	errCheaper   = errors.New("a cheaper position came")
	errAbandoned = errors.New("no one asked for it any longer")
	// ErrCancelled stops the search of a position every client that asked
	// for it has cancelled (Cancel).
	ErrCancelled = errors.New("every client that asked for it stopped waiting")
)

// A Client is who asks the queue: the address a request came from, and
// the tab (or program) there that asked, by a token it keeps ("" for one
// that gives none). Each client has its share of the queue (MaxShare) and
// cancels only what it asked for, so that two tabs of one browser are two
// clients; an address, whatever its tabs, has a bound of its own
// (MaxAddress).
type Client struct{ Addr, Tab string }

// ErrBusy refuses a position past the queue's bound or the client's share.
var ErrBusy = errors.New("too many positions are waiting for search")

// ErrGone answers a poll for a position no longer waiting or searched: its
// search was stopped (cancelled, or asked about by no one for a while);
// and a request that waited for a position cancelled meanwhile. Neither
// queues a search again, so that a client's request still in flight when
// it has left a position cannot start it anew.
var ErrGone = errors.New("this position is no longer being searched; ask for it again without poll")

// NewQueue gives the queue in front of o, each position searched within
// limit (0: no limit), its searches stopped when life ends.
func NewQueue(life context.Context, o Oracle, limit time.Duration) *Queue {
	q := &Queue{o: o, limit: limit, abandon: Abandon, worked: make(chan struct{}),
		kept: map[game.Board]*ticket{}, shares: map[Client]int{}, addrs: map[string]int{}, wake: make(chan struct{}, 1)}
	life, q.end = context.WithCancel(life)
	go func() { // it waits until a position the oracle does not answer at once comes
		defer close(q.worked)
		q.work(life)
	}()
	return q
}

// A Pending says what is being done about a position not answered yet.
type Pending struct {
	Queued   bool          // waiting for another position's search
	Searched time.Duration // searched so far
}

// Ask gives b's analysis, asked by client: at once when the oracle answers
// b at once; from search when its answer comes within wait; otherwise nil
// and what is being done about it. A poll asks again about b and queues no
// search: b not kept gives ErrGone, as does a request that waited for b
// while every client that asked for it cancelled it. Past the queue's
// bounds it gives ErrBusy. A search's own error comes with its analysis.
func (q *Queue) Ask(ctx context.Context, b game.Board, client Client, poll bool, wait time.Duration) (*perfect.Analysis, *Pending, error) {
	if q.o.Instant(b) {
		an, err := Within(ctx, q.o, b, q.limit)
		return &an, nil, err
	}
	a, err := q.ask(b, client, poll)
	if err != nil {
		return nil, nil, err
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-a.done:
		switch {
		case errors.Is(a.err, ErrCancelled): // the client left it: no search anew
			return nil, nil, ErrGone
		case errors.Is(a.err, errAbandoned): // forgotten just as it was asked: ask anew
			return q.Ask(ctx, b, client, poll, wait)
		}
		return &a.an, nil, a.err
	case <-timer.C:
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	return nil, &Pending{Queued: a.since.IsZero(), Searched: a.searched + q.sinceStart(a)}, nil
}

// Analyze answers b as Ask does for a client of its own that waits as long
// as ctx lets it: the queue is an Oracle too.
func (q *Queue) Analyze(ctx context.Context, b game.Board) (perfect.Analysis, error) {
	an, _, err := q.Ask(ctx, b, Client{}, false, time.Duration(1<<63-1))
	if an == nil {
		return perfect.Analysis{}, err
	}
	return *an, err
}

// Name is the oracle's behind the queue.
func (q *Queue) Name() perfect.Engine { return q.o.Name() }

// Instant is the oracle's behind the queue.
func (q *Queue) Instant(b game.Board) bool { return q.o.Instant(b) }

// Stop stops the queue's search, if one runs, and waits until its
// goroutines have returned; the oracle stays open, for whoever owns it to
// close, now that no search reads what it would let go.
func (q *Queue) Stop() {
	q.end()
	<-q.worked
}

// Close stops the queue (Stop), then closes the oracle behind it. Later
// calls do nothing.
func (q *Queue) Close() (err error) {
	q.Stop()
	q.closed.Do(func() { err = q.o.Close() })
	return err
}

// ask gives b's answer, queued for search once, client charged for it; the
// answer is not done yet when done is open. Past the bounds it gives
// ErrBusy; a poll for b, not kept, ErrGone.
func (q *Queue) ask(b game.Board, client Client, poll bool) (*ticket, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if a, ok := q.kept[b]; ok {
		if poll && a.dropped { // cancelled by every client that asked: stopping
			return nil, ErrGone
		}
		a.asked = time.Now()
		a.dropped = false // asked anew: its search goes on
		if !poll {
			a.askers[client] = true
		}
		return a, nil
	}
	switch {
	case poll:
		return nil, ErrGone
	case len(q.queue) >= MaxQueued:
		return nil, fmt.Errorf("%w: %d are; ask again in a while", ErrBusy, len(q.queue))
	case q.shares[client] >= MaxShare:
		return nil, fmt.Errorf("%w: %d of them are yours; ask again when they are answered", ErrBusy, q.shares[client])
	case q.addrs[client.Addr] >= MaxAddress:
		return nil, fmt.Errorf("%w: %d of them are your address's; ask again when they are answered", ErrBusy, q.addrs[client.Addr])
	}
	q.arrived++
	empty := game.MaxCells - b.Ply() // the board's empty cells, up to a constant of the game
	a := &ticket{b: b, done: make(chan struct{}), client: client, askers: map[Client]bool{client: true}, cost: empty, arrival: q.arrived, asked: time.Now()}
	q.kept[b] = a
	q.shares[client]++
	q.addrs[client.Addr]++
	heap.Push(&q.queue, a)
	if q.running != nil && a.cost < q.running.cost {
		q.stop(errCheaper)
	}
	select {
	case q.wake <- struct{}{}:
	default:
	}
	return a, nil
}

// work searches the queued positions one at a time, cheapest first, until
// the queue's life ends.
func (q *Queue) work(life context.Context) {
	for {
		a, ctx := q.next(life)
		if a == nil {
			return
		}
		limit := q.limit
		if limit > 0 {
			limit = max(limit-a.searched, time.Millisecond)
		}
		watched := q.watch(ctx, a)
		an, err := Within(ctx, q.o, a.b, limit)
		cause := context.Cause(ctx)
		q.stop(nil)
		<-watched
		q.settle(a, an, err, cause)
	}
}

// next gives the cheapest queued position that someone still asks for, as
// the one running, with the context of its search; nil when life ends.
// Positions no one asks for any longer are forgotten on the way.
func (q *Queue) next(life context.Context) (*ticket, context.Context) {
	for {
		q.mu.Lock()
		for len(q.queue) > 0 {
			a := heap.Pop(&q.queue).(*ticket)
			if time.Since(a.asked) > q.abandon {
				q.forget(a, errAbandoned)
				continue
			}
			ctx, stop := context.WithCancelCause(life)
			q.running, q.stop, a.since = a, stop, time.Now()
			q.mu.Unlock()
			return a, ctx
		}
		q.mu.Unlock()
		select {
		case <-q.wake:
		case <-life.Done():
			return nil, nil
		}
	}
}

// watch stops a's search, whose context is ctx, once no request has asked
// about it for the queue's abandon time; the channel it gives is closed
// when it has stopped watching, after ctx ends.
func (q *Queue) watch(ctx context.Context, a *ticket) <-chan struct{} {
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		tick := time.NewTicker(min(q.abandon/4, time.Second))
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			q.mu.Lock()
			idle := time.Since(a.asked)
			q.mu.Unlock()
			if idle > q.abandon {
				q.stop(errAbandoned)
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
func (q *Queue) settle(a *ticket, an perfect.Analysis, err, cause error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.running = nil
	a.searched += time.Since(a.since)
	a.since = time.Time{}
	switch {
	case err != nil && a.dropped:
		q.forget(a, ErrCancelled)
		return
	case err != nil && (errors.Is(cause, errCheaper) || errors.Is(cause, ErrCancelled)):
		heap.Push(&q.queue, a) // cancelled, then asked anew: searched again
		return
	case err != nil && errors.Is(cause, errAbandoned):
		q.forget(a, errAbandoned)
		return
	}
	a.an, a.err = an, err
	q.release(a)
	close(a.done)
	q.done = append(q.done, a.b)
	for len(q.done) > MaxKept {
		delete(q.kept, q.done[0])
		q.done = q.done[1:]
	}
}

// Cancel withdraws client's request for b, and says whether client had
// asked for b and it was not answered yet. Once no client that asked for b
// waits for it, its search stops, or it is taken off the queue: a search
// already stopped for a cheaper position is forgotten too, not queued
// again; a request still waiting for b's answer gets ErrGone. A client
// cancels only what it asked for: another's search goes on. A request for
// b later queues it again.
func (q *Queue) Cancel(b game.Board, client Client) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	a, ok := q.kept[b]
	switch {
	case !ok || isDone(a) || !a.askers[client]:
		return false
	case len(a.askers) > 1: // others still wait for it
		delete(a.askers, client)
	case q.running == a: // the worker forgets it when the search returns
		delete(a.askers, client)
		a.dropped = true
		q.stop(ErrCancelled)
	default: // waiting: off the queue, so that it counts against no bound
		heap.Remove(&q.queue, a.at)
		q.forget(a, ErrCancelled)
	}
	return true
}

// isDone says whether a has its answer, or was forgotten.
func isDone(a *ticket) bool {
	select {
	case <-a.done:
		return true
	default:
		return false
	}
}

// forget drops a, waiting or searched, with err: the next request for it
// queues it again. q.mu is held.
func (q *Queue) forget(a *ticket, err error) {
	delete(q.kept, a.b)
	q.release(a)
	a.err = err
	close(a.done)
}

// release takes a, answered or forgotten, off its client's share; a
// client with none left is forgotten too. q.mu is held.
func (q *Queue) release(a *ticket) {
	q.shares[a.client]--
	if q.shares[a.client] == 0 {
		delete(q.shares, a.client)
	}
	q.addrs[a.client.Addr]--
	if q.addrs[a.client.Addr] == 0 {
		delete(q.addrs, a.client.Addr)
	}
}

// sinceStart gives how long a's search has run, zero while it waits.
func (q *Queue) sinceStart(a *ticket) time.Duration {
	if a.since.IsZero() {
		return 0
	}
	return time.Since(a.since)
}

// queue is a heap of answers waiting for search, cheapest first, then in
// the order they came (container/heap).
type queue []*ticket

func (q queue) Len() int { return len(q) }
func (q queue) Less(i, j int) bool {
	return q[i].cost < q[j].cost || (q[i].cost == q[j].cost && q[i].arrival < q[j].arrival)
}
func (q queue) Swap(i, j int) {
	q[i], q[j] = q[j], q[i]
	q[i].at, q[j].at = i, j
}
func (q *queue) Push(v any) {
	a := v.(*ticket)
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
