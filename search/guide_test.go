package search

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
)

// solvedGuide is the guide of a game solved whole in memory: it knows
// every position, and keeps the most marks of a position it was asked.
type solvedGuide struct {
	sol   *solve.Result
	marks atomic.Int64
}

func (g *solvedGuide) Value(x, o uint64) (perfect.Value, bool) {
	for n := int64(bits.OnesCount64(x | o)); g.marks.Load() < n; {
		g.marks.CompareAndSwap(g.marks.Load(), n)
	}
	i, ok := g.sol.Enum.Lookup(game.ID(game.Board{X: game.Mask(x), O: game.Mask(o)}))
	if !ok {
		return 0, false
	}
	return g.sol.Value[i], true
}

// TestGuided holds a search guided by the game solved whole, asked about
// every position of 2 empty cells or more, to the solve, value and depth,
// on a sample of positions of each game, one worker and two: the guide
// only narrows what the search asks. It is asked within the search, not
// at its root alone.
func TestGuided(t *testing.T) {
	tests := []struct {
		name    string
		spec    rules.Spec
		workers int
		packed  bool
	}{
		{"gravity 5x4", gravity(5, 4, 4), 1, false},
		{"gravity 5x4, two workers", gravity(5, 4, 4), 2, false},
		{"gravity 4x4 k=3 misère", rules.Spec{Spec: game.Spec{Rows: 4, Cols: 4, K: 3}, Gravity: true, Misere: true}, 1, false},
		{"free 3x5 k=3, packed", rules.Spec{Spec: game.Spec{Rows: 3, Cols: 5, K: 3}}, 2, true},
	}
	solved := make(map[rules.Spec]*solve.Result)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rl := rules.New(tt.spec)
			sol := solved[tt.spec]
			if sol == nil {
				var err error
				if sol, err = solve.Lean(context.Background(), rl, 2); err != nil {
					t.Fatal(err)
				}
				solved[tt.spec] = sol
			}
			guide := &solvedGuide{sol: sol}
			guided, err := New(tt.spec, Options{TableBits: 20, Workers: tt.workers, Guide: guide, packed: tt.packed, guideLast: tt.spec.Cells() - 2})
			if err != nil {
				t.Fatal(err)
			}
			positions := sol.Positions(false)
			rng := rand.New(rand.NewPCG(uint64(len(positions)), 3))
			sample := lastWins(sol, positions, 100) // whose score is 1 or -1, the guide's bounds
			for range 300 {
				sample = append(sample, positions[rng.IntN(len(positions))])
			}
			for _, i := range sample {
				b := sol.Enum.Board(i)
				r, err := guided.Solve(context.Background(), uint64(b.X), uint64(b.O))
				if err != nil {
					t.Fatal(err)
				}
				if r.Value != sol.Value[i] || r.Depth != sol.Depth[i] {
					t.Fatalf("%s: the guided search gives value %d depth %d, the solve %d and %d", rl.Spec().Format(b), r.Value, r.Depth, sol.Value[i], sol.Depth[i])
				}
			}
			for _, i := range sample[:100] { // each child of a position against its outcome after a best move
				after := perfect.Outcome{Value: sol.Value[i], Depth: sol.Depth[i] - 1}
				for _, m := range sol.Moves(i) {
					c := sol.Enum.Board(i).Play(m.Cell, sol.Enum.Board(i).ToMove())
					if over, _ := rl.Outcome(c); over {
						continue
					}
					better, err := guided.Beats(context.Background(), uint64(c.X), uint64(c.O), after)
					if err != nil || better == m.Best {
						t.Fatalf("%s: the guided search says its mover beats %+v: %v (%v); the move is best: %v", rl.Spec().Format(c), after, better, err, m.Best)
					}
				}
			}
			b, ok := firstWon(sol)
			if !ok {
				t.Fatal("the game has no won position of 6 empty cells or more to search")
			}
			guide.marks.Store(0)
			guided.Reset()
			if _, err := guided.Solve(context.Background(), uint64(b.X), uint64(b.O)); err != nil {
				t.Fatal(err)
			}
			if got, want := guide.marks.Load(), int64(b.Ply()); got <= want {
				t.Errorf("%s: the guided search asked its guide of positions of %d marks at most, want some below it", rl.Spec().Format(b), got)
			}
		})
	}
}

