package search

import (
	"context"
	"math/bits"
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
)

// Beats answers as the exhaustive solve does: of each child of a sample of
// positions, against each sibling's outcome (the parent's among them, when
// the child is a best move), whether its mover does better; where it
// does, SolveAbove gives the child's outcome, and where it does at least
// as well, SolveFrom.
func TestBeats(t *testing.T) {
	tests := []struct {
		spec   rules.Spec
		sample int
		packed bool
	}{
		{rules.Spec{Spec: game.Spec{Rows: 3, Cols: 3, K: 3}}, 0, false},
		{rules.Spec{Spec: game.Spec{Rows: 3, Cols: 3, K: 3}, Misere: true}, 0, true},
		{rules.Spec{Spec: game.Spec{Rows: 4, Cols: 4, K: 4}, Gravity: true}, 400, false},
		{rules.Spec{Spec: game.Spec{Rows: 4, Cols: 4, K: 3}, Gravity: true, Misere: true}, 400, false},
		{rules.Spec{Spec: game.Spec{Rows: 4, Cols: 4, K: 3}}, 200, true},
	}
	for _, tt := range tests {
		rl := rules.New(tt.spec)
		t.Run(tt.spec.String(), func(t *testing.T) {
			if testing.Short() && tt.spec.Cells() == 16 && !tt.spec.Gravity {
				t.Skip("free 4x4 takes the race detector's run (-short) a quarter of a minute; misère 3x3 holds the packed layout")
			}
			sol, err := solve.Lean(context.Background(), rl, 2)
			if err != nil {
				t.Fatal(err)
			}
			s, err := New(rl.Spec(), Options{TableBits: 18, Workers: 2, packed: tt.packed})
			if err != nil {
				t.Fatal(err)
			}
			positions := sol.Positions(true)
			if tt.sample > 0 {
				positions = pick(positions, tt.sample, 11)
			}
			for _, i := range positions {
				checkBeats(t, s, rl, sol, sol.Enum.Board(i))
			}
		})
	}
}

// checkBeats holds Beats on each child of b in progress against each
// child's outcome, and the parent's, to the solve's outcomes.
func checkBeats(t *testing.T, s *Solver, rl rules.Rules, sol *solve.Result, b game.Board) {
	t.Helper()
	outcome := func(c game.Board) perfect.Outcome {
		k, _ := sol.Enum.Lookup(game.ID(c))
		return perfect.Outcome{Value: sol.Value[k], Depth: sol.Depth[k]}
	}
	parent := outcome(b)
	targets := []perfect.Outcome{{Value: parent.Value, Depth: parent.Depth - 1}}
	var kids []game.Board
	for m := uint64(rl.Moves(b)); m != 0; m &= m - 1 {
		c := b.Play(bits.TrailingZeros64(m), b.ToMove())
		targets = append(targets, outcome(c))
		if over, _ := rl.Outcome(c); !over {
			kids = append(kids, c)
		}
	}
	for _, c := range kids {
		for _, than := range targets {
			if !prefers(than, outcome(c), c.ToMove() == game.X) {
				r, err := s.SolveFrom(context.Background(), uint64(c.X), uint64(c.O), than)
				if got, want := (perfect.Outcome{Value: r.Value, Depth: r.Depth}), outcome(c); err != nil || !r.Settled || got != want {
					t.Fatalf("%s: SolveFrom(%+v) = %+v, %v; want %+v", rl.Spec().Format(c), than, r, err, want)
				}
			}
			got, err := s.Beats(context.Background(), uint64(c.X), uint64(c.O), than)
			if want := prefers(outcome(c), than, c.ToMove() == game.X); err != nil || got != want {
				t.Fatalf("%s, worth %+v: Beats(%+v) = %v, %v; want %v", rl.Spec().Format(c), outcome(c), than, got, err, want)
			}
			if !got {
				continue
			}
			r, err := s.SolveAbove(context.Background(), uint64(c.X), uint64(c.O), than)
			if got, want := (perfect.Outcome{Value: r.Value, Depth: r.Depth}), outcome(c); err != nil || !r.Settled || got != want {
				t.Fatalf("%s: SolveAbove(%+v) = %+v, %v; want %+v", rl.Spec().Format(c), than, r, err, want)
			}
		}
	}
}

// prefers reports whether the mover of a position (X when xToMove) does
// better with the outcome a than with b: a higher value for it, then a
// faster win or a slower loss.
func prefers(a, b perfect.Outcome, xToMove bool) bool {
	va, vb := a.Value, b.Value
	if !xToMove {
		va, vb = -va, -vb
	}
	switch {
	case va != vb:
		return va > vb
	case va > 0:
		return a.Depth < b.Depth
	case va < 0:
		return a.Depth > b.Depth
	}
	return false
}
