package report

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
)

func analyse(t *testing.T, rl rules.Rules, board string) Position {
	t.Helper()
	b, err := rl.Spec().Parse(board)
	if err != nil {
		t.Fatal(err)
	}
	a, err := solve.Analyze(context.Background(), rl, b, 2)
	if err != nil {
		t.Fatal(err)
	}
	return NewPosition(a)
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
						if a.Name.Local == "fill" && (a.Value == Colours["win"] || a.Value == Colours["draw"] || a.Value == Colours["loss"]) {
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

func TestMoveResults(t *testing.T) {
	tests := []struct {
		name, board, want string
	}{
		// O to move: blocking at 2 still loses, slower; the rest lose at once.
		{"O to move", "XX./O../...", "loss loss loss loss loss loss"},
		// X to move: 2 wins; 5 blocks O's threat and draws; the rest lose.
		{"X to move", "XX./OO./...", "win draw loss loss loss"},
		{"empty board", ".../.../...", "draw draw draw draw draw draw draw draw draw"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := analyse(t, rules.Classic(game.Default), tt.board)
			var got []string
			for _, m := range p.Moves {
				got = append(got, m.Result)
			}
			if strings.Join(got, " ") != tt.want {
				t.Fatalf("results %v, want %s", got, tt.want)
			}
		})
	}
}

// The colours of the results meet WCAG AA's contrast of 4.5:1 for text on
// the backgrounds they are drawn on: the explorer's page and the SVG.
func TestColoursContrast(t *testing.T) {
	for result, c := range Colours {
		for _, bg := range []string{"#fafafa", "#ffffff"} {
			if r := contrast(c, bg); r < 4.5 {
				t.Errorf("%s %s on %s: contrast %.2f:1, want 4.5:1 or more", result, c, bg, r)
			}
		}
	}
}

// contrast gives WCAG 2's contrast ratio of two colours #rrggbb.
func contrast(a, b string) float64 {
	la, lb := luminance(a), luminance(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// luminance gives WCAG 2's relative luminance of #rrggbb.
func luminance(hex string) float64 {
	var rgb [3]float64
	for i := range rgb {
		v, _ := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		c := float64(v) / 255
		if c <= 0.03928 {
			rgb[i] = c / 12.92
		} else {
			rgb[i] = math.Pow((c+0.055)/1.055, 2.4)
		}
	}
	return 0.2126*rgb[0] + 0.7152*rgb[1] + 0.0722*rgb[2]
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
			if got := NewPosition(a).WinningLine; !slices.Equal(got, tt.line) {
				t.Errorf("winning line %v, want %v", got, tt.line)
			}
			u := Unanswered(rl, b)
			if !slices.Equal(u.Legal, NewPosition(a).Legal) || len(u.Moves) != 0 || u.Proved == nil {
				t.Errorf("unanswered: legal %v, %d moves, proved %v; want the legal cells %v, no move, nothing proved", u.Legal, len(u.Moves), u.Proved, NewPosition(a).Legal)
			}
		})
	}
}
