// Package oracletest owns what tests of an oracle's users need: an oracle
// that answers nothing until it is stopped, one that answers everything at
// once (Shallow), and positions to ask them.
package oracletest

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Stalling is a search that answers nothing: each Analyze waits for its
// context to end, and says which positions it was asked (Started) and why
// each stopped (Stopped, the context's cause). With Hold set, a stopped
// search returns only once Hold gives.
type Stalling struct {
	Started chan game.Board
	Stopped chan error
	Hold    chan struct{}
}

// NewStalling gives a Stalling with room for 1,024 starts and stops.
func NewStalling() *Stalling {
	return &Stalling{Started: make(chan game.Board, 1024), Stopped: make(chan error, 1024)}
}

// Name is "search".
func (s *Stalling) Name() perfect.Engine { return perfect.Search }

// Instant is false: every position is searched.
func (s *Stalling) Instant(game.Board) bool { return false }

// Close has nothing to let go.
func (s *Stalling) Close() error { return nil }

// Analyze waits for ctx to end, and gives its error.
func (s *Stalling) Analyze(ctx context.Context, b game.Board) (perfect.Analysis, error) {
	s.Started <- b
	<-ctx.Done()
	s.Stopped <- context.Cause(ctx)
	if s.Hold != nil {
		<-s.Hold
	}
	return perfect.Analysis{}, ctx.Err()
}

// Next waits for the next search to start, skipping earlier positions',
// and fails unless it is want's within 10 s.
func (s *Stalling) Next(t testing.TB, want game.Board) {
	t.Helper()
	for deadline := time.After(10 * time.Second); ; {
		select {
		case b := <-s.Started:
			if b == want {
				return
			}
		case <-deadline:
			t.Fatalf("%v was not searched within 10 s", want)
		}
	}
}

// Shallow is an engine that looks one move ahead: a move that makes a line
// wins (or, under misère, loses) at once, and every other leads to a draw
// at the depth of a full board; a position is worth what its moves weigh.
// Wrong as perfect play, but self-consistent and instant on any board:
// what the tests of a command need to follow its plumbing (flags, tables,
// reports, exit codes) without its engine's time. It counts the positions
// it was asked (Asked), and is safe for concurrent use.
type Shallow struct {
	rl        rules.Rules
	valueOnly bool
	noDepths  bool
	asked     *atomic.Int64
}

// ShallowName is the name Shallow answers by, in its analyses' Engine
// and AnsweredBy.
const ShallowName perfect.Engine = "shallow"

// NewShallow gives a Shallow engine of rl's game; with valueOnly its
// answers leave out the moves, as oracle.Options.ValueOnly asks, and with
// noDepths the depths, as oracle.Options.NoDepths asks.
func NewShallow(rl rules.Rules, valueOnly, noDepths bool) *Shallow {
	return &Shallow{rl: rl, valueOnly: valueOnly, noDepths: noDepths, asked: new(atomic.Int64)}
}

// Name is ShallowName.
func (s *Shallow) Name() perfect.Engine { return ShallowName }

// Instant is true: nothing is searched.
func (s *Shallow) Instant(game.Board) bool { return true }

// Close has nothing to let go.
func (s *Shallow) Close() error { return nil }

// Asked gives how many positions it was asked.
func (s *Shallow) Asked() int64 { return s.asked.Load() }

// Analyze answers b as the type says.
func (s *Shallow) Analyze(ctx context.Context, b game.Board) (perfect.Analysis, error) {
	s.asked.Add(1)
	if err := ctx.Err(); err != nil {
		return perfect.Analysis{}, err
	}
	a := perfect.Analysis{Spec: s.rl.Spec(), Board: b, Status: s.rl.Game().Status(b), Paths: -1, Engine: ShallowName, AnsweredBy: ShallowName}
	if over, winner := s.rl.Outcome(b); over {
		a.Value = perfect.Of(winner)
		return a, nil
	}
	a.ToMove = b.ToMove()
	ms, o, err := perfect.MovesBy(s.rl, b, func(c game.Board) (perfect.Outcome, error) {
		if over, winner := s.rl.Outcome(c); over {
			return perfect.Outcome{Value: perfect.Of(winner)}, nil
		}
		return perfect.Outcome{Value: perfect.Draw, Depth: perfect.Depth(s.rl.Spec().Cells() - c.Ply())}, nil
	})
	a.Value, a.Depth, a.Moves = o.Value, o.Depth, ms
	if s.noDepths {
		a = a.WithoutDepths()
	}
	if s.valueOnly {
		a.Moves, a.ValueOnly = nil, true
	}
	return a, err
}

// Positions gives n distinct positions of four plies of rl's game, a
// gravity game of seven columns (Connect Four), at most 1,120.
func Positions(t testing.TB, rl rules.Rules, n int) []game.Board {
	t.Helper()
	var bs []game.Board
	seen := map[game.Board]bool{}
	for i := 0; len(bs) < n; i++ {
		b, err := rules.Play(rl, game.Board{}, fmt.Sprintf("%d%d%d%d", i/343%7+1, i/49%7+1, i/7%7+1, i%7+1))
		if err != nil {
			t.Fatal(err)
		}
		if !seen[b] {
			seen[b] = true
			bs = append(bs, b)
		}
	}
	return bs
}
