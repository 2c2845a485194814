package rules

import (
	"errors"
	"math/bits"
	"slices"
	"strings"
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
)

func newRules(t *testing.T, rows, cols, k int, gravity, misere bool) Rules {
	t.Helper()
	s, err := game.NewSpec(rows, cols, k)
	if err != nil {
		t.Fatal(err)
	}
	return New(Spec{Spec: s, Gravity: gravity, Misere: misere})
}

func parse(t *testing.T, r Rules, text string) game.Board {
	t.Helper()
	b, err := r.Spec().Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestReachability(t *testing.T) {
	free := newRules(t, 3, 3, 3, false, false)
	misere := newRules(t, 3, 3, 3, false, true)
	grav := newRules(t, 4, 4, 4, true, false)
	col := newRules(t, 2, 1, 2, true, false)
	wide := newRules(t, 3, 5, 3, false, false)
	four := newRules(t, 6, 7, 4, true, false)
	tests := []struct {
		name  string
		rules Rules
		board string
		want  Reason
	}{
		{"empty", free, ".../.../...", Reachable},
		{"x won", free, "XXX/OO./...", Reachable},
		{"two lines through the last move", free, "XXX/XOO/XOO", Reachable},
		{"O first", free, "OO./.../...", CountsOff},
		{"X alone", free, "XXX/.../...", CountsOff},
		{"both won", free, "XXX/OOO/...", BothWon},
		{"O moved after X won", free, "XXX/OO./O..", MovedAfterXWon},
		{"X moved after O won", free, "OOO/XX./XX.", MovedAfterOWon},
		{"full with X's line", free, "XXX/OOX/OOX", Reachable},
		{"too many X", free, "XXX/O.O/XXX", CountsOff},
		{"diagonal last", free, "XXX/OXO/OOX", Reachable},
		{"parallel lines share no cell", wide, "XXX../OO.O./XXXOO", NoSingleLastMove},
		{"misère stops at the first line too", misere, "XXX/OO./O..", MovedAfterXWon},
		{"misère line", misere, "XXX/OO./...", Reachable},
		{"gravity empty", grav, "..../..../..../....", Reachable},
		{"gravity first move", grav, "..../..../..../.X..", Reachable},
		{"gravity floating mark", grav, "..../..../.X../....", Floating},
		{"gravity stacked", grav, "..../..../.O../.X..", Reachable},
		{"gravity counts first", grav, "..../..../..../OO..", CountsOff},
		{"gravity line under other marks", grav, "..../O.../OOXO/XXXX", NoSingleLastMove},
		{"gravity column won on top", grav, ".X../.X../.XO./OXO.", Reachable},
		{"gravity O under X in one column", col, "X/O", NoMoveOrder},
		{"gravity X under O in one column", col, "O/X", Reachable},
		// Taking back only the marks on top of their columns keeps the
		// search to the boards play makes: without it, this took 15 s.
		{"connect four, 27 moves in", four, "...X.../...X.X./..XO.OO/X.OXXOX/OOXOOXX/XOOXXOO", Reachable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.rules.Reachability(parse(t, tt.rules, tt.board)); got != tt.want {
				t.Fatalf("Reachability(%s) under %v = %v, want %v", tt.board, tt.rules.Spec(), got, tt.want)
			}
		})
	}
}

