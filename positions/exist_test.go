package positions

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
)

func TestExist(t *testing.T) {
	ttt := rules.Classic(game.Default)
	free8 := rules.Classic(game.Spec{Rows: 8, Cols: 8, K: 5})
	tests := []struct {
		name  string
		rl    rules.Rules
		s     Sample
		want  uint64
		exact bool
	}{
		// 3x3: 252 positions at ply 3, none over; 756 at ply 4; 1,260 at ply 5, 120 of
		// them won.
		{"3x3 at ply 3", ttt, Sample{Plies: Plies{3, 3}}, 252, true},
		{"3x3 at plies 3-5", ttt, Sample{Plies: Plies{3, 5}}, 252 + 756 + 1260 - 120, true},
		{"3x3, classes of quiet positions at ply 1", ttt, Sample{Plies: Plies{1, 1}, Quiet: true}, 3, true},
		// UCI's Connect-4 data set: the 67,557 quiet positions of ply 8,
		// one of each pair of mirror images.
		{"connect four, quiet at ply 8", connectFour, Sample{Plies: Plies{8, 8}, Quiet: true}, 67557, true},
		// Past what is counted, the placements: C(64,10)·C(10,5); at ply
		// 20, C(64,20)·C(20,10) is past 2^64, and saturates.
		{"free 8x8 at ply 10", free8, Sample{Plies: Plies{10, 10}}, 38171250133632, false},
		{"free 8x8 at ply 20", free8, Sample{Plies: Plies{20, 20}}, math.MaxUint64, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, exact, err := tt.s.Exist(context.Background(), tt.rl, 2, 0)
			if err != nil || exact != tt.exact || got != tt.want {
				t.Fatalf("Exist = %d, exact %v, %v; want %d, exact %v", got, exact, err, tt.want, tt.exact)
			}
		})
	}
}

func TestCheck(t *testing.T) {
	ttt := rules.Classic(game.Default)
	tests := []struct {
		name   string
		rl     rules.Rules
		s      Sample
		memory uint64
		want   string // "": accepted
	}{
		{"as many as exist", ttt, Sample{N: 252, Plies: Plies{3, 3}}, 0, ""},
		{"one more than exist", ttt, Sample{N: 253, Plies: Plies{3, 3}}, 0, "has 252 positions in progress at plies 3, and 253 were asked for; ask for at most 252"},
		{"quiet classes", connectFour, Sample{N: 67558, Plies: Plies{8, 8}, Quiet: true}, 0, "has 67,557 classes of quiet positions at plies 8"},
		{"past 2^62", connectFour, Sample{N: 1 << 62, Plies: Plies{8, 8}}, 0, "has 182,383 positions in progress at plies 8"},
		{"past the bound", rules.Classic(game.Spec{Rows: 8, Cols: 8, K: 5}), Sample{N: 1 << 62, Plies: Plies{10, 10}}, 0, "has at most 38,171,250,133,632 positions in progress at plies 10"},
		{"past memory", connectFour, Sample{N: 1 << 40, Plies: Plies{30, 34}}, 1 << 30, "drawing 1099511627776 positions takes about"},
		// The first ply holds the sample: the later ones, whose count would
		// not fit in the memory given, are not counted.
		{"the first ply enough", connectFour, Sample{N: 20, Plies: Plies{8, 10}}, 48 << 20, ""},
		{"more than the first ply", ttt, Sample{N: 253, Plies: Plies{3, 4}}, 0, ""},
		// Plies past what is counted: the bound, at once, and no count of
		// the first ply, which would not fit in the memory given.
		{"past the count, from a ply counted", connectFour, Sample{N: 1 << 62, Plies: Plies{10, 14}}, 48 << 20, "has at most"},
		{"more than the plies", ttt, Sample{N: 5000, Plies: Plies{3, 4}}, 0, "has 1,008 positions in progress at plies 3-4, and 5000 were asked for"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.s.Check(context.Background(), tt.rl, 2, tt.memory)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Check = %v, want it accepted", err)
				}
				return
			}
			if !errors.Is(err, ErrTooMany) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Check = %v, want ErrTooMany saying %q", err, tt.want)
			}
		})
	}
}
