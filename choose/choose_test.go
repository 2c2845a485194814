package choose

import (
	"strings"
	"testing"
	"time"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
)

// given gives the Given of the flags named.
func given(names ...string) Given {
	return func(name string) bool {
		for _, n := range names {
			if n == name {
				return true
			}
		}
		return false
	}
}

func TestChooser(t *testing.T) {
	beam := []string{"positions", "sample"}
	tests := []struct {
		name    string
		given   Given
		offered []string
		whole   bool
		want    string
		wantErr string
	}{
		{"none", given(), Choosers, false, "", ""},
		{"a sample", given("sample", "plies", "seed", "epsilon", "quiet-positions"), Choosers, false, "sample", ""},
		{"every position to a ply, quiet", given("max-ply", "quiet-positions"), Choosers, false, "max-ply", ""},
		{"two", given("positions", "sample"), Choosers, false, "", "--positions and --sample each choose the positions; give one of them"},
		{"quiet of a file", given("positions", "quiet-positions"), Choosers, false, "", "--quiet-positions goes with --sample N or --max-ply N, which choose"},
		{"quiet where a front has no --max-ply", given("quiet-positions"), beam, false, "", "--quiet-positions goes with --sample N, which chooses"},
		{"a front without --max-ply", given("max-ply"), beam, false, "", ""},
		{"one per class of a sample", given("sample", "plies", "one-per-class"), Choosers, false, "sample", ""},
		{"one per class of a file", given("positions", "one-per-class"), beam, false, "positions", ""},
		{"one per class alone", given("one-per-class"), Choosers, false, "", "--one-per-class goes with --positions FILE, --sample N or --max-ply N, which choose"},
		{"one per class alone, Beam", given("one-per-class"), beam, false, "", "--one-per-class goes with --positions FILE or --sample N, which choose"},
		{"epsilon alone", given("epsilon"), Choosers, false, "", "--epsilon goes with --sample N"},
		{"plies alone", given("plies"), Choosers, false, "", "--plies goes with --sample N"},
		{"seed alone", given("seed"), Choosers, false, "", "--seed goes with --sample N"},
		{"seed of a whole game", given("seed"), Choosers, true, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Chooser(tt.given, tt.offered, true, tt.whole)
			if got != tt.want || (err == nil) != (tt.wantErr == "") || err != nil && !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("got %q, %v; want %q and an error with %q", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestSampleOf(t *testing.T) {
	c4 := rules.New(rules.Spec{Spec: game.Spec{Rows: 6, Cols: 7, K: 4}, Gravity: true})
	tests := []struct {
		name    string
		f       Flags
		plies   bool
		noisy   bool
		wantErr string
	}{
		{"random play", Flags{Sample: 10, Plies: "8-30", Seed: 2}, true, false, ""},
		{"noisy perfect play", Flags{Sample: 10, Plies: "8", Epsilon: 0.25}, true, true, ""},
		{"no count", Flags{Sample: 0, Plies: "8"}, true, false, "--sample 0 is not a count of positions"},
		{"no plies", Flags{Sample: 10}, false, false, "--sample goes with --plies"},
		{"plies off the board", Flags{Sample: 10, Plies: "8-50"}, true, false, "--plies: "},
		{"epsilon past 1", Flags{Sample: 10, Plies: "8", Epsilon: 2}, true, true, "--epsilon "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := SampleOf(tt.f, c4, tt.plies, tt.noisy)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got %v; want an error with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || s.N != tt.f.Sample || s.Seed != tt.f.Seed || (s.Epsilon != nil) != tt.noisy {
				t.Fatalf("got %+v, %v; want N %d, seed %d, epsilon recorded %t", s, err, tt.f.Sample, tt.f.Seed, tt.noisy)
			}
		})
	}
}

func TestWhoAndLimits(t *testing.T) {
	tests := []struct {
		name    string
		err     error
		wantErr string
	}{
		{"an engine alone", Who("search", ""), ""},
		{"a database alone", Who("auto", "db"), ""},
		{"both", Who("memory", "db"), "--engine memory and --db each choose who answers"},
		{"a time limit", TimeLimit(time.Second), ""},
		{"a negative time limit", TimeLimit(-time.Second), "--time-limit -1s is negative"},
		{"value-only with a set", WithSet(given("value-only"), true, Choosers, "value-only"), ""},
		{"value-only without", WithSet(given("value-only"), false, Choosers, "time-limit", "value-only"), "--value-only goes with a chosen set: give --positions FILE, --sample N or --max-ply N"},
		{"where a front has two choosers", WithSet(given("engine"), false, []string{"positions", "sample"}, "engine"), "--engine goes with a chosen set: give --positions FILE or --sample N"},
		{"a ply", MaxPly(9, 9), ""},
		{"past the board", MaxPly(10, 9), "--max-ply 10 is not a ply of a 9-cell board"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if (tt.err == nil) != (tt.wantErr == "") || tt.err != nil && !strings.Contains(tt.err.Error(), tt.wantErr) {
				t.Errorf("got %v; want an error with %q", tt.err, tt.wantErr)
			}
		})
	}
}