func TestCheckReachable(t *testing.T) {
	tests := []struct {
		name   string
		rules  Rules
		board  string
		reason Reason
		want   string
	}{
		{"floating names the cell", newRules(t, 4, 4, 4, true, false), "..../..../.X../....", Floating,
			`board "..../..../.X../...." cannot arise in play under gravity: a mark stands above an empty cell, but under gravity a mark drops to the lowest empty cell of its column (X on row 2, col 1 has an empty cell below it)`},
		{"misère names the rules", newRules(t, 3, 3, 3, false, true), "XXX/OO./O..", MovedAfterXWon,
			`board "XXX/OO./O.." cannot arise in play under misère: X has a line, but O has as many marks, so O moved after the game was over`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckReachable(tt.rules, parse(t, tt.rules, tt.board))
			var ue *UnreachableError
			if !errors.As(err, &ue) || ue.Reason != tt.reason {
				t.Fatalf("CheckReachable = %v, want an UnreachableError for %v", err, tt.reason)
			}
			if got := err.Error(); got != tt.want {
				t.Fatalf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// A maskCase is a board and the cells a function of the rules should give
// of it.
type maskCase struct {
	name  string
	rules Rules
	board string
	want  game.Mask
}

// checkMasks holds what, a function of the rules of each case, to its
// cells.
func checkMasks(t *testing.T, what string, f func(Rules, game.Board) game.Mask, tests []maskCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := f(tt.rules, parse(t, tt.rules, tt.board)); got != tt.want {
				t.Fatalf("%s(%s) = %09b, want %09b (cell 0 is the last digit)", what, tt.board, got, tt.want)
			}
		})
	}
}

func TestMoves(t *testing.T) {
	free := newRules(t, 3, 3, 3, false, false)
	grav := newRules(t, 3, 3, 3, true, false)
	checkMasks(t, "Moves", Rules.Moves, []maskCase{
		{"free: every empty cell", free, "X../.O./...", 0b111_101_110},
		{"free: none once over", free, "XXX/OO./...", 0},
		{"gravity: the bottom row", grav, ".../.../...", 0b111_000_000},
		{"gravity: above the marks", grav, ".../.../XO.", 0b100_011_000},
		{"gravity: full columns have none", grav, "X../O../XO.", 0b100_010_000},
	})
}

// ParentCells gives the last mover's marks whose removal leaves a board
// that could precede it: not finished, and under gravity none taken from
// below another mark.
func TestParentCells(t *testing.T) {
	free := newRules(t, 3, 3, 3, false, false)
	grav := newRules(t, 3, 3, 3, true, false)
	checkMasks(t, "ParentCells", Rules.ParentCells, []maskCase{
		{"free: every mark of the last mover", free, "X../.O./..X", 0b100_000_001},
		{"free: the line's marks, when the line makes the end", free, "XXX/OO./...", 0b000_000_111},
		{"free: not where a line is left standing", free, "XXX/OOX/O..", 0b000_000_111},
		{"gravity: the tops of the columns", grav, ".../O../XOX", 0b010_001_000},
		{"gravity: not from below another mark", grav, ".../X../OXO", 0b100_000_000},
		{"gravity: not from below, either side", grav, ".../XO./OXX", 0b100_001_000},
	})
}

// Playable is Moves on every board whose game goes on, under free
// placement and gravity.
func TestPlayableOfUnfinishedBoards(t *testing.T) {
	for _, rl := range []Rules{newRules(t, 3, 3, 3, false, false), newRules(t, 3, 4, 3, true, true)} {
		g := rl.Game()
		for id := range game.Pow3(rl.Spec().Cells()) {
			b := game.FromID(id)
			if g.Status(b).Terminal() {
				continue
			}
			if got, want := rl.Playable(b), rl.Moves(b); got != want {
				t.Fatalf("%s: Playable(%s) = %b, want Moves %b", rl.Spec(), rl.Spec().Format(b), got, want)
			}
		}
	}
}

// Turn gives the game's status and, unless the game is over, the cells of
// the placement, on every raw board.
func TestTurn(t *testing.T) {
	for _, rl := range []Rules{newRules(t, 3, 3, 3, false, false), newRules(t, 3, 4, 3, true, true)} {
		for id := range game.Pow3(rl.Spec().Cells()) {
			b := game.FromID(id)
			wantSt, wantMoves := rl.Game().Status(b), rl.Playable(b)
			if wantSt.Terminal() {
				wantMoves = 0
			}
			if st, moves := rl.Turn(b); st != wantSt || moves != wantMoves {
				t.Fatalf("%s: Turn(%s) = %v, %b; want %v, %b", rl.Spec(), rl.Spec().Format(b), st, moves, wantSt, wantMoves)
			}
		}
	}
}

func TestWinner(t *testing.T) {
	tests := []struct {
		misere bool
		st     game.Status
		want   game.Cell
	}{
		{false, game.XWon, game.X}, {false, game.OWon, game.O}, {false, game.Draw, game.Empty}, {false, game.InProgress, game.Empty},
		{true, game.XWon, game.O}, {true, game.OWon, game.X}, {true, game.Draw, game.Empty}, {true, game.InProgress, game.Empty},
	}
	for _, tt := range tests {
		r := newRules(t, 3, 3, 3, false, tt.misere)
		if got := r.Winner(tt.st); got != tt.want {
			t.Errorf("misère %v: Winner(%v) = %v, want %v", tt.misere, tt.st, got, tt.want)
		}
	}
}

// Every symmetry of the rules maps legal moves onto legal moves on every
// reachable board of a small game; gravity keeps only the mirror.
func TestSymmetriesKeepLegalPlay(t *testing.T) {
	tests := []struct {
		name  string
		rules Rules
		want  int
	}{
		{"free square", newRules(t, 3, 3, 3, false, false), 8},
		{"free rectangle", newRules(t, 2, 3, 2, false, false), 4},
		{"gravity", newRules(t, 3, 3, 3, true, false), 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			syms := tt.rules.Symmetries()
			if len(syms) != tt.want {
				t.Fatalf("%d symmetries, want %d", len(syms), tt.want)
			}
			s := tt.rules.Spec().Spec
			for id := range game.Pow3(s.Cells()) {
				b := game.FromID(id)
				if tt.rules.Reachability(b) != Reachable {
					continue
				}
				for _, p := range syms {
					if got, want := tt.rules.Moves(game.Transform(b, p)), transformMask(tt.rules.Moves(b), p); got != want {
						t.Fatalf("board %s: moves of the image %b, image of the moves %b", s.Format(b), got, want)
					}
				}
			}
		})
	}
}

