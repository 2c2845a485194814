package perfect

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
)

func TestValue(t *testing.T) {
	tests := []struct {
		name   string
		winner game.Cell
		want   Value
		words  string
		forO   Value
	}{
		{"X won", game.X, XWins, "X wins", OWins},
		{"O won", game.O, OWins, "O wins", XWins},
		{"nobody won", game.Empty, Draw, "draw", Draw},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Of(tt.winner)
			if got != tt.want || got.String() != tt.words || got.For(game.O) != tt.forO || got.For(game.X) != got {
				t.Errorf("Of(%v) = %d %q, for O %d; want %d %q, for O %d", tt.winner, got, got, got.For(game.O), tt.want, tt.words, tt.forO)
			}
		})
	}
}

func TestBounds(t *testing.T) {
	tests := []struct {
		b    Bounds
		want string
	}{
		{Bounds{XWins, XWins}, "X wins"},
		{Bounds{Draw, XWins}, "X does not lose"},
		{Bounds{OWins, Draw}, "O does not lose"},
		{Unknown, "nothing yet"},
	}
	for _, tt := range tests {
		if got := tt.b.String(); got != tt.want {
			t.Errorf("%+v says %q, want %q", tt.b, got, tt.want)
		}
	}
}

// Better orders outcomes for a side as Weigh does: a higher value for
// it, then a faster win or a slower loss; drawn outcomes tie.
func TestOutcomeBetter(t *testing.T) {
	tests := []struct {
		name    string
		o, than Outcome
		side    game.Cell
		want    bool
	}{
		{"a win over a draw", Outcome{XWins, 9}, Outcome{Draw, 4}, game.X, true},
		{"a draw over a loss", Outcome{Draw, 4}, Outcome{XWins, 9}, game.O, true},
		{"a faster win", Outcome{OWins, 3}, Outcome{OWins, 5}, game.O, true},
		{"not a slower win", Outcome{OWins, 5}, Outcome{OWins, 3}, game.O, false},
		{"a slower loss", Outcome{OWins, 5}, Outcome{OWins, 3}, game.X, true},
		{"not a faster loss", Outcome{XWins, 2}, Outcome{XWins, 6}, game.O, false},
		{"not the same", Outcome{XWins, 2}, Outcome{XWins, 2}, game.X, false},
		{"draws tie", Outcome{Draw, 2}, Outcome{Draw, 6}, game.X, false},
	}
	for _, tt := range tests {
		if got := tt.o.Better(tt.than, tt.side); got != tt.want {
			t.Errorf("%s: %+v.Better(%+v, %v) = %v, want %v", tt.name, tt.o, tt.than, tt.side, got, tt.want)
		}
	}
}

// Weigh takes the best value for the mover, then the fastest win or the
// slowest loss, marks every move that ties, and counts the position one
// ply deeper than its best child.
func TestWeigh(t *testing.T) {
	tests := []struct {
		name  string
		mover game.Cell
		moves []Move // Cell, Value for X, Depth
		value Value
		depth Depth
		best  []bool
	}{
		{"X takes the fastest win", game.X, []Move{{Cell: 0, Value: XWins, Depth: 5}, {Cell: 1, Value: XWins, Depth: 1}, {Cell: 2, Value: Draw, Depth: 4}},
			XWins, 2, []bool{false, true, false}},
		{"O takes its win, which is X's loss", game.O, []Move{{Cell: 0, Value: XWins, Depth: 1}, {Cell: 3, Value: OWins, Depth: 3}},
			OWins, 4, []bool{false, true}},
		{"the slowest loss", game.X, []Move{{Cell: 0, Value: OWins, Depth: 1}, {Cell: 1, Value: OWins, Depth: 7}},
			OWins, 8, []bool{false, true}},
		{"draws tie", game.O, []Move{{Cell: 0, Value: Draw, Depth: 2}, {Cell: 1, Value: Draw, Depth: 2}, {Cell: 2, Value: XWins, Depth: 1}},
			Draw, 3, []bool{true, true, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, d := Weigh(tt.mover, tt.moves)
			if v != tt.value || d != tt.depth {
				t.Errorf("Weigh gives %v in %d, want %v in %d", v, d, tt.value, tt.depth)
			}
			for i, m := range tt.moves {
				if m.Best != tt.best[i] {
					t.Errorf("move at cell %d: best %v, want %v", m.Cell, m.Best, tt.best[i])
				}
			}
		})
	}
}

