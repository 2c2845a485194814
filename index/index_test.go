package index

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
)

// layers makes a fake enumeration of boards of cells cells: random ids
// grouped by ply, sorted within each.
func layers(cells, n int, seed uint64) ([]uint64, []int) {
	rng := rand.New(rand.NewPCG(seed, 1))
	byPly := make([][]uint64, cells+1)
	for range n {
		id := rng.Uint64N(game.Pow3(cells))
		p := game.FromID(id).Ply()
		byPly[p] = append(byPly[p], id)
	}
	var ids []uint64
	start := make([]int, cells+2)
	for p := range byPly {
		slices.Sort(byPly[p])
		byPly[p] = slices.Compact(byPly[p])
		start[p] = len(ids)
		ids = append(ids, byPly[p]...)
	}
	start[cells+1] = len(ids)
	return ids, start
}

// The dense and sparse indexes answer alike, for members and non-members.
func TestDenseAndSparseAgree(t *testing.T) {
	for _, tt := range []struct{ cells, n int }{{4, 30}, {9, 2000}, {12, 100000}, {16, 50000}} {
		ids, start := layers(tt.cells, tt.n, uint64(tt.cells))
		d, s := NewDense(tt.cells, ids), NewSparse(ids, start)
		if d.Len() != len(ids) || s.Len() != len(ids) {
			t.Fatalf("%d cells: Len %d and %d, want %d", tt.cells, d.Len(), s.Len(), len(ids))
		}
		for i, id := range ids {
			if j, ok := d.Lookup(id); !ok || j != i || d.ID(i) != id {
				t.Fatalf("%d cells: dense Lookup(%d) = %d, %v; want %d", tt.cells, id, j, ok, i)
			}
			if j, ok := s.Lookup(id); !ok || j != i || s.ID(i) != id {
				t.Fatalf("%d cells: sparse Lookup(%d) = %d, %v; want %d", tt.cells, id, j, ok, i)
			}
		}
		rng := rand.New(rand.NewPCG(9, 9))
		for range 100000 {
			id := rng.Uint64N(game.Pow3(tt.cells) + 10)
			i, ok := d.Lookup(id)
			j, ok2 := s.Lookup(id)
			if ok != ok2 || (ok && i != j) {
				t.Fatalf("%d cells: Lookup(%d): dense %d %v, sparse %d %v", tt.cells, id, i, ok, j, ok2)
			}
		}
	}
}

// The sparse index finds every id of a 25-cell board, and no other.
func TestSparseLarge(t *testing.T) {
	ids, start := layers(25, 200000, 25)
	idx := NewSparse(ids, start)
	for i, id := range ids {
		if j, ok := idx.Lookup(id); !ok || j != i {
			t.Fatalf("Lookup(%d) = %d, %v; want %d", id, j, ok, i)
		}
		if _, ok := idx.Lookup(id + 1); ok && !slices.Contains(ids, id+1) {
			t.Fatalf("Lookup(%d) found an id that is not there", id+1)
		}
	}
}

func BenchmarkLookup(b *testing.B) {
	ids, start := layers(16, 2000000, 3)
	for name, idx := range map[string]Index{"dense": NewDense(16, ids), "sparse": NewSparse(ids, start)} {
		b.Run(name, func(b *testing.B) {
			i := 0
			for b.Loop() {
				idx.Lookup(ids[i])
				i = (i + 7919) % len(ids)
			}
		})
	}
}

// Comb's ranks are 0..Size-1 in the order Each visits the placements, and
// Rank gives them back, on boards of several sizes and every ply.
func TestComb(t *testing.T) {
	for _, n := range []int{1, 4, 9, 12} {
		c := NewComb(n)
		for p := 0; p <= n; p++ {
			want := int64(0)
			seen := map[game.Board]bool{}
			c.Each(p, 0, c.Size(p), nil, func(rank int64, b game.Board) {
				if rank != want {
					t.Fatalf("n=%d ply %d: Each gave rank %d, want %d", n, p, rank, want)
				}
				if got := c.Rank(b); got != rank {
					t.Fatalf("n=%d ply %d: Rank(%v) = %d, want %d", n, p, b, got, rank)
				}
				if b.X&b.O != 0 || b.Ply() != p || seen[b] {
					t.Fatalf("n=%d ply %d: bad or repeated board %v", n, p, b)
				}
				seen[b] = true
				want++
			})
			if want != c.Size(p) {
				t.Fatalf("n=%d ply %d: %d placements, want Size %d", n, p, want, c.Size(p))
			}
		}
	}
}

// Children gives, for each cell of the moves in order, the position Lookup
// gives the child: checked on every parent of a set of ids whose children
// are all there, for both indexes.
func TestChildren(t *testing.T) {
	tests := []struct {
		name  string
		cells int
	}{{"3x3", 9}, {"3x4", 12}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Every raw board is a member, so every child is there.
			ids := make([]uint64, game.Pow3(tt.cells))
			for i := range ids {
				ids[i] = uint64(i)
			}
			slices.SortStableFunc(ids, func(a, b uint64) int { return game.FromID(a).Ply() - game.FromID(b).Ply() })
			start := make([]int, tt.cells+2)
			for _, id := range ids {
				start[game.FromID(id).Ply()+1]++
			}
			for p := 1; p < len(start); p++ {
				start[p] += start[p-1]
			}
			for _, idx := range []Index{NewDense(tt.cells, ids), NewSparse(ids, start)} {
				dst := make([]int, game.MaxCells)
				for id := uint64(0); id < game.Pow3(tt.cells); id += 7 {
					b := game.FromID(id)
					var moves game.Mask
					for c := range tt.cells {
						if b.At(c) == game.Empty {
							moves |= 1 << c
						}
					}
					n := idx.Children(dst, id, uint64(b.ToMove()), moves)
					if got, want := n, bits.OnesCount64(uint64(moves)); got != want {
						t.Fatalf("%T.Children(%d) gave %d children, want %d", idx, id, got, want)
					}
					k := 0
					for c := range tt.cells {
						if moves>>c&1 == 0 {
							continue
						}
						want, _ := idx.Lookup(id + uint64(b.ToMove())*game.Pow3(c))
						if got := dst[k]; got != want {
							t.Fatalf("%T.Children(%d)[%d] (cell %d) = %d, want %d", idx, id, k, c, got, want)
						}
						k++
					}
				}
			}
		})
	}
}
