package tier

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/search"
)

// The disk a build is said to need bounds what its folder holds at any
// time: the reach bits, the parts and tiers, and a book's journal of
// searched answers, watched as the build runs.
func TestEstimateBoundsDisk(t *testing.T) {
	t.Parallel() // its own folders and games: it runs beside the others
	tests := []struct {
		name   string
		game   rules.Spec
		maxPly int // -1 for the whole game
	}{
		{"a book whose last ply is searched", spec(4, 5, 4, true, false), 10},
		{"the whole game", spec(4, 5, 4, true, false), -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if testing.Short() { // the race detector's run, where 4x5 takes most of a minute
				tt.game, tt.maxPly = spec(4, 4, 4, true, false), min(tt.maxPly, 8)
			}
			j, err := JobOf(rules.New(tt.game), tt.maxPly)
			if err != nil {
				t.Fatal(err)
			}
			est, err := EstimateJob(j, 1)
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(t.TempDir(), "db")
			var peak atomic.Int64
			stop := make(chan struct{})
			var wg sync.WaitGroup
			wg.Go(func() { watchSize(dir, &peak, stop) })
			_, err = build(context.Background(), j, dir, 1)
			close(stop)
			wg.Wait()
			if err != nil {
				t.Fatal(err)
			}
			if got := peak.Load(); got == 0 || uint64(got) > est.Disk {
				t.Errorf("the folder held up to %d bytes, the estimate says %d", got, est.Disk)
			}
		})
	}
}

// watchSize keeps in peak the most bytes the files of dir held at once,
// until stop is closed.
func watchSize(dir string, peak *atomic.Int64, stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		default:
		}
		var n int64
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if fi, err := e.Info(); err == nil {
				n += fi.Size()
			}
		}
		if n > peak.Load() {
			peak.Store(n)
		}
		time.Sleep(200 * time.Microsecond)
	}
}

// The collector's soft limit is the memory a build is said to need, less
// the search tables of a book's last ply, which are mapped outside the
// heap the limit counts: a worker's tables each, and none where no ply is
// searched.
func TestPolicyLeavesTablesOut(t *testing.T) {
	tests := []struct {
		name    string
		maxPly  int // -1 for the whole game
		workers int
		tables  bool
	}{
		{"a book, one worker", 10, 1, true},
		{"a book, two workers", 10, 2, true},
		{"the whole game", -1, 2, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j, err := JobOf(rules.New(spec(4, 5, 4, true, false)), tt.maxPly)
			if err != nil {
				t.Fatal(err)
			}
			est, err := EstimateJob(j, tt.workers)
			if err != nil {
				t.Fatal(err)
			}
			want := uint64(0)
			if tt.tables {
				want = uint64(tt.workers) * search.TableBytesFor(j.rl.Spec(), search.TableBitsFor(SearchMemory), j.cells-tt.maxPly)
			}
			if est.Tables != want || want > est.Memory {
				t.Errorf("tables %d bytes of %d, want %d", est.Tables, est.Memory, want)
			}
			if got := est.Policy().Limit; got != est.Memory-want {
				t.Errorf("soft limit %d, want %d: the memory %d less the tables %d", got, est.Memory-want, est.Memory, want)
			}
		})
	}
}
