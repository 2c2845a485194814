package enumerate

import (
	"bufio"
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
)

func all(t testing.TB, s game.Spec, workers int) *Result {
	t.Helper()
	r, err := All(context.Background(), rules.Classic(s), workers)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The public figures for 3x3 (DESIGN.md): every one must come out of the computation.
func TestCounts3x3(t *testing.T) {
	c := all(t, game.Default, 2).Count()
	byPly := make([]int64, len(c.ByPly))
	for i, p := range c.ByPly {
		byPly[i] = p.Positions
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"positions", c.Positions, int64(5478)},
		{"positions by ply", byPly, []int64{1, 9, 72, 252, 756, 1260, 1520, 1140, 390, 78}},
		{"terminal", c.Terminal, ByStatus{XWon: 626, OWon: 316, Draw: 16}},
		{"classes", c.Classes, int64(765)},
		{"terminal classes", c.TerminalClasses, int64(138)},
		{"games", c.Games, Games{ByStatus{XWon: 131184, OWon: 77904, Draw: 46080}, 255168}},
		{"sequences", c.Sequences, int64(549946)},
	}
	for _, tt := range checks {
		t.Run(tt.name, func(t *testing.T) {
			if !equal(tt.got, tt.want) {
				t.Fatalf("got %v, want %v", tt.got, tt.want)
			}
		})
	}
}

func equal(a, b any) bool {
	if x, ok := a.([]int64); ok {
		return slices.Equal(x, b.([]int64))
	}
	return a == b
}

func TestCounts4x4(t *testing.T) {
	c := all(t, game.Spec{Rows: 4, Cols: 4, K: 4}, 2).Count()
	if got, want := c.Positions, int64(9722011); got != want {
		t.Errorf("4x4 k=4 positions: got %d, want %d", got, want)
	}
	if got, want := c.Terminal.Total(), int64(659392); got != want {
		t.Errorf("4x4 k=4 terminal: got %d, want %d", got, want)
	}
}

// The reachability test and the enumeration agree on every raw 3x3 board.
func TestReachabilityMatchesEnumeration(t *testing.T) {
	r := all(t, game.Default, 1)
	g := r.Rules
	reachable := 0
	for id := range game.Pow3(9) {
		b := game.FromID(id)
		reason := g.Reachability(b)
		_, inResult := r.Index(id)
		if (reason == rules.Reachable) != inResult {
			t.Fatalf("board %s: Reachability says %v, enumeration says reachable=%v", game.Format(g.Spec().Spec, b), reason, inResult)
		}
		if inResult {
			reachable++
		}
	}
	if reachable != r.Len() {
		t.Fatalf("%d raw boards are reachable, enumeration has %d", reachable, r.Len())
	}
}

// The terminal 3x3 positions are exactly the 958 boards of the UCI Tic-Tac-Toe
// Endgame data set, and its "positive" class is exactly "X won".
func TestUCIEndgame(t *testing.T) {
	f, err := os.Open("../../shared/fixtures/uci-tic-tac-toe-endgame.data")
	if err != nil {
		t.Fatalf("the UCI fixture must sit at ../shared beside the repository: %v", err)
	}
	defer f.Close()
	r := all(t, game.Default, 2)
	seen := map[uint64]bool{}
	sc := bufio.NewScanner(f)
	sc.Scan() // header
	for sc.Scan() {
		fields := strings.Split(sc.Text(), ",")
		if len(fields) != 10 {
			t.Fatalf("UCI line %q has %d fields, want 10", sc.Text(), len(fields))
		}
		var b game.Board
		for i, c := range fields[:9] {
			switch c {
			case "x":
				b = b.Play(i, game.X)
			case "o":
				b = b.Play(i, game.O)
			}
		}
		id := game.ID(b)
		i, ok := r.Index(id)
		if !ok {
			t.Fatalf("UCI board %s is not reachable here", game.Format(game.Default, b))
		}
		if !r.Status[i].Terminal() {
			t.Fatalf("UCI board %s is %v here, want a finished game", game.Format(game.Default, b), r.Status[i])
		}
		if got, want := r.Status[i] == game.XWon, fields[9] == "positive"; got != want {
			t.Fatalf("UCI board %s: x_won=%v here, UCI class %s", game.Format(game.Default, b), got, fields[9])
		}
		seen[id] = true
	}
	terminal := 0
	for i := range r.Len() {
		if r.Status[i].Terminal() {
			terminal++
			if !seen[uint64(r.IDs[i])] {
				t.Errorf("terminal board %s is missing from the UCI data", game.Format(game.Default, r.Board(i)))
			}
		}
	}
	if len(seen) != 958 || terminal != 958 {
		t.Fatalf("UCI has %d distinct boards, enumeration %d terminal; want 958 both", len(seen), terminal)
	}
}

