package export

import (
	"context"
	"strings"
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
)

// The estimate of a whole game's dataset knows each file's rows and comes
// near its bytes: CSV within a tenth, Parquet (a sample compresses less
// than the whole) from 0.9 to 2 times.
func TestEstimate(t *testing.T) {
	for _, rl := range []rules.Rules{
		rules.Classic(game.Spec{Rows: 3, Cols: 4, K: 3}),
		rules.New(rules.Spec{Spec: game.Spec{Rows: 4, Cols: 4, K: 4}, Gravity: true}),
	} {
		t.Run(rl.Spec().String(), func(t *testing.T) {
			if testing.Short() && rl.Spec().Gravity {
				t.Skip("the tables of gravity 4x4: heavy under -race, runs without -short")
			}
			r := solvedUnder(t, rl)
			dir, w := write(t, r, Formats...)
			e, err := EstimateOf(context.Background(), Game(r), Formats, dir, 2)
			if err != nil {
				t.Fatal(err)
			}
			if len(e.Files) != len(w.Files) {
				t.Fatalf("%d files estimated, want %d", len(e.Files), len(w.Files))
			}
			for i, f := range w.Files {
				got := e.Files[i]
				lo, hi := 0.9, 1.1
				if f.Format == "parquet" {
					hi = 2
				}
				ratio := float64(got.Bytes) / float64(f.Bytes)
				if got.Name != f.Name || got.Rows != f.Rows || ratio < lo || ratio > hi {
					t.Errorf("%s: estimated %d rows, %d bytes; written %d rows, %d bytes (ratio %.2f, want %.1f to %.1f)", f.Name, got.Rows, got.Bytes, f.Rows, f.Bytes, ratio, lo, hi)
				}
			}
		})
	}
}

// A dataset larger than the disk's free room is refused, naming the way to
// write less.
func TestEstimateCheck(t *testing.T) {
	tests := []struct {
		name string
		e    Estimate
		want string // "" when it fits
	}{
		{"fits", Estimate{Bytes: 100, Free: 1000}, ""},
		{"the disk cannot tell", Estimate{Bytes: 100, Free: 0}, ""},
		{"too large", Estimate{Bytes: 6e9, Free: 1e9}, "the dataset will take about 6.0 GB and the disk where out goes has 1.0 GB free; free some space, name a folder on another disk, or write fewer files (--format parquet writes the Parquet tables alone)"},
	}
	for _, tt := range tests {
		err := tt.e.Check("out")
		if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}
