package search

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// The fast ways to find the cells that complete a line (k = 4 written out,
// its shifts constant for layouts of 4 to 7 rows, and runs for any k up to
// 8) give what checking every window gives.
func TestWinning(t *testing.T) {
	tests := []struct{ rows, cols, k int }{
		{6, 7, 4}, {7, 8, 4}, {4, 4, 4}, {5, 6, 4}, {3, 8, 4}, {8, 7, 4},
		{4, 4, 3}, {5, 6, 2}, {6, 7, 5}, {7, 8, 8}, {7, 8, 1},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%dx%d k=%d", tt.rows, tt.cols, tt.k), func(t *testing.T) {
			g := newGeometry(tt.rows, tt.cols, tt.k, true)
			rng := rand.New(rand.NewPCG(uint64(tt.k), 3))
			for range 2000 {
				m := rng.Uint64() & rng.Uint64() & g.full // about a quarter of the cells
				if got, want := g.winning(m), g.winningSlow(m); got != want {
					t.Fatalf("marks %#x: winning %#x, want %#x", m, got, want)
				}
			}
		})
	}
}

// The mirror of a position's key is the key of its mirror image.
func TestMirror(t *testing.T) {
	g := newGeometry(6, 7, 4, true)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		// A random position: each column filled to a random height.
		var x, o, mx, mo uint64
		for c := range g.cols {
			for r := range rng.IntN(g.rows + 1) {
				cell := (g.rows-1-r)*g.cols + c
				image := (g.rows-1-r)*g.cols + g.cols - 1 - c
				if rng.IntN(2) == 0 {
					x, mx = x|1<<cell, mx|1<<image
				} else {
					o, mo = o|1<<cell, mo|1<<image
				}
			}
		}
		key := func(x, o uint64) uint64 { return g.fromCells(x) + g.fromCells(x|o) }
		if got, want := g.mirror(key(x, o)), key(mx, mo); got != want {
			t.Fatalf("mirror of the key %#x is %#x, want the image's key %#x", key(x, o), got, want)
		}
	}
}
