package tier

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/internal/longtest"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

// A backward task needs of the next ply only the tasks NextTasks names:
// solved with those alone, every other one missing, its codes are those it
// gets from the whole ply. The next ply's codes are random here, so that
// any child read from another task would change a code or find it missing.
// Under gravity the tasks named are few.
func TestNextTasks(t *testing.T) {
	t.Parallel() // its own folders and games: it runs beside the others
	tests := []struct {
		name     string
		game     [5]int // rows, cols, k, and gravity, misère as 0 or 1
		ply      int
		blocks   int  // the blocks a task takes (Job.WithTaskBlocks); 0 for 64
		fewest   int  // at most 1/fewest of the next ply's tasks may be named,
		checkFew bool // when checked
	}{
		{name: "gravity 4x5 k=4 in tasks of a block, ply 15 of 48 tasks", game: [5]int{4, 5, 4, 1, 0}, ply: 15, blocks: 1, fewest: 4, checkFew: true},
		{name: "free 4x4 k=4 in tasks of a block, X to move at ply 8 of 55 tasks", game: [5]int{4, 4, 4, 0, 0}, ply: 8, blocks: 1},
		{name: "free 4x5 k=4, X to move at ply 10", game: [5]int{4, 5, 4, 0, 0}, ply: 10},
		{name: "free 4x5 k=4, O to move at ply 11", game: [5]int{4, 5, 4, 0, 0}, ply: 11},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			free4x5 := tt.game[3] == 0 && tt.game[1] == 5
			if testing.Short() && free4x5 {
				t.Skip("free 4x5's plies of a billion placements, heavy under -race; runs without -short")
			}
			if free4x5 {
				longtest.Skip(t, "free 4x5's plies 10 and 11, in tasks of 64 blocks, beside 4x4's in tasks of one")
			}
			g := tt.game
			j, err := cutJob(rules.New(spec(g[0], g[1], g[2], g[3] == 1, g[4] == 1)), -1, tt.blocks)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(uint64(tt.ply), 3))
			whole := make([]byte, j.Size(tt.ply+1))
			for i := range whole {
				whole[i] = db.Pack(perfect.Value(rng.IntN(3))-1, perfect.Depth(rng.IntN(20)))
			}
			all := j.CodesOf(tt.ply+1, whole)
			tasks := []int{0, j.Tasks(tt.ply) / 2, j.Tasks(tt.ply) - 1}
			if testing.Short() {
				tasks = tasks[1:2]
			}
			for _, k := range tasks {
				lo, hi := j.Range(tt.ply, k)
				have := make([]uint64, words(hi-lo)) // every placement of the task
				for i := range have {
					have[i] = ^uint64(0)
				}
				named := j.NextTasks(tt.ply, lo, hi, have)
				blocks := make([][]byte, len(named))
				for i, n := range named {
					blocks[i] = all.byTask[n]
				}
				some := j.SomeCodes(tt.ply+1, named, blocks)
				got, want := make([]byte, hi-lo), make([]byte, hi-lo)
				j.SolveRange(tt.ply, lo, hi, have, all, want)
				j.SolveRange(tt.ply, lo, hi, have, some, got)
				if !bytes.Equal(got, want) {
					t.Errorf("task %d: solved from the tasks named %v, its codes differ from the whole ply's", k, named)
				}
				if tt.checkFew && len(named)*tt.fewest > len(all.byTask) {
					t.Errorf("task %d: %d of the next ply's %d tasks named, want at most 1/%d", k, len(named), len(all.byTask), tt.fewest)
				}
			}
		})
	}
}
