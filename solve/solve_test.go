package solve

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/longtest"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

func solveAll(t testing.TB, s game.Spec, workers int) *Result {
	t.Helper()
	return solveUnder(t, rules.Classic(s), workers)
}

func solveUnder(t testing.TB, rl rules.Rules, workers int) *Result {
	t.Helper()
	r, err := Game(context.Background(), rl, workers)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// analyze parses a board of g and analyses it.
func analyze(t *testing.T, g rules.Rules, board string) perfect.Analysis {
	t.Helper()
	b, err := g.Spec().Parse(board)
	if err != nil {
		t.Fatal(err)
	}
	a, err := Analyze(context.Background(), g, b, 2)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestEmptyBoard(t *testing.T) {
	tests := []struct {
		name  string
		spec  game.Spec
		value perfect.Value
	}{
		{"3x3 is a draw", game.Spec{Rows: 3, Cols: 3, K: 3}, 0},
		{"4x4 k=4 is a draw", game.Spec{Rows: 4, Cols: 4, K: 4}, 0},
		{"4x4 k=3 is won by X", game.Spec{Rows: 4, Cols: 4, K: 3}, 1},
		{"3x4 k=3 is won by X", game.Spec{Rows: 3, Cols: 4, K: 3}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.spec.Cells() == 16 {
				longtest.Skip(t, "free 4x4 whole, millions of positions")
			}
			s := solveAll(t, tt.spec, 2).Summarize()
			if s.Value != tt.value {
				t.Fatalf("value of the empty %v board = %d, want %d", tt.spec, s.Value, tt.value)
			}
		})
	}
}

func TestOpenings3x3(t *testing.T) {
	s := solveAll(t, game.Default, 2).Summarize()
	if s.Depth != 9 {
		t.Errorf("depth of the empty board = %d, want 9 (a draw runs to the full board)", s.Depth)
	}
	if len(s.Openings) != 9 {
		t.Fatalf("%d openings, want 9", len(s.Openings))
	}
	for _, m := range s.Openings {
		if m.Value != 0 || m.Depth != 8 || !m.Best {
			t.Errorf("opening at cell %d: value %d depth %d best %v; want a draw in 8, best", m.Cell, m.Value, m.Depth, m.Best)
		}
	}
}

// checkPosition analyses board and compares its status, value, depth and
// best moves with the wanted ones.
func checkPosition(t *testing.T, rl rules.Rules, board string, status game.Status, value perfect.Value, depth perfect.Depth, want []int) {
	t.Helper()
	a := analyze(t, rl, board)
	var best []int
	for _, m := range a.Moves {
		if m.Best {
			best = append(best, m.Cell)
		}
	}
	if a.Status != status || a.Value != value || a.Depth != depth || !slices.Equal(best, want) {
		t.Fatalf("Analyze(%s) = %v value %d depth %d best %v; want %v value %d depth %d best %v",
			board, a.Status, a.Value, a.Depth, best, status, value, depth, want)
	}
}

// The counts of moves that win, draw and lose for the side to move, on
// boards checked by hand.
func TestMoveCounts(t *testing.T) {
	r := solveAll(t, game.Default, 2)
	tests := []struct {
		name, board     string
		win, draw, lose uint8
	}{
		{"empty board: every move draws", ".../.../...", 0, 9, 0},
		{"X wins at 2, draws at 5, loses elsewhere", "XX./OO./...", 1, 1, 3},
		{"O loses whatever it plays", "XX./O../...", 0, 0, 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := game.Default.Parse(tt.board)
			if err != nil {
				t.Fatal(err)
			}
			i, ok := r.Enum.Lookup(game.ID(b))
			if !ok {
				t.Fatalf("%s is not in the enumeration", tt.board)
			}
			got := []uint8{r.Win[i], r.Draw[i], r.Lose[i]}
			if want := []uint8{tt.win, tt.draw, tt.lose}; !slices.Equal(got, want) {
				t.Fatalf("win, draw, lose of %s = %v, want %v", tt.board, got, want)
			}
		})
	}
}