func ExampleWeigh() {
	// O to move: one move lets X win at once, the other draws.
	ms := []Move{{Cell: 2, Value: XWins, Depth: 1}, {Cell: 6, Value: Draw, Depth: 5}}
	v, d := Weigh(game.O, ms)
	fmt.Println(v, d, ms[0].Best, ms[1].Best)
	// Output: draw 6 false true
}

// Noisy perfect play takes a best move with probability 1-E: over many
// draws the share of non-best moves is near E times the share of non-best
// legal moves; E 0 never leaves the best, E 1 ignores them. The moves are
// asked about only when a best move is to be played, about 1-E of the
// time: a random move costs no search.
func TestNoisyPick(t *testing.T) {
	const legal, best = 0b1111111, 0b0001000 // seven moves, one best
	tests := []struct {
		epsilon float64
		want    float64 // the share of moves that are not best
	}{
		{0, 0},
		{0.25, 0.25 * 6 / 7},
		{0.5, 0.5 * 6 / 7},
		{1, 6.0 / 7},
	}
	for _, tt := range tests {
		rng := rand.New(rand.NewPCG(1, 2))
		const n = 70000
		off, asked := 0, 0
		for range n {
			once := false
			c, err := Noisy{tt.epsilon}.Pick(rng, legal, func(c int) (bool, error) {
				if !once {
					once, asked = true, asked+1
				}
				return best>>c&1 == 1, nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if legal>>c&1 == 0 {
				t.Fatalf("E %v: cell %d is not legal", tt.epsilon, c)
			}
			if best>>c&1 == 0 {
				off++
			}
		}
		if got := float64(off) / n; math.Abs(got-tt.want) > 0.01 {
			t.Errorf("E %v: %.3f of moves not best, want %.3f", tt.epsilon, got, tt.want)
		}
		if got, want := float64(asked)/n, 1-tt.epsilon; math.Abs(got-want) > 0.01 {
			t.Errorf("E %v: the best moves asked for %.3f of moves, want %.3f", tt.epsilon, got, want)
		}
	}
}

// A best move is uniform among the best moves, and the moves are asked
// about one at a time in a random order until a best one comes: with k
// best moves of n, (n+1)/(k+1) questions a move on average.
func TestNoisyPickFirstBest(t *testing.T) {
	tests := []struct {
		name        string
		legal, best uint64
	}{
		{"one best of seven", 0b1111111, 0b0000100},
		{"two best of seven", 0b1111111, 0b1000001},
		{"three best of five", 0b0011111, 0b0010110},
		{"every move best", 0b0001111, 0b0001111},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(3, 4))
			const n = 60000
			picked := map[int]int{}
			questions := 0
			for range n {
				c, err := Noisy{0}.Pick(rng, tt.legal, func(c int) (bool, error) { questions++; return tt.best>>c&1 == 1, nil })
				if err != nil {
					t.Fatal(err)
				}
				picked[c]++
			}
			k, m := bits.OnesCount64(tt.best), bits.OnesCount64(tt.legal)
			for c, got := range picked {
				if tt.best>>c&1 == 0 {
					t.Fatalf("cell %d picked, not a best move", c)
				}
				if share := float64(got) / n; math.Abs(share-1/float64(k)) > 0.01 {
					t.Errorf("cell %d picked %.3f of the time, want %.3f", c, share, 1/float64(k))
				}
			}
			if got, want := float64(questions)/n, float64(m+1)/float64(k+1); math.Abs(got-want) > 0.02 {
				t.Errorf("%.3f questions a move, want %.3f", got, want)
			}
		})
	}
}

// An error asking about a move is Pick's error; an engine that calls no
// legal move best is a bug, said.
func TestNoisyPickError(t *testing.T) {
	want := errors.New("no answer")
	rng := rand.New(rand.NewPCG(1, 2))
	if _, err := (Noisy{0}).Pick(rng, 0b11, func(int) (bool, error) { return false, want }); !errors.Is(err, want) {
		t.Errorf("Pick: %v, want %v", err, want)
	}
	if _, err := (Noisy{0}).Pick(rng, 0b11, func(int) (bool, error) { return false, nil }); err == nil || !strings.Contains(err.Error(), "a bug") {
		t.Errorf("Pick with no best move: %v, want an error that says it is a bug", err)
	}
}

func TestCheckEpsilon(t *testing.T) {
	for _, e := range []float64{-0.1, 1.5, math.NaN(), math.Inf(1)} {
		if CheckEpsilon(e) == nil {
			t.Errorf("CheckEpsilon(%v) = nil, want a refusal", e)
		}
	}
	for _, e := range []float64{0, 0.25, 1} {
		if err := CheckEpsilon(e); err != nil {
			t.Errorf("CheckEpsilon(%v) = %v, want nil", e, err)
		}
	}
}