func transformMask(m game.Mask, p []int) game.Mask { return game.Transform(game.Board{X: m}, p).X }

func TestPlay(t *testing.T) {
	free := newRules(t, 3, 3, 3, false, false)
	grav := newRules(t, 4, 5, 4, true, false)
	tests := []struct {
		name  string
		rules Rules
		moves string
		want  string // a board, or an error's text
	}{
		{"cells", free, "4,0,8", "O../.X./..X"},
		{"cells with spaces", free, "4 0", "O../.X./..."},
		{"connect-four digits", grav, "3343", "...../..O../..O../..XX."},
		{"connect-four commas", grav, "3,3,4,3", "...../..O../..O../..XX."},
		{"column full", grav, "11111", "moves \"11111\": move 5: column 1 is full"},
		{"column out of range", grav, "6", `move 1: "6" is not a column, want 1 to 5`},
		{"cell taken", free, "4,4", "move 2: cell 4 holds X, want an empty cell"},
		{"after the end", free, "0,3,1,4,2,5", `move 6: "5" comes after the game is over (x_won)`},
		{"after the end, run together", grav, "12121212", `move 8: "2" comes after the game is over (x_won)`},
		{"the last move ends it", grav, "1212121", "X..../XO.../XO.../XO..."},
		{"not a cell", free, "a", `move 1: "a" is not a cell, want 0 to 8`},
		{"cells run together on 3x3", free, "15", ".X./..O/..."},
		{"cells run together past 10 cells", newRules(t, 3, 4, 3, false, false), "15", `move 1: "15" is not a cell, want 0 to 11`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := Play(tt.rules, game.Board{}, tt.moves)
			got := ""
			if err != nil {
				got = err.Error()
			} else {
				got = tt.rules.Spec().Format(b)
			}
			if !strings.Contains(got, tt.want) {
				t.Fatalf("Play(%q) = %q, want %q", tt.moves, got, tt.want)
			}
		})
	}
}