func TestPositions(t *testing.T) {
	tests := []struct {
		name, board string
		status      game.Status
		value       perfect.Value
		depth       perfect.Depth
		best        []int
	}{
		{"X wins at once", "XX./OO./...", game.InProgress, 1, 1, []int{2}},
		{"O wins at once", "XX./OO./X..", game.InProgress, -1, 1, []int{5}},
		{"finished draw", "XOX/XOO/OXX", game.Draw, 0, 0, nil},
		{"finished win", "XXX/OO./...", game.XWon, 1, 0, nil},
		{"empty board", ".../.../...", game.InProgress, 0, 9, []int{0, 1, 2, 3, 4, 5, 6, 7, 8}},
		// O to move must block at cell 2; every other move loses at once.
		{"forced block", "XX./.O./...", game.InProgress, 0, 6, []int{2}},
		// O to move has lost: every move but the block at 2 loses at once; after
		// the block X forks from the centre and wins on the fourth ply.
		{"lost for O, slowest loss", "XX./O../...", game.InProgress, 1, 4, []int{2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkPosition(t, rules.Classic(game.Default), tt.board, tt.status, tt.value, tt.depth, tt.best)
		})
	}
}

// UVa 10111 "Find the Winning Move" (the contest-programming report), answered from Analyze alone:
// the first cell in row-major order whose move wins for X, or none.
func TestUVa10111(t *testing.T) {
	g := rules.Classic(game.Spec{Rows: 4, Cols: 4, K: 4})
	tests := []struct {
		board    string
		row, col int // -1 for "#####"
	}{
		{"..../.xo./.ox./....", -1, -1},
		{"o.../.ox./.xxx/xooo", 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.board, func(t *testing.T) {
			a := analyze(t, g, tt.board)
			row, col := -1, -1
			for _, m := range a.Moves {
				if m.Value == 1 {
					row, col = m.Row, m.Col
					break
				}
			}
			if row != tt.row || col != tt.col {
				t.Fatalf("first winning move of %s = (%d,%d), want (%d,%d)", tt.board, row, col, tt.row, tt.col)
			}
		})
	}
}

func variant(rows, cols, k int, gravity, misere bool) rules.Rules {
	return rules.New(rules.Spec{Spec: game.Spec{Rows: rows, Cols: cols, K: k}, Gravity: gravity, Misere: misere})
}

func TestWorkersAgree(t *testing.T) {
	tests := []struct {
		name  string
		rules rules.Rules
	}{
		{"3x4 k=3", variant(3, 4, 3, false, false)},
		{"misère 3x4 k=3", variant(3, 4, 3, false, true)},
		{"gravity 4x4 k=4", variant(4, 4, 4, true, false)},
		{"gravity misère 3x4 k=3", variant(3, 4, 3, true, true)},
		{"gravity 3x6 k=4, past 16 cells", variant(3, 6, 4, true, false)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if testing.Short() && tt.rules.Spec().Cells() > 12 {
				t.Skip("16 cells and more, heavy under -race; runs without -short")
			}
			if tt.rules.Spec().Cells() > 16 {
				longtest.Skip(t, "the solve past 16 cells, with one worker and with five")
			}
			one, many := solveUnder(t, tt.rules, 1), solveUnder(t, tt.rules, 5)
			if !slices.Equal(one.Value, many.Value) || !slices.Equal(one.Depth, many.Depth) || !slices.Equal(one.Best, many.Best) ||
				!slices.Equal(one.Win, many.Win) || !slices.Equal(one.Draw, many.Draw) || !slices.Equal(one.Lose, many.Lose) {
				t.Fatal("1 worker and 5 workers give different solutions")
			}
		})
	}
}

// Public values: Connect Four on 4 columns by 4 rows is a draw (John Tromp's
// tables); misère 3x3 is a draw, and the centre is X's only opening that does
// not lose.
func TestVariantValues(t *testing.T) {
	tests := []struct {
		name     string
		rules    rules.Rules
		value    perfect.Value
		openings map[int]perfect.Value // a cell's opening value for X, where the test names one
		others   perfect.Value         // the value of every other opening
	}{
		{"gravity w4h4 is a draw", variant(4, 4, 4, true, false), 0, nil, 0},
		{"misère 3x3 is a draw, only the centre holds", variant(3, 3, 3, false, true), 0, map[int]perfect.Value{4: 0}, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := solveUnder(t, tt.rules, 2).Summarize()
			if s.Value != tt.value {
				t.Fatalf("value of the empty board = %d, want %d", s.Value, tt.value)
			}
			if tt.openings == nil {
				return
			}
			for _, m := range s.Openings {
				want, ok := tt.openings[m.Cell]
				if !ok {
					want = tt.others
				}
				if m.Value != want || m.Best != (m.Value == s.Value) {
					t.Errorf("opening at cell %d: value %d best %v, want value %d", m.Cell, m.Value, m.Best, want)
				}
			}
		})
	}
}

