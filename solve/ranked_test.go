package solve

import (
	"context"
	"reflect"
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
)

// The ranked solver gives the summary the enumeration and its solve give,
// under every rule set, with 1 and 3 workers.
func TestRankedEqualsAll(t *testing.T) {
	tests := []struct {
		name string
		spec rules.Spec
	}{
		{"3x3", rules.Spec{Spec: game.Default}},
		{"3x3 misère", rules.Spec{Spec: game.Default, Misere: true}},
		{"3x4 k=3", rules.Spec{Spec: game.Spec{Rows: 3, Cols: 4, K: 3}}},
		{"gravity 4x4", rules.Spec{Spec: game.Spec{Rows: 4, Cols: 4, K: 4}, Gravity: true}},
		{"2x5 k=3", rules.Spec{Spec: game.Spec{Rows: 2, Cols: 5, K: 3}}},
		{"4x4 k=4", rules.Spec{Spec: game.Spec{Rows: 4, Cols: 4, K: 4}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if testing.Short() && tt.spec.Cells() > 12 && !tt.spec.Gravity {
				t.Skip("free 4x4 takes seconds; run without -short")
			}
			rl := rules.New(tt.spec)
			r, err := Game(context.Background(), rl, 2)
			if err != nil {
				t.Fatal(err)
			}
			want := r.Summarize()
			for _, workers := range []int{1, 3} {
				rk, err := SolveRanked(context.Background(), rl, workers)
				if err != nil {
					t.Fatal(err)
				}
				if got := rk.Summarize(); !reflect.DeepEqual(got, want) {
					t.Fatalf("%d workers: ranked summary\n%+v\nwant\n%+v", workers, got, want)
				}
			}
		})
	}
}

func BenchmarkSolveRanked4x4(b *testing.B) {
	rl := rules.Classic(game.Spec{Rows: 4, Cols: 4, K: 4})
	for b.Loop() {
		if _, err := SolveRanked(context.Background(), rl, 2); err != nil {
			b.Fatal(err)
		}
	}
}
