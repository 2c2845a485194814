package report

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"slices"
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
	"github.com/tateti-lab/tateti-lab/view"
)

func analyse(t *testing.T, rl rules.Rules, board string) view.Position {
	t.Helper()
	return view.NewPosition(analysis(t, rl, board))
}

// analysis gives the analysis of the position of the board text, solved.
func analysis(t *testing.T, rl rules.Rules, board string) perfect.Analysis {
	t.Helper()
	b, err := rl.Spec().Parse(board)
	if err != nil {
		t.Fatal(err)
	}
	a, err := solve.Analyze(context.Background(), rl, b, 2)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// The picture is well-formed XML for positions of several rule sets, over
// or not, with every legal move drawn in its colour.
func TestSVGIsXML(t *testing.T) {
	tests := []struct {
		name  string
		rules rules.Rules
		board string
		moves int // legal moves, each drawn once
	}{
		{"O to move, lost", rules.Classic(game.Default), "XX./O../...", 6},
		{"over", rules.Classic(game.Default), "XXX/OO./...", 0},
		{"misère", rules.New(rules.Spec{Spec: game.Default, Misere: true}), "X../.O./...", 7},
		{"gravity", rules.New(rules.Spec{Spec: game.Spec{Rows: 4, Cols: 4, K: 4}, Gravity: true}), "..../..../.OX./.XO.", 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := analyse(t, tt.rules, tt.board)
			var buf bytes.Buffer
			if err := SVG(&buf, p); err != nil {
				t.Fatal(err)
			}
			dec := xml.NewDecoder(&buf)
			drawn := 0
			for {
				tok, err := dec.Token()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatalf("not well-formed XML: %v", err)
				}
				if el, ok := tok.(xml.StartElement); ok && el.Name.Local == "text" {
					for _, a := range el.Attr {
						if a.Name.Local == "fill" && (a.Value == view.Colours["win"] || a.Value == view.Colours["draw"] || a.Value == view.Colours["loss"]) {
							drawn++
						}
					}
				}
			}
			if drawn != tt.moves {
				t.Fatalf("%d moves drawn in colour, want %d", drawn, tt.moves)
			}
		})
	}
}

// A won game's view names the cells of its line; a draw's, a game in
// progress' and one not answered yet none; a position not answered yet
// still has its legal moves.
func TestWinningLineAndUnanswered(t *testing.T) {
	rl := rules.Classic(game.Default)
	tests := []struct {
		name, moves string
		line        []int
	}{
		{"X's top row", "0,3,1,4,2", []int{0, 1, 2}},
		{"O's diagonal", "1,0,2,4,3,8", []int{0, 4, 8}},
		{"a draw", "0,4,8,2,6,3,5,7,1", nil},
		{"in progress", "4", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := rules.Position(rl, "", tt.moves)
			if err != nil {
				t.Fatal(err)
			}
			a, err := solve.Analyze(context.Background(), rl, b, 1)
			if err != nil {
				t.Fatal(err)
			}
			if got := view.NewPosition(a).WinningLine; !slices.Equal(got, tt.line) {
				t.Errorf("winning line %v, want %v", got, tt.line)
			}
			u := view.Unanswered(rl, b)
			if !slices.Equal(u.Legal, view.NewPosition(a).Legal) || len(u.Moves) != 0 || u.Proved == nil {
				t.Errorf("unanswered: legal %v, %d moves, proved %v; want the legal cells %v, no move, nothing proved", u.Legal, len(u.Moves), u.Proved, view.NewPosition(a).Legal)
			}
		})
	}
}
