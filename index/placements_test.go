package index

import (
	"fmt"
	"math/bits"
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
)

// stackable reports whether every stone of b has stones below it down to
// the bottom row, as gravity stacks them.
func stackable(s game.Spec, b game.Board) bool {
	occ := b.X | b.O
	for cell := range s.Cells() - s.Cols {
		if occ>>cell&1 != 0 && occ>>(cell+s.Cols)&1 == 0 {
			return false
		}
	}
	return true
}

// Each gives every placement of a ply once, in rank order, and Rank gives
// each its rank back: for gravity, every stackable board with fair counts
// (found by walking all 3^n boards), for free placement every board with
// fair counts.
func TestPlacements(t *testing.T) {
	tests := []struct {
		rows, cols int
		gravity    bool
	}{
		{3, 4, true}, {4, 3, true}, {2, 5, true}, {3, 3, false}, {3, 4, false},
	}
	for _, tt := range tests {
		s := game.Spec{Rows: tt.rows, Cols: tt.cols, K: 3}
		t.Run(fmt.Sprintf("%s gravity=%v", s.Size(), tt.gravity), func(t *testing.T) {
			l, err := NewPlacements(s, tt.gravity)
			if err != nil {
				t.Fatal(err)
			}
			want := make([]int64, s.Cells()+1)
			for id := range game.Pow3(s.Cells()) {
				b := game.FromID(id)
				x, o := bits.OnesCount64(uint64(b.X)), bits.OnesCount64(uint64(b.O))
				if (x == o || x == o+1) && (!tt.gravity || stackable(s, b)) {
					want[b.Ply()]++
				}
			}
			for p := range want {
				if got := l.Size(p); got != want[p] {
					t.Fatalf("ply %d: Size %d, want %d placements", p, got, want[p])
				}
				next := int64(0)
				l.Each(p, 0, l.Size(p), nil, func(rank int64, b game.Board) {
					if rank != next || l.Rank(b) != rank || b.Ply() != p || (tt.gravity && !stackable(s, b)) {
						t.Fatalf("ply %d: %s given as rank %d (Rank %d), want rank %d", p, s.Format(b), rank, l.Rank(b), next)
					}
					checkChildren(t, s, l, b, tt.gravity)
					if u := l.Unrank(p, rank); u != b {
						t.Fatalf("ply %d: Unrank(%d) = %s, want %s", p, rank, s.Format(u), s.Format(b))
					}
					next++
				})
				if next != want[p] {
					t.Fatalf("ply %d: Each gave %d placements, want %d", p, next, want[p])
				}
			}
		})
	}
}

// Connect Four's 6 columns by 5 rows has 9,918,556,649 placements that
// gravity can stack with fair counts: the sum over plies of the height
// vectors times the ways to colour them, counted here by another route,
// column by column.
func TestHeightsSize(t *testing.T) {
	l, err := NewHeights(5, 6)
	if err != nil {
		t.Fatal(err)
	}
	// ways[p]: height vectors of p stones over the columns so far.
	ways := []int64{1}
	for range 6 {
		next := make([]int64, len(ways)+5)
		for p, w := range ways {
			for h := range 6 {
				next[p+h] += w
			}
		}
		ways = next
	}
	c := NewComb(30)
	var got, want int64
	for p := range 31 {
		got += l.Size(p)
		want += ways[p] * c.binom[p][(p+1)/2]
	}
	if got != want {
		t.Errorf("%d placements, want %d", got, want)
	}
}

// legal gives the cells a mark may be put on: every empty one, and under
// gravity those with a mark or the bottom edge below.
func legal(s game.Spec, b game.Board, gravity bool) game.Mask {
	var moves game.Mask
	for cell := range s.Cells() {
		below := cell + s.Cols
		if (b.X|b.O)>>cell&1 == 0 && (!gravity || below >= s.Cells() || (b.X|b.O)>>below&1 != 0) {
			moves |= 1 << cell
		}
	}
	return moves
}

