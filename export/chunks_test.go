package export

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/longtest"
	"github.com/tateti-lab/tateti-lab/rules"
)

// The files are the same bytes whatever the number of workers, under free
// and gravity rules, with row groups small enough to make many chunks.
func TestWorkersAgree(t *testing.T) {
	tests := []struct {
		name string
		rl   rules.Rules
	}{
		{"3x3", rules.Classic(game.Default)},
		{"3x4 k=3", rules.Classic(game.Spec{Rows: 3, Cols: 4, K: 3})},
		{"gravity 4x4", rules.New(rules.Spec{Spec: game.Spec{Rows: 4, Cols: 4, K: 4}, Gravity: true})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if testing.Short() && tt.rl.Spec().Cells() > 9 {
				t.Skip("thrice past 9 cells, heavy under -race; runs without -short")
			}
			if tt.rl.Spec().Cells() > 12 {
				longtest.Skip(t, "gravity 4x4 exported thrice")
			}
			r := solvedUnder(t, tt.rl)
			var want map[string]string
			for _, workers := range []int{1, 2, 5} {
				dir := filepath.Join(t.TempDir(), "out")
				m, err := Write(context.Background(), Game(r), Options{Target: target(t, dir, Formats), Meta: meta, Workers: workers, rowGroup: min(3000, int64(r.Enum.Len())/8)})
				if err != nil {
					t.Fatal(err)
				}
				got := map[string]string{}
				for _, f := range m.Files {
					got[f.Name] = f.SHA256
				}
				if want == nil {
					want = got
				} else if !equalMaps(got, want) {
					t.Fatalf("%d workers wrote %v, 1 worker %v", workers, got, want)
				}
				if b, _ := os.ReadFile(filepath.Join(dir, "moves.csv")); len(b) == 0 {
					t.Fatal("moves.csv is empty")
				}
			}
		})
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