func TestFormatMoves(t *testing.T) {
	tests := []struct {
		name  string
		rules Rules
		cells []int
		want  string
	}{
		{"cells", newRules(t, 3, 3, 3, false, false), []int{4, 0, 8}, "4,0,8"},
		{"none", newRules(t, 3, 3, 3, false, false), nil, ""},
		{"connect-four digits", newRules(t, 4, 5, 4, true, false), []int{17, 12, 18, 7}, "3343"},
		{"wide gravity board", newRules(t, 2, 10, 4, true, false), []int{19, 10}, "10,1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.rules.Spec().FormatMoves(tt.cells)
			if got != tt.want {
				t.Fatalf("FormatMoves(%v) = %q, want %q", tt.cells, got, tt.want)
			}
			// Play reads what FormatMoves writes back to the same cells.
			b, err := Play(tt.rules, game.Board{}, got)
			if err != nil {
				t.Fatal(err)
			}
			var want game.Board
			for _, c := range tt.cells {
				want = want.Play(c, want.ToMove())
			}
			if b != want {
				t.Fatalf("Play(%q) = %s, want %s", got, tt.rules.Spec().Format(b), tt.rules.Spec().Format(want))
			}
		})
	}
}

func TestSpecWords(t *testing.T) {
	tests := []struct {
		spec Spec
		want string
	}{
		{Spec{Spec: game.Default}, "3x3 board, 3 in a row, X first"},
		{Spec{Spec: game.Spec{Rows: 4, Cols: 5, K: 4}, Gravity: true}, "4x5 board, 4 in a row, gravity, X first"},
		{Spec{Spec: game.Default, Gravity: true, Misere: true}, "3x3 board, 3 in a row, gravity, misère, X first"},
	}
	for _, tt := range tests {
		if got := tt.spec.Words(); got != tt.want {
			t.Errorf("Words() = %q, want %q", got, tt.want)
		}
	}
}

// The named games are the boards people mean by their names, spelt with
// hyphens or underscores; any other name is refused, naming the ones there
// are.
func TestNamed(t *testing.T) {
	tests := []struct {
		name string
		want Spec
		err  string
	}{
		{"tic-tac-toe", Spec{Spec: game.Spec{Rows: 3, Cols: 3, K: 3}}, ""},
		{"connect-four", Spec{Spec: game.Spec{Rows: 6, Cols: 7, K: 4}, Gravity: true}, ""},
		{"connect_four", Spec{Spec: game.Spec{Rows: 6, Cols: 7, K: 4}, Gravity: true}, ""},
		{"Connect-Four", Spec{Spec: game.Spec{Rows: 6, Cols: 7, K: 4}, Gravity: true}, ""},
		{"gomoku", Spec{}, `game "gomoku" is not one of tic-tac-toe, connect-four`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Named(tt.name)
			switch {
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("error %v, want %q", err, tt.err)
			case tt.err == "" && (err != nil || got.Spec != tt.want):
				t.Fatalf("Named(%q) = %v, %v; want %v", tt.name, got.Spec, err, tt.want)
			}
		})
	}
}