// checkChildren checks that Children gives the Rank of each child of b.
func checkChildren(t *testing.T, s game.Spec, l Placements, b game.Board, gravity bool) {
	t.Helper()
	moves := legal(s, b, gravity)
	got := l.Children(nil, b, moves)
	i := 0
	for m := uint64(moves); m != 0; m &= m - 1 {
		child := b.Play(bits.TrailingZeros64(m), b.ToMove())
		if i >= len(got) || got[i] != l.Rank(child) {
			t.Fatalf("%s: Children gave %v, want the rank of %s (%d) at %d", s.Format(b), got, s.Format(child), l.Rank(child), i)
		}
		i++
	}
	if i != len(got) {
		t.Fatalf("%s: Children gave %d ranks, want %d", s.Format(b), len(got), i)
	}
}

// Each over any range of ranks, with or without a bitset, gives what the
// whole walk gives there: ranges that start and end inside a group, span
// several, or are empty.
func TestEachRange(t *testing.T) {
	tests := []struct {
		name    string
		rows    int
		cols    int
		gravity bool
	}{
		{"gravity 4x5", 4, 5, true},
		{"free 3x4", 3, 4, false},
		{"free 4x4", 4, 4, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := NewPlacements(game.Spec{Rows: tt.rows, Cols: tt.cols, K: 3}, tt.gravity)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range []int{0, 1, 5, 8, tt.rows * tt.cols} {
				var all []game.Board
				l.Each(p, 0, l.Size(p), nil, func(_ int64, b game.Board) { all = append(all, b) })
				only := make([]uint64, (l.Size(p)+63)/64)
				for r := int64(0); r < l.Size(p); r += 3 {
					only[r>>6] |= 1 << (r & 63)
				}
				n := l.Size(p)
				for _, r := range [][2]int64{{0, n}, {n / 3, n / 2}, {1, n - 1}, {n / 2, n / 2}, {n - 1, n}, {7, 8}} {
					checkRange(t, l, p, r[0], r[1], nil, all)
					checkRange(t, l, p, r[0], r[1], only, all)
				}
			}
		})
	}
}

// checkRange checks that Each(p, lo, hi, only) gives exactly the ranks of
// [lo, hi) in only, in order, each with its board in all.
func checkRange(t *testing.T, l Placements, p int, lo, hi int64, only []uint64, all []game.Board) {
	t.Helper()
	hi = max(min(hi, int64(len(all))), 0)
	lo = max(min(lo, hi), 0)
	next := lo
	skip := func() {
		for only != nil && next < hi && only[next>>6]>>(next&63)&1 == 0 {
			next++
		}
	}
	skip()
	from := only // the bits from lo's word, as Each takes them
	if only != nil {
		from = only[lo>>6:]
	}
	l.Each(p, lo, hi, from, func(rank int64, b game.Board) {
		if rank != next || b != all[rank] {
			t.Fatalf("ply %d [%d, %d): gave rank %d, want %d (board %v, want %v)", p, lo, hi, rank, next, b, all[min(rank, int64(len(all)-1))])
		}
		next++
		skip()
	})
	if next != hi {
		t.Fatalf("ply %d [%d, %d): stopped before rank %d", p, lo, hi, next)
	}
}

// The children of 2^16 placements of ply 12 of free 5x5, each with all its
// moves: the forward pass's work for each placement it marks from, beside
// the marking.
func BenchmarkCombChildren(b *testing.B) {
	c := NewComb(25)
	var boards []game.Board
	c.Each(12, 1<<20, 1<<20+1<<16, nil, func(_ int64, bd game.Board) { boards = append(boards, bd) })
	dst := make([]int64, 0, 32)
	full := game.Mask(1<<25 - 1)
	for b.Loop() {
		for _, bd := range boards {
			dst = c.Children(dst[:0], bd, full&^(bd.X|bd.O))
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(boards)), "ns/placement")
}
