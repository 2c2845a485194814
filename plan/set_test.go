package plan

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/tateti-lab/tateti-lab/book"
	"github.com/tateti-lab/tateti-lab/positions"
	"github.com/tateti-lab/tateti-lab/rules"
)

// A chosen set kept beside its results leaves its journals of answers and
// of games there as it answers, and lets both go once done; a set of the
// whole game keeps none, and its Done does nothing. A sample whose best
// moves come at once (the game solved in memory, or Connect Four's opening
// book to the sample's last ply) keeps no journal of games, whose play
// takes microseconds, as random play's keeps none.
func TestSetKeepsBeside(t *testing.T) {
	ttt := rules.New(spec(3, 3, 3, false, false))
	c4 := rules.New(spec(6, 7, 4, true, false))
	bk, ok, err := book.For(c4.Spec())
	if !ok || err != nil {
		t.Fatalf("no book for connect-four: %v", err)
	}
	last := bk.Last()
	tests := []struct {
		name   string
		rl     rules.Rules
		engine string
		plies  positions.Plies
		n      int
		games  bool // a journal of games is kept
	}{
		{"search", ttt, "search", positions.Plies{Low: 2, High: 4}, 5, true},
		{"the game in memory", ttt, "memory", positions.Plies{Low: 2, High: 4}, 5, false},
		{"the book to the last ply", c4, "auto", positions.Plies{Low: 8, High: last}, 5, false},
		{"the book, then search", c4, "auto", positions.Plies{Low: last + 1, High: last + 1}, 1, true}, // one position: each search takes tens of milliseconds, ten times that under the race detector
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := For(Request{Rules: tt.rl, Scope: Many, Named: tt.engine})
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), "out")
			answers, games := JournalsBeside(out)
			eps := 0.5
			sample := &positions.Sample{N: tt.n, Seed: 1, Plies: tt.plies, Epsilon: &eps}
			s := Set{Choice: &positions.Choice{From: "sample", Sample: sample}, Plan: p}
			s.KeepBeside(out)
			if _, _, err := s.Answer(context.Background(), "test", false); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(answers); err != nil {
				t.Errorf("after the answers: %v, want the journal of answers kept", err)
			}
			if _, err := os.Stat(games); (err == nil) != tt.games {
				t.Errorf("after the answers the journal of games: %v, want it kept: %v", err, tt.games)
			}
			if err := s.Done(); err != nil {
				t.Fatal(err)
			}
			for _, j := range []string{answers, games} {
				if _, err := os.Stat(j); !os.IsNotExist(err) {
					t.Errorf("after Done: %s is there (%v), want it gone", j, err)
				}
			}
			if err := (Set{Plan: p}).Done(); err != nil {
				t.Errorf("the whole game's Done: %v, want nothing done", err)
			}
		})
	}
}
