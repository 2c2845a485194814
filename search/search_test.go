package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
)

// Search and the exhaustive solve are two independent solvers: they must
// give every position the same value and depth. Small games are checked on
// every position, larger ones on a reproducible sample.
func TestAgreesWithSolve(t *testing.T) {
	tests := []struct {
		rows, cols, k int
		misere        bool
		sample        int // 0: every position
	}{
		{3, 3, 3, false, 0},
		{4, 4, 4, false, 0},
		{4, 4, 4, true, 0},
		{3, 4, 3, false, 0},
		{4, 3, 3, true, 0},
		{2, 5, 2, false, 0},
		{4, 5, 4, false, 3000},
		{5, 4, 4, true, 3000},
		{6, 3, 3, false, 3000},
	}
	for _, tt := range tests {
		name := fmt.Sprintf("gravity %dx%d k=%d misère=%v", tt.rows, tt.cols, tt.k, tt.misere)
		t.Run(name, func(t *testing.T) {
			if testing.Short() && tt.sample == 0 && tt.rows*tt.cols == 16 {
				t.Skip("every position of 4x4: heavy under -race, runs without -short")
			}
			rl := rules.New(rules.Spec{Spec: game.Spec{Rows: tt.rows, Cols: tt.cols, K: tt.k}, Gravity: true, Misere: tt.misere})
			sol, err := solve.Game(context.Background(), rl, 2)
			if err != nil {
				t.Fatal(err)
			}
			s, err := NewGravity(tt.rows, tt.cols, tt.k, tt.misere, 20)
			if err != nil {
				t.Fatal(err)
			}
			positions := sol.Positions(true)
			if tt.sample > 0 {
				rng := rand.New(rand.NewPCG(uint64(tt.rows*100+tt.cols), 7))
				rng.Shuffle(len(positions), func(i, j int) { positions[i], positions[j] = positions[j], positions[i] })
				positions = positions[:tt.sample]
			}
			for _, i := range positions {
				b := sol.Enum.Board(i)
				v, d, err := s.Solve(context.Background(), uint64(b.X), uint64(b.O))
				if err != nil {
					t.Fatal(err)
				}
				if v != sol.Value[i] || d != sol.Depth[i] {
					t.Fatalf("%s: search gives value %d depth %d, the solve %d and %d", rl.Spec().Format(b), v, d, sol.Value[i], sol.Depth[i])
				}
			}
		})
	}
}

// John Tromp's values of Connect Four, W columns by H rows, from the empty
// board: + the first player wins, = draw, - the second. The larger boards
// take minutes: they are benchmarks (BenchmarkTromp).
var tromp = []struct {
	w, h  int
	value int8
}{
	{4, 4, 0}, {5, 4, 0}, {6, 4, -1}, {7, 4, 0},
	{4, 5, 0}, {5, 5, 0}, {6, 5, 0}, {7, 5, 0},
	{4, 6, 0}, {5, 6, 0}, {6, 6, -1}, {7, 6, 1},
}

// The boards up to 25 cells take a second at most: w4h4, w5h4, w6h4 (O
// wins), w4h5, w5h5, w4h6.
func TestTromp(t *testing.T) {
	for _, tt := range tromp {
		if tt.w*tt.h > 25 {
			continue
		}
		t.Run(fmt.Sprintf("w%dh%d", tt.w, tt.h), func(t *testing.T) {
			if testing.Short() && tt.w*tt.h > 20 {
				t.Skip("seconds under -race; runs without -short")
			}
			s, err := NewGravity(tt.h, tt.w, 4, false, 22)
			if err != nil {
				t.Fatal(err)
			}
			if v, _, err := s.Solve(context.Background(), 0, 0); err != nil || v != tt.value {
				t.Fatalf("value %d, %v; want %d", v, err, tt.value)
			}
		})
	}
}

func BenchmarkTromp(b *testing.B) {
	for _, tt := range tromp {
		b.Run(fmt.Sprintf("w%dh%d", tt.w, tt.h), func(b *testing.B) {
			for b.Loop() {
				s, err := NewGravity(tt.h, tt.w, 4, false, 24)
				if err != nil {
					b.Fatal(err)
				}
				v, d, err := s.Solve(context.Background(), 0, 0)
				if err != nil || v != tt.value {
					b.Fatalf("value %d, %v; want %d", v, err, tt.value)
				}
				b.ReportMetric(float64(s.Nodes), "nodes")
				b.ReportMetric(float64(d), "depth")
			}
		})
	}
}

// A search whose context ends stops with its error, and the solver, its
// table holding only finished work, answers right afterwards.
func TestSolveStops(t *testing.T) {
	s, err := NewGravity(4, 6, 4, false, 20) // w6h4: O wins, about 0.5 s
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := s.Solve(ctx, 0, 0); err != context.Canceled {
		t.Fatalf("a cancelled search gives %v, want context.Canceled", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, _, err := s.Solve(ctx, 0, 0); err != context.DeadlineExceeded {
		t.Fatalf("a search past its deadline gives %v, want context.DeadlineExceeded", err)
	}
	if v, d, err := s.Solve(context.Background(), 0, 0); err != nil || v != -1 || d != 24 {
		t.Fatalf("after the stops: value %d depth %d, %v; want -1 and 24", v, d, err)
	}
}
