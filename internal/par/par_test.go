package par

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
)

// Ranges calls fn once on every chunk: the chunks are contiguous, numbered
// in order, cover [lo, hi) exactly, number Chunks, and run at most workers
// at once.
func TestRanges(t *testing.T) {
	tests := []struct {
		name            string
		lo, hi, workers int
	}{
		{"empty", 5, 5, 2},
		{"one small chunk", 0, 10, 4},
		{"many chunks", 3, 200003, 2},
		{"one worker", 0, 100000, 1},
		{"no workers counts as one", 0, 9000, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := Chunks(tt.lo, tt.hi, tt.workers)
			seen := make([]atomic.Int32, tt.hi-tt.lo)
			starts := make([]int, n)
			var running, most atomic.Int64
			err := Ranges(context.Background(), tt.lo, tt.hi, tt.workers, func(_ context.Context, k, a, b int) error {
				if r := running.Add(1); r > most.Load() {
					most.Store(r)
				}
				defer running.Add(-1)
				if k < 0 || k >= n {
					t.Errorf("chunk number %d, want 0 to %d", k, n-1)
					return nil
				}
				starts[k] = a
				for i := a; i < b; i++ {
					seen[i-tt.lo].Add(1)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			for i := range seen {
				if got := seen[i].Load(); got != 1 {
					t.Fatalf("index %d visited %d times, want 1", tt.lo+i, got)
				}
			}
			if !slices.IsSorted(starts) {
				t.Errorf("chunk starts %v are not in chunk order", starts)
			}
			if m := most.Load(); m > int64(max(tt.workers, 1)) {
				t.Errorf("%d chunks ran at once, want at most %d", m, max(tt.workers, 1))
			}
		})
	}
}

// The first error of a chunk is Ranges' error.
func TestRangesError(t *testing.T) {
	boom := errors.New("boom")
	err := Ranges(context.Background(), 0, 100000, 2, func(_ context.Context, k, _, _ int) error {
		if k == 3 {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want boom", err)
	}
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
			err := InOrder(context.Background(), tt.n, tt.work, func(_ context.Context, k int) (int, error) {
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

// A cancelled context stops InOrder with its error.
func TestInOrderCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := InOrder(ctx, 100, 2, func(ctx context.Context, k int) (int, error) { return k, ctx.Err() },
		func(int, int) error { return nil })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
}
