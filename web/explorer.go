package web

import (
	"context"
	"sync"
	"time"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/report"
	"github.com/tateti-lab/tateti-lab/rules"
)

// An Explorer answers the API's positions from an oracle of perfect play:
// the game solved whole, where every answer is a lookup, or search, where
// an answer can take minutes. Each position is asked once, one at a time
// (the oracle's workers all search it), and its answer kept; a request
// waits a little for it, then learns that the position is being solved.
type Explorer struct {
	rl    rules.Rules
	o     oracle.Oracle
	limit time.Duration   // the most a position is searched; 0: no limit
	wait  time.Duration   // how long a request waits for its answer
	life  context.Context // searches stop when it ends

	turn chan struct{} // held by the one position being asked
	mu   sync.Mutex
	kept map[game.Board]*answer
	fifo []game.Board // kept positions, oldest first
}

// answer is the answer to one position, once done is closed.
type answer struct {
	done  chan struct{}
	start time.Time // when its search started; zero while it waits its turn
	view  report.Position
	err   error
}

// MaxKept is how many answers an Explorer keeps; past it the oldest go.
const MaxKept = 100_000

// Wait is how long a request waits for its answer before the API says that
// the position is being solved.
const Wait = 2 * time.Second

// NewExplorer gives the explorer of rl's game answered by o, each position
// within limit (0: no limit), its searches stopped when life ends.
func NewExplorer(life context.Context, rl rules.Rules, o oracle.Oracle, limit time.Duration) *Explorer {
	return &Explorer{rl: rl, o: o, limit: limit, wait: Wait, life: life,
		turn: make(chan struct{}, 1), kept: map[game.Board]*answer{}}
}

// ask gives b's answer, asking the oracle for it once; the answer is not
// done yet when done is open.
func (x *Explorer) ask(b game.Board) *answer {
	x.mu.Lock()
	defer x.mu.Unlock()
	if a, ok := x.kept[b]; ok {
		return a
	}
	a := &answer{done: make(chan struct{})}
	x.kept[b] = a
	x.fifo = append(x.fifo, b)
	for len(x.fifo) > MaxKept {
		delete(x.kept, x.fifo[0])
		x.fifo = x.fifo[1:]
	}
	go x.solve(b, a)
	return a
}

// solve asks the oracle for b when its turn comes, within the limit.
func (x *Explorer) solve(b game.Board, a *answer) {
	defer close(a.done)
	select {
	case x.turn <- struct{}{}:
		defer func() { <-x.turn }()
	case <-x.life.Done():
		a.err = x.life.Err()
		return
	}
	x.mu.Lock()
	a.start = time.Now()
	x.mu.Unlock()
	an, err := oracle.Within(x.life, x.o, b, x.limit)
	a.view, a.err = report.NewPosition(an), err
}

// Solving is the API's answer while a position is being solved (status
// 202): the page asks again.
type Solving struct {
	Board   string  `json:"board"`
	Queued  bool    `json:"queued"`  // waiting for another position's search
	Seconds float64 `json:"seconds"` // searched so far
}

// view gives b's view when its answer comes within the wait, or what is
// being done about it.
func (x *Explorer) view(b game.Board) (*report.Position, *Solving, error) {
	a := x.ask(b)
	timer := time.NewTimer(x.wait)
	defer timer.Stop()
	select {
	case <-a.done:
		return &a.view, nil, a.err
	case <-timer.C:
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	s := &Solving{Board: x.rl.Spec().Format(b), Queued: a.start.IsZero()}
	if !s.Queued {
		s.Seconds = time.Since(a.start).Round(100 * time.Millisecond).Seconds()
	}
	return nil, s, nil
}