func TestSpecFlags(t *testing.T) {
	tests := []struct {
		name string
		spec Spec
		want string
	}{
		{"tic-tac-toe", Spec{Spec: game.Spec{Rows: 3, Cols: 3, K: 3}}, "--size 3x3 --k 3"},
		{"connect four", Spec{Spec: game.Spec{Rows: 6, Cols: 7, K: 4}, Gravity: true}, "--gravity --size 6x7 --k 4"},
		{"both switches", Spec{Spec: game.Spec{Rows: 4, Cols: 5, K: 4}, Gravity: true, Misere: true}, "--gravity --misere --size 4x5 --k 4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.spec.Flags(); got != tt.want {
				t.Errorf("Flags() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestMistaken(t *testing.T) {
	tests := []struct {
		name          string
		rows, cols, k int
		want          bool
	}{
		{"7 rows by 6 columns", 7, 6, 4, true},
		{"6x7, six in a row by default", 6, 7, 0, true},
		{"connect four", 6, 7, 4, false},
		{"Tromp's w4h5", 5, 4, 4, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Mistaken(tt.rows, tt.cols, tt.k); got != tt.want {
				t.Errorf("Mistaken(%d, %d, %d) = %v, want %v", tt.rows, tt.cols, tt.k, got, tt.want)
			}
		})
	}
}

func TestPosition(t *testing.T) {
	c4 := New(Spec{Spec: game.Spec{Rows: 4, Cols: 4, K: 4}, Gravity: true})
	tests := []struct {
		name, text, moves string
		want              string // the board, or the error's words
	}{
		{"the empty board", "", "", "..../..../..../...."},
		{"moves from the empty board", "", "2332", "..../..../.OX./.XO."},
		{"moves from a board", "..../..../..../.X..", "2", "..../..../.O../.X.."},
		{"a board that cannot arise", "..../..../..../XX..", "", "cannot arise"},
		{"a bad move", "", "9", "move 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := Position(c4, tt.text, tt.moves)
			got := c4.Spec().Format(b)
			if err != nil {
				got = err.Error()
			}
			if !strings.Contains(got, tt.want) {
				t.Errorf("Position(%q, %q) = %q, want %q", tt.text, tt.moves, got, tt.want)
			}
		})
	}
}

func TestCompletes(t *testing.T) {
	c4 := New(Spec{Spec: game.Spec{Rows: 6, Cols: 7, K: 4}, Gravity: true})
	tests := []struct {
		name  string
		rl    Rules
		board string
		side  game.Cell
		want  []int
	}{
		{"X's two ways to finish", Classic(game.Default), "XO./.X./O..", game.X, []int{8}},
		{"none for O", Classic(game.Default), "XO./.X./O..", game.O, nil},
		{"both ends of a row of three", c4, "......./......./......./......./.OO..../.XXX...", game.X, []int{35, 39}},
		{"not a cell that is not yet playable", c4, "......./......./......./O....../OOO.XXX/XXX.OXO", game.X, []int{38}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := tt.rl.Spec().Parse(tt.board)
			if err != nil {
				t.Fatal(err)
			}
			var want game.Mask
			for _, c := range tt.want {
				want |= 1 << c
			}
			if got := Completes(tt.rl, b, tt.side); got != want {
				t.Errorf("Completes(%s, %v) = %b, want %b", tt.board, tt.side, got, want)
			}
		})
	}
}

