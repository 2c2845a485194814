package enumerate

import (
	"bufio"
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/index"
	"github.com/tateti-lab/tateti-lab/internal/longtest"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

func all(t testing.TB, s game.Spec, workers int) *Result {
	t.Helper()
	return allUnder(t, rules.Classic(s), workers)
}

func allUnder(t testing.TB, rl rules.Rules, workers int) *Result {
	t.Helper()
	r, err := Game(context.Background(), rl, workers)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// variant builds the rules of rows x cols, k in a row, with the switches.
func variant(rows, cols, k int, gravity, misere bool) rules.Rules {
	return rules.New(rules.Spec{Spec: game.Spec{Rows: rows, Cols: cols, K: k}, Gravity: gravity, Misere: misere})
}

// Public figures for the variants (DESIGN.md; John Tromp's Connect-Four
// tables, where wWhH is W columns by H rows, that is --size HxW).
func TestVariantCounts(t *testing.T) {
	tests := []struct {
		name      string
		rules     rules.Rules
		positions int64
	}{
		{"misère 3x3", variant(3, 3, 3, false, true), 5478},
		{"gravity w4h4", variant(4, 4, 4, true, false), 161029},
		{"gravity w4h3", variant(3, 4, 4, true, false), 12031},
		{"gravity w3h4", variant(4, 3, 4, true, false), 6000},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if testing.Short() && i > 0 {
				t.Skip("a second board past 16 cells: heavy under -race, runs without -short")
			}
			one, many := allUnder(t, tt.rules, 1), allUnder(t, tt.rules, 3)
			if got := mustCount(t, one).Positions; got != tt.positions {
				t.Fatalf("positions: got %d, want %d", got, tt.positions)
			}
			if !sameResult(one, many) {
				t.Fatal("1 worker and 3 workers give different results")
			}
		})
	}
}

// Under gravity only the mirror is a symmetry: orbits have 1 or 2 boards, and
// the classes are the positions that are their own mirror plus half the rest.
func TestGravityClasses(t *testing.T) {
	r := allUnder(t, variant(3, 4, 4, true, false), 2)
	var own, pairs int64
	for i := range r.Len() {
		switch r.Orbit[i] {
		case 1:
			own++
		case 2:
			pairs++
		default:
			t.Fatalf("position %s has orbit %d under gravity, want 1 or 2", r.Rules.Spec().Format(r.Board(i)), r.Orbit[i])
		}
	}
	if got, want := mustCount(t, r).Classes, own+pairs/2; got != want {
		t.Fatalf("classes = %d, want %d (%d own mirrors, %d in pairs)", got, want, own, pairs)
	}
}

func sameResult(a, b *Result) bool {
	return slices.Equal(a.IDs, b.IDs) && slices.Equal(a.Paths, b.Paths) && slices.Equal(a.Canon, b.Canon) &&
		slices.Equal(a.Orbit, b.Orbit) && slices.Equal(a.Status, b.Status) && slices.Equal(a.Start, b.Start)
}

// The public figures for 3x3 (DESIGN.md): every one must come out of the computation.
func TestCounts3x3(t *testing.T) {
	c := mustCount(t, all(t, game.Default, 2))
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
		{"terminal", c.Terminal, perfect.ByStatus{XWon: 626, OWon: 316, Draw: 16}},
		{"classes", c.Classes, int64(765)},
		{"terminal classes", c.TerminalClasses, int64(138)},
		{"games", c.Games, Games{perfect.ByStatus{XWon: 131184, OWon: 77904, Draw: 46080}, 255168}},
		{"sequences", c.Paths, int64(549946)},
		// A drawn full board none of whose prefixes has a line is reached by
		// every order of X's five marks and O's four: 5!·4!.
		{"max paths", c.MaxPaths, int64(120 * 24)},
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
	longtest.Skip(t, "free 4x4 whole, 9,722,011 positions")
	c := mustCount(t, all(t, game.Spec{Rows: 4, Cols: 4, K: 4}, 2))
	if got, want := c.Positions, int64(9722011); got != want {
		t.Errorf("4x4 k=4 positions: got %d, want %d", got, want)
	}
	if got, want := c.Terminal.Total(), int64(659392); got != want {
		t.Errorf("4x4 k=4 terminal: got %d, want %d", got, want)
	}
}

