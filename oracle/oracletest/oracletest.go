// Package oracletest owns what tests of an oracle's users need: an oracle
// that answers nothing until it is stopped, and positions to ask it.
package oracletest

import (
	"context"
	"fmt"
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
func (s *Stalling) Name() string { return "search" }

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