func TestGameFlags(t *testing.T) {
	c4 := Spec{Spec: game.Spec{Rows: 6, Cols: 7, K: 4}, Gravity: true}
	tests := []struct {
		name  string
		flags GameFlags
		given []string
		want  Spec
		err   string
	}{
		{"the defaults", GameFlags{Size: "3x3"}, nil, Spec{Spec: game.Default}, ""},
		{"a named game", GameFlags{Game: "connect_four", Size: "3x3"}, []string{"game"}, c4, ""},
		{"a named game under misère", GameFlags{Game: "connect-four", Size: "3x3", Misere: true}, []string{"game", "misere"}, Spec{Spec: c4.Spec, Gravity: true, Misere: true}, ""},
		{"a named game and a size", GameFlags{Game: "connect-four", Size: "4x4"}, []string{"game", "size"}, Spec{}, "give --game or --size, not both"},
		{"an unknown game", GameFlags{Game: "go"}, []string{"game"}, Spec{}, `game "go" is not one of`},
		{"k 0 given", GameFlags{Size: "3x3"}, []string{"k"}, Spec{}, "--k 0 is not a line length"},
		{"the board flags", GameFlags{Size: "4x5", K: 4, Gravity: true}, []string{"size", "k", "gravity"}, Spec{Spec: game.Spec{Rows: 4, Cols: 5, K: 4}, Gravity: true}, ""},
		{"a bad size", GameFlags{Size: "3by3"}, []string{"size"}, Spec{}, "3by3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.flags.Given = func(name string) bool { return slices.Contains(tt.given, name) }
			got, err := tt.flags.Spec()
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("Spec() = %v, %v; want an error with %q", got, err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("Spec() = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

// ParsePosition reads boards and move sequences alike; whatever it
// accepts is a position of alternating play, and the same position as
// the board it prints read back.
func FuzzParsePosition(f *testing.F) {
	c4 := New(Spec{Spec: game.Spec{Rows: 6, Cols: 7, K: 4}, Gravity: true})
	f.Add("4453")
	f.Add("......./......./......./......./......./...X...")
	f.Add("4,4")
	f.Add("")
	f.Fuzz(func(t *testing.T, text string) {
		b, err := ParsePosition(c4, text)
		if err != nil {
			return
		}
		x, o := bits.OnesCount64(uint64(b.X)), bits.OnesCount64(uint64(b.O))
		if b.X&b.O != 0 || x-o < 0 || x-o > 1 {
			t.Fatalf("%q: a board of %d X and %d O", text, x, o)
		}
		again, err := ParsePosition(c4, c4.Spec().Format(b))
		if err != nil || again != b {
			t.Fatalf("%q read as %s, which reads back as %v, %v", text, c4.Spec().Format(b), again, err)
		}
	})
}

// FuzzPlayUnchecked checks that Play's moves played unchecked, the game's
// end asked once at the end, give what checking every move gives wherever
// they succeed: a board that lines and a full board only grow cannot hide
// a move after the end. playMoves plays a line that fails unchecked again
// checked, so the two agree on every line.
func FuzzPlayUnchecked(f *testing.F) {
	rls := []Rules{
		New(Spec{Spec: game.Spec{Rows: 4, Cols: 5, K: 4}, Gravity: true}),
		New(Spec{Spec: game.Spec{Rows: 3, Cols: 3, K: 3}}),
		New(Spec{Spec: game.Spec{Rows: 3, Cols: 3, K: 3}, Misere: true}),
	}
	for _, seed := range []string{"12121212", "1212121", "11111", "0,3,1,4,2,5", "4,0,8", "012345678", "3343"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, r := range rls {
			b, cells, err := playEach(r, game.Board{}, text, true, false)
			if err != nil {
				continue
			}
			want, wantCells, wantErr := playEach(r, game.Board{}, text, true, true)
			if wantErr != nil || b != want || !slices.Equal(cells, wantCells) {
				t.Fatalf("%v, %q unchecked: %s %v; checked: %s %v, %v", r.Spec(), text, r.Spec().Format(b), cells, r.Spec().Format(want), wantCells, wantErr)
			}
		}
	})
}

// New builds the rules of a spec once: callers ask per position (a view's
// legal moves, a judge's check of each board), and building them takes
// longer than the answer.
func TestNewBuildsOnce(t *testing.T) {
	tests := []struct {
		name            string
		rows, cols, k   int
		gravity, misere bool
	}{
		{"tic-tac-toe", 3, 3, 3, false, false},
		{"Connect Four", 6, 7, 4, true, false},
		{"misère 4x4", 4, 4, 4, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := newRules(t, tt.rows, tt.cols, tt.k, tt.gravity, tt.misere), newRules(t, tt.rows, tt.cols, tt.k, tt.gravity, tt.misere)
			if a != b {
				t.Errorf("New twice: got two Rules of %v, want one, built once", a.Spec())
			}
			if other := newRules(t, tt.rows, tt.cols, tt.k, !tt.gravity, tt.misere); other == a {
				t.Errorf("New gives the rules of %v for %v", a.Spec(), other.Spec())
			}
		})
	}
}