// The reachability test of the rules and the enumeration agree on every raw
// board, under every rule set.
func TestReachabilityMatchesEnumeration(t *testing.T) {
	tests := []struct {
		name  string
		rules rules.Rules
	}{
		{"3x3", variant(3, 3, 3, false, false)},
		{"misère 3x3", variant(3, 3, 3, false, true)},
		{"gravity 3x4 k=4", variant(3, 4, 4, true, false)},
		{"gravity 4x3 k=3", variant(4, 3, 3, true, false)},
		{"gravity misère 3x3", variant(3, 3, 3, true, true)},
		{"gravity 2x2 k=2", variant(2, 2, 2, true, false)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := allUnder(t, tt.rules, 1)
			s := tt.rules.Spec()
			reachable := 0
			for id := range game.Pow3(s.Cells()) {
				b := game.FromID(id)
				reason := tt.rules.Reachability(b)
				_, inResult := r.Lookup(id)
				if (reason == rules.Reachable) != inResult {
					t.Fatalf("board %s: Reachability says %v, enumeration says reachable=%v", s.Spec.Format(b), reason, inResult)
				}
				if inResult {
					reachable++
				}
			}
			if reachable != r.Len() {
				t.Fatalf("%d raw boards are reachable, enumeration has %d", reachable, r.Len())
			}
		})
	}
}