// Results are identical for 1 and N workers.
func TestWorkersAgree(t *testing.T) {
	s := game.Spec{Rows: 3, Cols: 4, K: 3}
	one, many := all(t, s, 1), all(t, s, 7)
	if !slices.Equal(one.IDs, many.IDs) || !slices.Equal(one.Paths, many.Paths) ||
		!slices.Equal(one.Canon, many.Canon) || !slices.Equal(one.Orbit, many.Orbit) ||
		!slices.Equal(one.Status, many.Status) {
		t.Fatal("1 worker and 7 workers give different results")
	}
}

func TestOrderAndIndex(t *testing.T) {
	r := all(t, game.Default, 2)
	for i := range r.Len() {
		b := r.Board(i)
		lo, hi := r.Layer(b.Ply())
		if i < lo || i >= hi {
			t.Fatalf("position %d (%s) is outside its ply's layer [%d, %d)", i, game.Format(game.Default, b), lo, hi)
		}
		if i > lo && r.IDs[i-1] >= r.IDs[i] {
			t.Fatalf("ids not sorted within ply at %d", i)
		}
		if j, ok := r.Index(uint64(r.IDs[i])); !ok || j != i {
			t.Fatalf("Index(%d) = %d, %v; want %d", r.IDs[i], j, ok, i)
		}
	}
	if _, ok := r.Index(game.Pow3(9) + 5); ok {
		t.Fatal("Index of an id past the raw boards should be false")
	}
}

func TestFrom(t *testing.T) {
	g := rules.Classic(game.Default)
	tests := []struct {
		name, board string
		positions   int
		sequences   int64
	}{
		{"empty board is All", ".../.../...", 5478, 549946},
		{"finished board is alone", "XXX/OO./...", 1, 1},
		{"last move", "XOX/XOO/OX.", 2, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, _ := game.Parse(g.Spec().Spec, tt.board)
			r, err := From(context.Background(), g, b, 2)
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Count(); r.Len() != tt.positions || got.Sequences != tt.sequences {
				t.Fatalf("From(%s): %d positions, %d sequences; want %d, %d", tt.board, r.Len(), got.Sequences, tt.positions, tt.sequences)
			}
		})
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name  string
		spec  game.Spec
		board string
		want  string
	}{
		{"too large", game.Spec{Rows: 5, Cols: 5, K: 4}, "", "size 5x5 has 25 cells, too many to exhaust"},
		{"unreachable root", game.Default, "XXX/OOO/...", "cannot arise in play: both X and O have a line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := rules.Classic(tt.spec)
			var b game.Board
			if tt.board != "" {
				b, _ = game.Parse(tt.spec, tt.board)
			}
			_, err := From(context.Background(), g, b, 1)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("From error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func BenchmarkEnumerate3x3(b *testing.B) {
	g := rules.Classic(game.Default)
	for b.Loop() {
		if _, err := All(context.Background(), g, 2); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEnumerate4x4(b *testing.B) {
	g := rules.Classic(game.Spec{Rows: 4, Cols: 4, K: 4})
	for b.Loop() {
		if _, err := All(context.Background(), g, 2); err != nil {
			b.Fatal(err)
		}
	}
}