// Misère and gravity positions checked by hand.
func TestVariantPositions(t *testing.T) {
	misere := variant(3, 3, 3, false, true)
	tests := []struct {
		name, board string
		rules       rules.Rules
		status      game.Status
		value       perfect.Value
		depth       perfect.Depth
		best        []int
	}{
		// X's own row at 2 loses at once; 5 loses in 4 (O 7, X 6, O 8, and X
		// must take 2); the bottom row draws to the full board.
		{"misère: X keeps off its own line", "XX./OO./...", misere, game.InProgress, 0, 5, []int{6, 7, 8}},
		{"misère: a line loses for its maker", "XXX/OO./...", misere, game.XWon, -1, 0, nil},
		// X to move tops its column at cell 0, and only there it wins at once.
		{"gravity: the column win", "..../X.../XO../XOO.", variant(4, 4, 4, true, false), game.InProgress, 1, 1, []int{0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkPosition(t, tt.rules, tt.board, tt.status, tt.value, tt.depth, tt.best)
		})
	}
}

func benchSolve(b *testing.B, s game.Spec, lean bool, workers int) {
	ctx := context.Background()
	g := rules.Classic(s)
	enum := enumerate.Game
	if lean {
		enum = enumerate.Positions
	}
	for b.Loop() {
		e, err := enum(ctx, g, workers)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Enumeration(ctx, e, workers); err != nil {
			b.Fatal(err)
		}
	}
}

// Enumerate and solve together: with paths and classes (what the C solver
// of scripts/retro computes), and lean (what the solve command needs), with 1 and
// 2 workers.
func BenchmarkEnumerateSolve3x3(b *testing.B) { benchSolve(b, game.Default, false, 2) }
func BenchmarkEnumerateSolve4x4(b *testing.B) {
	for _, lean := range []bool{false, true} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("lean=%v/workers=%d", lean, workers), func(b *testing.B) {
				benchSolve(b, game.Spec{Rows: 4, Cols: 4, K: 4}, lean, workers)
			})
		}
	}
}

func BenchmarkEnumerateSolveGravity4x4(b *testing.B) {
	ctx := context.Background()
	rl := variant(4, 4, 4, true, false)
	for b.Loop() {
		if _, err := Game(ctx, rl, 2); err != nil {
			b.Fatal(err)
		}
	}
}

// Solve alone, on an enumeration made once.
func BenchmarkSolve4x4(b *testing.B) {
	ctx := context.Background()
	e, err := enumerate.Game(ctx, rules.Classic(game.Spec{Rows: 4, Cols: 4, K: 4}), 2)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Enumeration(ctx, e, 2); err != nil {
			b.Fatal(err)
		}
	}
}

func TestBestLine(t *testing.T) {
	r := solveAll(t, game.Default, 2)
	b, _ := game.Default.Parse("XX./O../...")
	i, _ := r.Enum.Lookup(game.ID(b))
	line := r.BestLine(i)
	// O blocks at 2; X wins in 4 plies, so the line has 4 moves and ends on
	// X's line.
	if len(line) != 4 || line[0] != 2 {
		t.Fatalf("BestLine(XX./O../...) = %v, want 4 moves starting with 2", line)
	}
	for _, c := range line {
		b = b.Play(c, b.ToMove())
	}
	if st := r.Enum.Rules.Game().Status(b); st != game.XWon {
		t.Fatalf("the line ends in %v, want x_won", st)
	}
}

// A lean result (Lean) analyses every position as the complete one
// (Game) does: its class and paths found when asked, the rest the same.
func TestLeanAnalysis(t *testing.T) {
	tests := []struct {
		name string
		rl   rules.Rules
	}{
		{"3x3", rules.Classic(game.Default)},
		{"gravity misère 3x4 k=3", rules.New(rules.Spec{Spec: game.Spec{Rows: 3, Cols: 4, K: 3}, Gravity: true, Misere: true})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			full := solveUnder(t, tt.rl, 2)
			lean, err := Lean(context.Background(), tt.rl, 2)
			if err != nil {
				t.Fatal(err)
			}
			if lean.Enum.Paths != nil {
				t.Fatal("Lean counted every position's paths")
			}
			for i := range full.Enum.Len() {
				if got, want := lean.Analysis(i), full.Analysis(i); !reflect.DeepEqual(got, want) {
					t.Fatalf("position %d: lean %+v, want %+v", i, got, want)
				}
			}
		})
	}
}
