package web

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
	"github.com/tateti-lab/tateti-lab/view"
)

// Every move of positions drawn by random play on 3x3 and 4x4 Connect
// Four: /api/why's line starts with the move (a best move's, for a slower
// win), every step of it is legal and perfect, and it ends the game with
// the outcome the move was worth; its threats, when it names some, are
// where perfect.Forced finds them.
func TestWhyLines(t *testing.T) {
	seen := map[string]int{}
	n := 20
	if testing.Short() {
		n = 8 // heavy under -race, and every kind of line still shown
	}
	for _, rl := range []rules.Rules{rules.Classic(game.Default), rules.New(rules.Spec{Spec: game.Spec{Rows: 4, Cols: 4, K: 3}, Gravity: true})} {
		srv := server(t, rl)
		rng := rand.New(rand.NewPCG(1, 2))
		for range n {
			b := randomPosition(rl, rng)
			a, err := solve.Analyze(context.Background(), rl, b, 1)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range a.Moves {
				move := strconv.Itoa(m.Cell)
				if rl.Spec().Gravity {
					move = strconv.Itoa(rl.Spec().MoveNumber(m.Cell))
				}
				code, body := get(t, srv, "/api/why?board="+url.QueryEscape(rl.Spec().Format(b))+"&move="+move)
				if code != http.StatusOK {
					t.Fatalf("status %d: %s", code, body)
				}
				var w view.Why
				if err := json.Unmarshal([]byte(body), &w); err != nil {
					t.Fatal(err)
				}
				seen[w.Shows]++
				checkWhy(t, rl, b, a, m, w)
			}
		}
	}
	for _, shows := range []string{"best", "refutation", "faster"} {
		if seen[shows] == 0 {
			t.Errorf("no line shows %q among %v; want each kind tried", shows, seen)
		}
	}
}

// checkWhy checks w, the line about move m of b (analysed as a).
func checkWhy(t *testing.T, rl rules.Rules, b game.Board, a perfect.Analysis, m perfect.Move, w view.Why) {
	t.Helper()
	first, worth := m, m.Value
	mover := b.ToMove()
	if !m.Best && m.Value.For(mover) == perfect.XWins {
		first, worth = a.Moves[0], a.Value // the first best move, for its faster win
		for _, c := range a.Moves {
			if c.Best {
				first = c
				break
			}
		}
	}
	if len(w.Line) == 0 || w.Line[0] != first.Cell || w.LineEnd != 0 {
		t.Fatalf("%s, move %d: line %v (stops at %d), want it to start with %d and go to the end", rl.Spec().Format(b), m.Cell, w.Line, w.LineEnd, first.Cell)
	}
	p := b
	for i, c := range w.Line {
		if rl.Moves(p)&(1<<c) == 0 {
			t.Fatalf("%s: step %d of %v is not legal", rl.Spec().Format(b), i+1, w.Line)
		}
		p = p.Play(c, p.ToMove())
	}
	over, winner := rl.Outcome(p)
	if !over || perfect.Of(winner) != worth || w.Outcome != worth.String() || w.End != p.Ply() {
		t.Fatalf("%s, move %d: the line %v ends over %t, won by %v, outcome %q at ply %d; want the game over, worth %v, at ply %d",
			rl.Spec().Format(b), m.Cell, w.Line, over, winner, w.Outcome, w.End, worth, p.Ply())
	}
	if len(w.Line) != int(first.Depth)+1 {
		t.Errorf("%s, move %d: line of %d moves, want the move's depth %d and one", rl.Spec().Format(b), m.Cell, len(w.Line), first.Depth)
	}
	at, threats := perfect.Forced(rl, b, w.Line)
	if w.Forced != at || len(w.Threats) != popcount(threats) {
		t.Errorf("%s, move %d: forced at %d with threats %v, want %d and %b", rl.Spec().Format(b), m.Cell, w.Forced, w.Threats, at, threats)
	}
}

func popcount(m game.Mask) int {
	n := 0
	for ; m != 0; m &= m - 1 {
		n++
	}
	return n
}

// randomPosition plays random moves from the empty board, a few of them,
// and gives a position still in progress.
func randomPosition(rl rules.Rules, rng *rand.Rand) game.Board {
	for {
		b := game.Board{}
		for range rng.IntN(7) {
			var cells []int
			for m := rl.Moves(b); m != 0; m &= m - 1 {
				cells = append(cells, popcount(m&-m-1))
			}
			b = b.Play(cells[rng.IntN(len(cells))], b.ToMove())
		}
		if over, _ := rl.Outcome(b); !over {
			return b
		}
	}
}