// firstWon gives the first position of sol, in order, in progress, won or
// lost, and of at least 6 empty cells: the search of its depth goes down
// the moves that keep the win.
func firstWon(sol *solve.Result) (game.Board, bool) {
	cells := sol.Enum.Rules.Spec().Cells()
	for _, i := range sol.Positions(false) {
		if b := sol.Enum.Board(i); sol.Value[i] != perfect.Draw && cells-b.Ply() >= 6 && sol.Depth[i] >= 3 {
			return b, true
		}
	}
	return game.Board{}, false
}

// lastWins gives up to n of the positions of sol, in progress, won or
// lost on the last cell.
func lastWins(sol *solve.Result, positions []int, n int) []int {
	cells := sol.Enum.Rules.Spec().Cells()
	var last []int
	for _, i := range positions {
		if b := sol.Enum.Board(i); sol.Value[i] != perfect.Draw && int(sol.Depth[i]) == cells-b.Ply() && len(last) < n {
			last = append(last, i)
		}
	}
	return last
}

// fixedGuide knows every position's value: the same one.
type fixedGuide struct {
	v     perfect.Value
	known bool
}

func (g fixedGuide) Value(x, o uint64) (perfect.Value, bool) { return g.v, g.known }

// TestGuidedWindow holds guided's narrowing of a window to what the
// guide's value proves of the score of the side to move (X at ply 0, O at
// ply 1): a draw scores 0, a win at least 1, a loss at most -1.
func TestGuidedWindow(t *testing.T) {
	tests := []struct {
		name         string
		guide        fixedGuide
		moves        int
		alpha, beta  int
		wantA, wantB int
		wantV        int
		wantDone     bool
	}{
		{"unknown", fixedGuide{}, 0, -5, 5, -5, 5, 0, false},
		{"draw", fixedGuide{perfect.Draw, true}, 0, -5, 5, -5, 5, 0, true},
		{"win, window across 0", fixedGuide{perfect.XWins, true}, 0, -3, 4, 1, 4, 0, false},
		{"win, window below 1", fixedGuide{perfect.XWins, true}, 0, -3, 0, 1, 0, 1, true},
		{"win, null window at 0", fixedGuide{perfect.XWins, true}, 0, 0, 1, 1, 1, 1, true},
		{"win, window above 0", fixedGuide{perfect.XWins, true}, 0, 2, 3, 2, 3, 0, false},
		{"loss, window across 0", fixedGuide{perfect.OWins, true}, 0, -5, 3, -5, -1, 0, false},
		{"loss, null window at -1", fixedGuide{perfect.OWins, true}, 0, -1, 0, -1, -1, -1, true},
		{"loss, window below -1", fixedGuide{perfect.OWins, true}, 0, -6, -3, -6, -3, 0, false},
		{"X wins, O to move", fixedGuide{perfect.XWins, true}, 1, -1, 0, -1, -1, -1, true},
		{"O wins, O to move", fixedGuide{perfect.OWins, true}, 1, -3, 0, 1, 0, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := New(gravity(4, 4, 4), Options{TableBits: MinTableBits, Workers: 1, Guide: tt.guide})
			if err != nil {
				t.Fatal(err)
			}
			var pos, mask uint64
			if tt.moves == 1 {
				mask = s.g.bottom & -s.g.bottom // X's mark; O, to move, has none
			}
			w := &worker{s: s}
			a, b, v, done := w.guided(pos, mask, tt.moves, tt.alpha, tt.beta)
			if a != tt.wantA || b != tt.wantB || done != tt.wantDone || done && v != tt.wantV {
				t.Errorf("guided in (%d, %d) gives (%d, %d), %d, done %v; want (%d, %d), %d, done %v", tt.alpha, tt.beta, a, b, v, done, tt.wantA, tt.wantB, tt.wantV, tt.wantDone)
			}
		})
	}
}
