package tier

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/rules"
)

// The forward pass alone counts each ply's positions as the enumeration
// does, stopped at a ply or not; run again it reads its plies back, and a Solve of the folder
// resumes from them to the same counts, which Reach then reads from the
// manifest.
func TestReach(t *testing.T) {
	tests := []struct {
		name string
		spec rules.Spec
	}{
		{"3x3", spec(3, 3, 3, false, false)},
		{"free 3x4 k=3", spec(3, 4, 3, false, false)},
		{"gravity 4x4", spec(4, 4, 4, true, false)},
		{"gravity misère 3x4 k=3", spec(3, 4, 3, true, true)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rl := rules.New(tt.spec)
			c, err := enumerate.CountGame(context.Background(), rl, 2)
			if err != nil {
				t.Fatal(err)
			}
			want := Reached{Game: tt.spec, Positions: c.Positions}
			for _, p := range c.ByPly {
				want.ByPly = append(want.ByPly, p.Positions)
			}
			for len(want.ByPly) <= tt.spec.Cells() { // plies past the last game's end
				want.ByPly = append(want.ByPly, 0)
			}
			dir := filepath.Join(t.TempDir(), "db")
			first, err := ReachTo(context.Background(), rl, dir, 2, 3)
			if want := reached(tt.spec, want.ByPly, 3); err != nil || !equalReached(first, want) || *first.MaxPly != 3 {
				t.Fatalf("plies 0 to 3: %+v, %v; want %+v", first, err, want)
			}
			for _, step := range []string{"marked", "read back"} {
				got, err := Reach(context.Background(), rl, dir, 2)
				if err != nil || !equalReached(got, want) {
					t.Fatalf("%s: %+v, %v; want %+v", step, got, err, want)
				}
			}
			m, err := Solve(context.Background(), rl, dir, 2)
			if err != nil || m.Positions != want.Positions {
				t.Fatalf("solve after the forward pass: %d positions, %v; want %d", m.Positions, err, want.Positions)
			}
			if got, err := Reach(context.Background(), rl, dir, 2); err != nil || !equalReached(got, want) {
				t.Fatalf("from the manifest: %+v, %v; want %+v", got, err, want)
			}
			if got, err := ReachTo(context.Background(), rl, dir, 2, 3); err != nil || !equalReached(got, first) {
				t.Fatalf("plies 0 to 3 from the manifest: %+v, %v; want %+v", got, err, first)
			}
		})
	}
}

func equalReached(a, b Reached) bool {
	return a.Game == b.Game && a.Positions == b.Positions && slices.Equal(a.ByPly, b.ByPly)
}
