package solve

import (
	"context"
	"slices"
	"testing"

	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
)

func solveAll(t testing.TB, s game.Spec, workers int) *Result {
	t.Helper()
	ctx := context.Background()
	e, err := enumerate.All(ctx, rules.Classic(s), workers)
	if err != nil {
		t.Fatal(err)
	}
	r, err := All(ctx, e, workers)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// analyze parses a board of g and analyses it.
func analyze(t *testing.T, g rules.Rules, board string) Analysis {
	t.Helper()
	b, err := game.Parse(g.Spec().Spec, board)
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
		value int8
	}{
		{"3x3 is a draw", game.Spec{Rows: 3, Cols: 3, K: 3}, 0},
		{"4x4 k=4 is a draw", game.Spec{Rows: 4, Cols: 4, K: 4}, 0},
		{"4x4 k=3 is won by X", game.Spec{Rows: 4, Cols: 4, K: 3}, 1},
		{"3x4 k=3 is won by X", game.Spec{Rows: 3, Cols: 4, K: 3}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
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

func TestPositions(t *testing.T) {
	tests := []struct {
		name, board string
		status      game.Status
		value       int8
		depth       int8
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
			a := analyze(t, rules.Classic(game.Default), tt.board)
			var best []int
			for _, m := range a.Moves {
				if m.Best {
					best = append(best, m.Cell)
				}
			}
			if a.Status != tt.status || a.Value != tt.value || a.Depth != tt.depth || !slices.Equal(best, tt.best) {
				t.Fatalf("Analyze(%s) = %v value %d depth %d best %v; want %v value %d depth %d best %v",
					tt.board, a.Status, a.Value, a.Depth, best, tt.status, tt.value, tt.depth, tt.best)
			}
		})
	}
}

// UVa 10111 "Find the Winning Move" (seed 004), answered from Analyze alone:
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

func TestWorkersAgree(t *testing.T) {
	s := game.Spec{Rows: 3, Cols: 4, K: 3}
	one, many := solveAll(t, s, 1), solveAll(t, s, 5)
	if !slices.Equal(one.Value, many.Value) || !slices.Equal(one.Depth, many.Depth) || !slices.Equal(one.Best, many.Best) ||
		!slices.Equal(one.Win, many.Win) || !slices.Equal(one.Draw, many.Draw) || !slices.Equal(one.Lose, many.Lose) {
		t.Fatal("1 worker and 5 workers give different solutions")
	}
}

func TestUnreachable(t *testing.T) {
	g := rules.Classic(game.Default)
	b, _ := game.Parse(g.Spec().Spec, "XXX/OOO/...")
	if _, err := Analyze(context.Background(), g, b, 1); err == nil {
		t.Fatal("Analyze of a board where both have a line: no error, want one")
	}
}

func benchSolve(b *testing.B, s game.Spec) {
	ctx := context.Background()
	g := rules.Classic(s)
	for b.Loop() {
		e, err := enumerate.All(ctx, g, 2)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := All(ctx, e, 2); err != nil {
			b.Fatal(err)
		}
	}
}

// Enumerate and solve together.
func BenchmarkEnumerateSolve3x3(b *testing.B) { benchSolve(b, game.Default) }
func BenchmarkEnumerateSolve4x4(b *testing.B) { benchSolve(b, game.Spec{Rows: 4, Cols: 4, K: 4}) }

// Solve alone, on an enumeration made once.
func BenchmarkSolve4x4(b *testing.B) {
	ctx := context.Background()
	e, err := enumerate.All(ctx, rules.Classic(game.Spec{Rows: 4, Cols: 4, K: 4}), 2)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := All(ctx, e, 2); err != nil {
			b.Fatal(err)
		}
	}
}
