package enumerate

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/tateti-lab/tateti-lab/rules"
)

// A shallow count to the last ply is the count of the whole game: two
// walks, one by state ids and one by sorted boards, agree on every figure,
// and the worker count changes nothing.
func TestShallowAgreesWithCount(t *testing.T) {
	tests := []struct {
		name            string
		rows, cols, k   int
		gravity, misere bool
	}{
		{"3x3", 3, 3, 3, false, false},
		{"3x4 misère", 3, 4, 3, false, true},
		{"gravity 4x4", 4, 4, 4, true, false},
		{"gravity 4x3 misère", 4, 3, 3, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rl := variant(tt.rows, tt.cols, tt.k, tt.gravity, tt.misere)
			want, err := CountGame(context.Background(), rl, 2)
			if err != nil {
				t.Fatal(err)
			}
			for _, workers := range []int{1, 2} {
				got, err := Shallow(context.Background(), rl, rl.Spec().Cells(), workers, 1<<30)
				if err != nil {
					t.Fatal(err)
				}
				if *got.MaxPly != rl.Spec().Cells() {
					t.Fatalf("max ply %d, want %d", *got.MaxPly, rl.Spec().Cells())
				}
				got.MaxPly = nil
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("workers %d: shallow\n%+v\nwant the whole count\n%+v", workers, got, want)
				}
			}
		})
	}
}

// Connect Four's first plies: OEIS A212693 counts the positions of 7x6 by
// ply, and UCI's Connect-4 data set holds the 67,557 quiet positions of
// ply 8 up to the mirror.
func TestConnectFourByPly(t *testing.T) {
	rl := variant(6, 7, 4, true, false)
	c, err := Shallow(context.Background(), rl, 8, 2, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	want := []int64{1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275} // A212693
	for p, w := range want {
		if got := c.ByPly[p].Positions; got != w {
			t.Errorf("ply %d: %d positions, want %d", p, got, w)
		}
	}
	if got, want := c.ByPly[8].QuietClasses, int64(67557); got != want {
		t.Errorf("quiet classes of ply 8: %d, want UCI's %d", got, want)
	}
}

// The estimate bounds what Shallow makes, and a layer that may not fit the
// memory allowed is refused before any work, naming the first such ply.
func TestEstimateShallow(t *testing.T) {
	tests := []struct {
		name      string
		rl        rules.Rules
		maxPly    int
		positions int64 // what Shallow counts
		bound     uint64
	}{
		{"Connect Four to ply 8", variant(6, 7, 4, true, false), 8, 261234, 289164}, // 291,271 placements; fewer with no column of four for the side that did not move last
		{"8x8 k=5 to ply 3, no line possible: exact", variant(8, 8, 5, false, false), 3, 1 + 64 + 64*63 + 64*63*62/2, 1 + 64 + 64*63 + 64*63*62/2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := EstimateShallow(tt.rl.Spec(), tt.maxPly)
			c, err := Shallow(context.Background(), tt.rl, tt.maxPly, 2, e.Bytes)
			if err != nil {
				t.Fatalf("Shallow within the estimate's memory: %v", err)
			}
			if got := c.Positions; got != tt.positions || e.Positions != tt.bound || uint64(got) > e.Positions {
				t.Errorf("%d positions bounded by %d, want %d bounded by %d", got, e.Positions, tt.positions, tt.bound)
			}
			_, err = Shallow(context.Background(), tt.rl, tt.maxPly, 2, e.Bytes-1)
			var lm *LayerMemoryError
			if !errors.As(err, &lm) || !errors.Is(err, ErrLayerMemory) || lm.Ply != e.Ply {
				t.Errorf("with a byte less: %v, want a refusal of ply %d", err, e.Ply)
			}
		})
	}
}
