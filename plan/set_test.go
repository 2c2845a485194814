package plan

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/tateti-lab/tateti-lab/positions"
	"github.com/tateti-lab/tateti-lab/rules"
)

// A chosen set kept beside its results leaves its journals of answers and
// of games there as it answers, and lets both go once done; a set of the
// whole game keeps none, and its Done does nothing.
func TestSetKeepsBeside(t *testing.T) {
	rl := rules.New(spec(3, 3, 3, false, false))
	p, err := For(Request{Rules: rl, Scope: Many, Named: "memory"})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	answers, games := JournalsBeside(out)
	eps := 0.5
	sample := &positions.Sample{N: 5, Seed: 1, Plies: positions.Plies{Low: 2, High: 4}, Epsilon: &eps}
	s := Set{Choice: &positions.Choice{From: "sample", Sample: sample}, Plan: p}
	s.KeepBeside(out)
	if _, _, err := s.Answer(context.Background(), "test", false); err != nil {
		t.Fatal(err)
	}
	for _, j := range []string{answers, games} {
		if _, err := os.Stat(j); err != nil {
			t.Errorf("after the answers: %v, want the journal kept", err)
		}
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
}
