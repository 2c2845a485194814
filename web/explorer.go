package web

import (
	"context"
	"time"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/view"
)

// An Explorer answers the API's positions from an oracle of perfect play,
// through an oracle.Queue: a position the oracle answers at once comes in
// the request; one it must search is queued, and a request waits a little
// for it (Wait), then learns that it is being solved.
type Explorer struct {
	rl   rules.Rules
	q    *oracle.Queue
	wait time.Duration // how long a request waits for its answer
}

// Wait is how long a request waits for its answer before the API says
// that the position is being solved, with its legal moves: short enough
// that the page draws the board within a second.
const Wait = 500 * time.Millisecond

// RetryAfter is what a 429 tells a client to wait, in seconds.
const RetryAfter = 5

// NewExplorer gives the explorer of rl's game answered by o, each position
// within limit (0: no limit), its searches stopped when life ends.
func NewExplorer(life context.Context, rl rules.Rules, o oracle.Oracle, limit time.Duration) *Explorer {
	return &Explorer{rl: rl, q: oracle.NewQueue(life, o, limit), wait: Wait}
}

// Stop stops the explorer's search, if one runs, and waits until it has
// returned (oracle.Queue.Stop): the oracle is then its owner's to close.
func (x *Explorer) Stop() { x.q.Stop() }

// Cancel withdraws client's request for b (oracle.Queue.Cancel).
func (x *Explorer) Cancel(b game.Board, client oracle.Client) bool { return x.q.Cancel(b, client) }

// Solving is the API's answer while a position is being solved (status
// 202): the page draws Position, which has no value yet, and asks again.
type Solving struct {
	Board    string        `json:"board"`
	Queued   bool          `json:"queued"`   // waiting for another position's search
	Seconds  float64       `json:"seconds"`  // searched so far
	Position view.Position `json:"position"` // its status and legal moves, nothing proved (view.Unanswered)
}

// view gives b's view, asked by client, as the queue answers it: the view,
// or what is being done about it. A poll asks again about b, and queues no
// search.
func (x *Explorer) view(ctx context.Context, b game.Board, client oracle.Client, poll bool) (*view.Position, *Solving, error) {
	an, pending, err := x.q.Ask(ctx, b, client, poll, x.wait)
	switch {
	case pending != nil:
		return nil, &Solving{Board: x.rl.Spec().Format(b), Queued: pending.Queued, Position: view.Unanswered(x.rl, b),
			Seconds: pending.Searched.Round(100 * time.Millisecond).Seconds()}, nil
	case an == nil:
		return nil, nil, err
	}
	v := view.NewPosition(*an)
	return &v, nil, err
}
