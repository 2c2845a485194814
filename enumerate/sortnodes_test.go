package enumerate

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
)

// sortNodes sorts as slices.SortFunc does, on the shapes a layer's
// children take: many repeats, runs already sorted, one board throughout.
func TestSortNodes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	random := func(n, distinct int) []node {
		a := make([]node, n)
		for i := range a {
			k := uint64(r.IntN(distinct))
			a[i] = node{b: game.Board{X: game.Mask(k >> 3), O: game.Mask(k & 7)}, paths: int64(i)}
		}
		return a
	}
	tests := []struct {
		name  string
		nodes []node
	}{
		{"empty", nil},
		{"few", random(3, 10)},
		{"distinct", random(5*sortRun, 1<<40)},
		{"many repeats", random(5*sortRun, 100)},
		{"one board", random(3*sortRun, 1)},
		{"sorted runs", slices.Concat(sorted(random(2*sortRun, 1<<20)), sorted(random(3*sortRun, 1<<20)))},
		{"reversed", reversed(sorted(random(4*sortRun+7, 1<<30)))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := slices.Clone(tt.nodes)
			if err := sortNodes(context.Background(), got); err != nil {
				t.Fatal(err)
			}
			if !slices.IsSortedFunc(got, compareNodes) {
				t.Fatal("not sorted")
			}
			if !sameNodes(got, tt.nodes) {
				t.Error("the nodes sorted are not the nodes given")
			}
		})
	}
}

// A cancelled sort stops, with the context's error, before it is done.
func TestSortNodesStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	a := make([]node, 4*sortCheck)
	for i := range a {
		a[i].b.X = game.Mask(len(a) - i)
	}
	if err := sortNodes(ctx, a); !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want %v", err, context.Canceled)
	}
	if slices.IsSortedFunc(a, compareNodes) {
		t.Error("a cancelled sort finished its work")
	}
}

// sorted gives a sorted.
func sorted(a []node) []node { slices.SortFunc(a, compareNodes); return a }

// reversed gives a reversed.
func reversed(a []node) []node { slices.Reverse(a); return a }

// sameNodes reports whether a and b hold the same nodes, each as many
// times, in any order.
func sameNodes(a, b []node) bool {
	count := map[node]int{}
	for _, n := range a {
		count[n]++
	}
	for _, n := range b {
		count[n]--
	}
	for _, c := range count {
		if c != 0 {
			return false
		}
	}
	return len(a) == len(b)
}