// The terminal 3x3 positions are exactly the 958 boards of the UCI Tic-Tac-Toe
// Endgame data set, and its "positive" class is exactly "X won".
func TestUCIEndgame(t *testing.T) {
	f, err := os.Open("testdata/uci-tic-tac-toe-endgame.data")
	if err != nil {
		t.Fatal(err)
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
		i, ok := r.Lookup(id)
		if !ok {
			t.Fatalf("UCI board %s is not reachable here", game.Default.Format(b))
		}
		if !r.Status[i].Terminal() {
			t.Fatalf("UCI board %s is %v here, want a finished game", game.Default.Format(b), r.Status[i])
		}
		if got, want := r.Status[i] == game.XWon, fields[9] == "positive"; got != want {
			t.Fatalf("UCI board %s: x_won=%v here, UCI class %s", game.Default.Format(b), got, fields[9])
		}
		seen[id] = true
	}
	terminal := 0
	for i := range r.Len() {
		if r.Status[i].Terminal() {
			terminal++
			if !seen[uint64(r.IDs[i])] {
				t.Errorf("terminal board %s is missing from the UCI data", game.Default.Format(r.Board(i)))
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
	if !sameResult(all(t, s, 1), all(t, s, 7)) {
		t.Fatal("1 worker and 7 workers give different results")
	}
}

func TestOrderAndIndex(t *testing.T) {
	r := all(t, game.Default, 2)
	for i := range r.Len() {
		b := r.Board(i)
		lo, hi := r.Layer(b.Ply())
		if i < lo || i >= hi {
			t.Fatalf("position %d (%s) is outside its ply's layer [%d, %d)", i, game.Default.Format(b), lo, hi)
		}
		if i > lo && r.IDs[i-1] >= r.IDs[i] {
			t.Fatalf("ids not sorted within ply at %d", i)
		}
		if j, ok := r.Lookup(uint64(r.IDs[i])); !ok || j != i {
			t.Fatalf("Index(%d) = %d, %v; want %d", r.IDs[i], j, ok, i)
		}
	}
	if _, ok := r.Lookup(game.Pow3(9) + 5); ok {
		t.Fatal("Index of an id past the raw boards should be false")
	}
}

func TestFrom(t *testing.T) {
	g := rules.Classic(game.Default)
	tests := []struct {
		name, board string
		positions   int
		sequences   int64
		classes     []int64 // by ply from the root
	}{ // positions and sequences of 0 are not checked
		{"empty board is All", ".../.../...", 5478, 549946, []int64{1, 3, 12, 38, 108, 174, 204, 153, 57, 15}},
		{"finished board is alone", "XXX/OO./...", 1, 1, []int64{1}},
		{"last move", "XOX/XOO/OX.", 2, 2, []int64{1, 1}},
		// From a corner the mirror in the diagonal through it still pairs the
		// replies: 8 replies make 5 classes, though the corner's other images
		// are not in the result.
		{"corner", "..X/.../...", 0, 0, []int64{1, 5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, _ := g.Spec().Parse(tt.board)
			r, err := From(context.Background(), g, b, 2)
			if err != nil {
				t.Fatal(err)
			}
			got := mustCount(t, r)
			if tt.positions != 0 && (r.Len() != tt.positions || got.Paths != tt.sequences) {
				t.Fatalf("From(%s): %d positions, %d sequences; want %d, %d", tt.board, r.Len(), got.Paths, tt.positions, tt.sequences)
			}
			for i, want := range tt.classes {
				if c := got.ByPly[i].Classes; c != want {
					t.Fatalf("From(%s): ply %d has %d classes, want %d", tt.board, got.ByPly[i].Ply, c, want)
				}
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
		{"too large", game.Spec{Rows: 6, Cols: 5, K: 4}, "", "size 6x5 has 30 cells, too many to exhaust"},
		{"unreachable root", game.Default, "XXX/OOO/...", "cannot arise in play: both X and O have a line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := rules.Classic(tt.spec)
			var b game.Board
			if tt.board != "" {
				b, _ = tt.spec.Parse(tt.board)
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
		if _, err := Game(context.Background(), g, 2); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEnumerateGravity4x4(b *testing.B) {
	rl := variant(4, 4, 4, true, false)
	for b.Loop() {
		if _, err := Game(context.Background(), rl, 2); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEnumerate4x4(b *testing.B) {
	g := rules.Classic(game.Spec{Rows: 4, Cols: 4, K: 4})
	for b.Loop() {
		if _, err := Game(context.Background(), g, 2); err != nil {
			b.Fatal(err)
		}
	}
}

// The estimate bounds the positions from above, and not by much.
func TestEstimate(t *testing.T) {
	tests := []struct {
		name  string
		rules rules.Rules
	}{
		{"3x3", variant(3, 3, 3, false, false)},
		{"3x4", variant(3, 4, 3, false, false)},
		{"gravity 4x4", variant(4, 4, 4, true, false)},
		{"gravity 3x4", variant(3, 4, 4, true, false)},
		{"gravity 4x3", variant(4, 3, 3, true, false)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := uint64(allUnder(t, tt.rules, 2).Len())
			e := EstimateFor(tt.rules.Spec())
			if e.Placements < n || e.Placements > 3*n {
				t.Fatalf("%d placements for %d positions: want at least as many, and at most three times", e.Placements, n)
			}
		})
	}
	// The bound knows k: below the 6,046 fair-count boards of 3x3 and
	// above its 5,478 positions; exact where every first move wins.
	if got := EstimateFor(rules.Spec{Spec: game.Default}).Placements; got >= 6046 || got < 5478 {
		t.Errorf("3x3 placements = %d, want fewer than the 6,046 fair-count boards and at least the 5,478 positions", got)
	}
	k1 := variant(1, 25, 1, false, false)
	if got, want := EstimateFor(k1.Spec()).Placements, uint64(allUnder(t, k1, 2).Len()); got != want {
		t.Errorf("1x25 k=1: %d placements, want the %d positions: every first move wins", got, want)
	}
	if k4, k5 := EstimateFor(variant(5, 5, 4, false, false).Spec()), EstimateFor(variant(5, 5, 5, false, false).Spec()); k4.Placements >= k5.Placements {
		t.Errorf("5x5: %d placements for k=4, %d for k=5; want fewer for the shorter line", k4.Placements, k5.Placements)
	}
}

// The sparse layers and index give the same result as the dense ones on
// every board both can hold, from the empty board and from the position
// after X's first legal move.
func TestDenseAndSparseAgree(t *testing.T) {
	for _, rl := range []rules.Rules{
		variant(3, 3, 3, false, false), variant(3, 3, 3, false, true), variant(3, 4, 3, false, false),
		variant(4, 4, 4, true, false), variant(2, 8, 3, false, false),
		variant(4, 3, 3, true, true),
	} {
		t.Run(rl.Spec().String(), func(t *testing.T) {
			if rl.Spec().Cells() == 16 && !rl.Spec().Gravity {
				longtest.Skip(t, "free 2x8 whole, millions of positions")
			}
			if testing.Short() && rl.Spec().Cells() > 12 {
				t.Skip("past 12 cells: heavy under -race, runs without -short")
			}
			var dense, sparse *Result // from the empty board, after the loop
			first := game.Board{}.Play(trailing(rl.Moves(game.Board{})), game.X)
			for _, root := range []game.Board{first, {}} {
				dense, sparse = enumerateBoth(t, rl, root)
				if !sameResult(dense, sparse) {
					t.Fatalf("from %s, the dense and the sparse enumeration differ", rl.Spec().Format(root))
				}
			}
			// Every raw board of the smaller games; members and their
			// neighbours of the larger ones.
			probe := func(id uint64) {
				i, ok := dense.Lookup(id)
				j, ok2 := sparse.Lookup(id)
				if ok != ok2 || (ok && i != j) {
					t.Fatalf("Lookup(%d): dense %d %v, sparse %d %v", id, i, ok, j, ok2)
				}
			}
			if n := rl.Spec().Cells(); n <= 12 {
				for id := range game.Pow3(n) {
					probe(id)
				}
				return
			}
			for _, id := range dense.IDs {
				probe(id)
				probe(id + 1)
			}
		})
	}
}

// enumerateBoth enumerates rl from root with the dense and with the sparse
// layers and index, paths and classes included.
func enumerateBoth(t *testing.T, rl rules.Rules, root game.Board) (dense, sparse *Result) {
	t.Helper()
	ctx := context.Background()
	dense, err := from(ctx, rl, root, 2, false)
	if err == nil {
		err = dense.Complete(ctx, 2)
	}
	if err != nil {
		t.Fatal(err)
	}
	sparse, err = from(ctx, rl, root, 3, true)
	if err == nil {
		err = sparse.Complete(ctx, 3)
	}
	if err != nil {
		t.Fatal(err)
	}
	return dense, sparse
}

// Boards past 16 cells: the enumeration of a gravity board is exactly the
// set of stacked boards the rules' reachability test accepts, walked apart
// from it; 1 and N workers agree.
func TestPast16Cells(t *testing.T) {
	tests := []struct {
		name  string
		rules rules.Rules
		stack bool // walk the stacked boards to cross-check
	}{
		{"gravity 6x3 k=3", variant(6, 3, 3, true, false), true},
		{"gravity misère 3x6 k=3", variant(3, 6, 3, true, true), false},
		{"free 2x9 k=2", variant(2, 9, 2, false, false), false},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if testing.Short() && i > 0 {
				t.Skip("a second board past 16 cells: heavy under -race, runs without -short")
			}
			one, many := allUnder(t, tt.rules, 1), allUnder(t, tt.rules, 3)
			if _, ok := one.Index.(*index.Sparse); !ok {
				t.Fatalf("index is %T, want the sparse one past 16 cells", one.Index)
			}
			if !sameResult(one, many) {
				t.Fatal("1 worker and 3 workers give different results")
			}
			if !tt.stack {
				return
			}
			reachable := 0
			stacked(tt.rules.Spec().Spec, func(b game.Board) {
				_, in := one.Lookup(game.ID(b))
				if ok := tt.rules.Reachability(b) == rules.Reachable; ok != in {
					t.Fatalf("board %s: reachability %v, enumerated %v", tt.rules.Spec().Format(b), ok, in)
				} else if ok {
					reachable++
				}
			})
			if reachable != one.Len() {
				t.Fatalf("%d stacked boards can arise, %d enumerated", reachable, one.Len())
			}
		})
	}
}

// stacked calls fn with every board of s whose columns are stacks from the
// bottom row up, X or O in each cell of a stack.
func stacked(s game.Spec, fn func(game.Board)) {
	var walk func(col int, b game.Board)
	walk = func(col int, b game.Board) {
		if col == s.Cols {
			fn(b)
			return
		}
		for h := 0; h <= s.Rows; h++ {
			for marks := range 1 << h {
				c := b
				for j := range h { // j-th mark from the bottom
					cell := (s.Rows-1-j)*s.Cols + col
					if marks>>j&1 == 1 {
						c.O |= 1 << cell
					} else {
						c.X |= 1 << cell
					}
				}
				walk(col+1, c)
			}
		}
	}
	walk(0, game.Board{})
}

// TestPathsTo checks the walk back from one board against the paths the
// enumeration pulls forward, on every position of several rule sets.
func TestPathsTo(t *testing.T) {
	tests := []struct {
		name string
		rl   rules.Rules
	}{
		{"3x3", variant(3, 3, 3, false, false)},
		{"3x3 misère", variant(3, 3, 3, false, true)},
		{"gravity 4x3 k=3", variant(3, 4, 3, true, false)},
		{"3x4 k=3", variant(3, 4, 3, false, false)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := allUnder(t, tt.rl, 2)
			for i := range r.Len() {
				if got, want := PathsTo(tt.rl, r.Board(i)), r.Paths[i]; got != want {
					t.Fatalf("PathsTo(%s) = %d, want %d", tt.rl.Spec().Format(r.Board(i)), got, want)
				}
			}
		})
	}
}

// TestPathsRecurrence checks every position's paths against the recurrence
// they are defined by, the sum of its parents' paths, whether they were
// pulled from the parents or taken from the rules' Paths.
func TestPathsRecurrence(t *testing.T) {
	tests := []struct {
		name string
		rl   rules.Rules
	}{
		{"3x3", variant(3, 3, 3, false, false)},
		{"3x3 misère", variant(3, 3, 3, false, true)},
		{"3x4 k=3", variant(3, 4, 3, false, false)},
		{"2x5 k=3", variant(2, 5, 3, false, false)},
		{"gravity 4x3 k=3", variant(3, 4, 3, true, false)},
		{"free 2x9 k=2 (sparse)", variant(2, 9, 2, false, false)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if testing.Short() && tt.rl.Spec().Cells() > 12 {
				t.Skip("past 12 cells: heavy under -race, runs without -short")
			}
			r := allUnder(t, tt.rl, 2)
			ordered := 0
			for i := 1; i < r.Len(); i++ {
				b := r.Board(i)
				want := sumParents(tt.rl, b, r.IDs[i], func(parent uint64) int64 {
					if j, ok := r.Lookup(parent); ok { // under gravity, a parent may be one that cannot arise
						return r.Paths[j]
					}
					return 0
				})
				if r.Paths[i] != want {
					t.Fatalf("%s: paths %d, want %d (the sum over its parents)", tt.rl.Spec().Format(b), r.Paths[i], want)
				}
				if _, ok := tt.rl.Paths(b); ok {
					ordered++
				}
			}
			if got, want := ordered > 0, !tt.rl.Spec().Gravity; got != want {
				t.Errorf("%d positions counted by Rules.Paths; want some %v", ordered, want)
			}
		})
	}
}

func mustCount(t testing.TB, r *Result) Counts {
	t.Helper()
	c, err := r.Count()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Count fails, rather than wrap, when the move sequences pass 2^63: here two
// finished games each said to be reached 2^62 ways.
func TestCountOverflow(t *testing.T) {
	r := all(t, game.Default, 2)
	marked := 0
	for i := range r.Len() {
		if r.Status[i].Terminal() && marked < 2 {
			r.Paths[i] = 1 << 62
			marked++
		}
	}
	_, err := r.Count()
	if err == nil || !strings.Contains(err.Error(), "more than 2^63") {
		t.Fatalf("Count error = %v, want one saying the sequences pass 2^63", err)
	}
}

// Positions leaves paths and classes out, and Complete adds exactly what Game has.
func TestLeanThenComplete(t *testing.T) {
	for _, rl := range []rules.Rules{variant(3, 3, 3, false, false), variant(4, 4, 4, true, false), variant(3, 3, 3, false, true)} {
		t.Run(rl.Spec().String(), func(t *testing.T) {
			if testing.Short() && rl.Spec().Cells() > 12 {
				t.Skip("past 12 cells: heavy under -race, runs without -short")
			}
			want := allUnder(t, rl, 2)
			got, err := Positions(context.Background(), rl, 3)
			if err != nil {
				t.Fatal(err)
			}
			if got.Paths != nil || got.Canon != nil || got.Orbit != nil {
				t.Fatal("Positions filled paths or classes")
			}
			if !slices.Equal(got.IDs, want.IDs) || !slices.Equal(got.Status, want.Status) {
				t.Fatal("Positions's ids or statuses differ from Game's")
			}
			if err := got.Complete(context.Background(), 3); err != nil {
				t.Fatal(err)
			}
			if !sameResult(got, want) {
				t.Fatal("Positions then Complete differs from Game")
			}
		})
	}
}

// The estimate from a position bounds the positions that can follow it, and
// its printed parts add up.
func TestEstimateFrom(t *testing.T) {
	tests := []struct {
		name  string
		rules rules.Rules
		root  string
	}{
		{"3x3 after the centre", variant(3, 3, 3, false, false), ".../.X./..."},
		{"3x3, O to move after two", variant(3, 3, 3, false, false), "XO./.X./..."},
		{"misère 3x4", variant(3, 4, 3, false, true), "X.../.O../...."},
		{"gravity 4x4", variant(4, 4, 4, true, false), "..../..../..../.XO."},
		{"gravity 5x4 past 16 cells", variant(5, 4, 4, true, false), "..../..../..../..../XO.X"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.rules.Spec()
			root, err := s.Parse(tt.root)
			if err != nil {
				t.Fatal(err)
			}
			r, err := From(context.Background(), tt.rules, root, 2)
			if err != nil {
				t.Fatal(err)
			}
			e := EstimateFrom(s, root)
			if e.Placements < uint64(r.Len()) {
				t.Fatalf("%d placements for %d positions: want at least as many", e.Placements, r.Len())
			}
			if e.PositionBytes != e.Placements*BytesPerPosition || e.Bytes != e.PositionBytes+e.LayerBytes {
				t.Fatalf("estimate %+v: its parts do not add up", e)
			}
		})
	}
}
