package export

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
)

// The files are the same bytes whatever the number of workers, under free
// and gravity rules, with row groups small enough to make many chunks.
func TestWorkersAgree(t *testing.T) {
	tests := []struct {
		name string
		rl   rules.Rules
	}{
		{"3x4 k=3", rules.Classic(game.Spec{Rows: 3, Cols: 4, K: 3})},
		{"gravity 4x4", rules.New(rules.Spec{Spec: game.Spec{Rows: 4, Cols: 4, K: 4}, Gravity: true})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := solvedUnder(t, tt.rl)
			var want map[string]string
			for _, workers := range []int{1, 2, 5} {
				dir := filepath.Join(t.TempDir(), "out")
				m, err := Write(context.Background(), r, Options{Dir: dir, Formats: Formats, Meta: meta, Workers: workers, rowGroup: 3000})
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

func TestInOrder(t *testing.T) {
	tests := []struct {
		name      string
		n, work   int
		failAt    int   // produce fails at this index; -1 never
		wantOrder []int // with an error, what is consumed is a start of it
		wantErr   bool
	}{
		{"one worker", 5, 1, -1, []int{0, 1, 2, 3, 4}, false},
		{"more workers than chunks", 3, 8, -1, []int{0, 1, 2}, false},
		{"many chunks", 50, 3, -1, seq(50), false},
		{"none", 0, 2, -1, nil, false},
		{"an error stops the rest", 50, 3, 7, seq(7), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []int
			var running, most atomic.Int64
			err := inOrder(context.Background(), tt.n, tt.work, func(_ context.Context, k int) (int, error) {
				if r := running.Add(1); r > most.Load() {
					most.Store(r)
				}
				defer running.Add(-1)
				if k == tt.failAt {
					return 0, errors.New("boom")
				}
				return k * 10, nil
			}, func(k, v int) error {
				if v != k*10 {
					t.Errorf("chunk %d got value %d, want %d", k, v, k*10)
				}
				got = append(got, k)
				return nil
			})
			if (err != nil) != tt.wantErr {
				t.Fatalf("error %v, want error %v", err, tt.wantErr)
			}
			if tt.wantErr && len(got) <= len(tt.wantOrder) {
				tt.wantOrder = tt.wantOrder[:len(got)]
			}
			if !slices.Equal(got, tt.wantOrder) {
				t.Fatalf("consumed %v, want %v", got, tt.wantOrder)
			}
			if m := most.Load(); m > int64(tt.work) {
				t.Fatalf("%d produce calls ran at once, want at most %d", m, tt.work)
			}
		})
	}
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// A cancelled context stops inOrder with its error.
func TestInOrderCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := inOrder(ctx, 100, 2, func(ctx context.Context, k int) (int, error) { return k, ctx.Err() },
		func(int, int) error { return nil })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
}
