package index

import (
	"math/bits"

	"github.com/tateti-lab/tateti-lab/game"
)

// Comb ranks the placements of one ply of a board of n cells, X moving
// first: every board with x = ceil(p/2) X marks and o = floor(p/2) O marks,
// C(n, x) · C(n-x, o) of them. A board's rank is rankX · C(n-x, o) + rankO,
// where rankX ranks the X cells among all sets of x cells and rankO the O
// cells among the sets of o of the cells X left free, both in colex order
// (the order of the sets as binary numbers). It needs no table of ids, so it
// suits free placement, where nearly every placement with fair counts can
// arise, at a byte a position or less.
type Comb struct {
	n     int
	binom [33][33]int64
}

// NewComb builds the rank of a board of n cells, at most game.MaxCells.
func NewComb(n int) *Comb {
	c := &Comb{n: n}
	for i := range c.binom {
		c.binom[i][0] = 1
		for k := 1; k <= i; k++ {
			c.binom[i][k] = c.binom[i-1][k-1] + c.binom[i-1][k]
		}
	}
	return c
}

// counts gives the marks of each side at ply p.
func counts(p int) (x, o int) { return (p + 1) / 2, p / 2 }

// Size is the number of placements at ply p.
func (c *Comb) Size(p int) int64 {
	x, o := counts(p)
	return c.binom[c.n][x] * c.binom[c.n-x][o]
}

// Inner is the number of O cell sets beside one X set at ply p: the
// placements of X set r (in colex order) hold the ranks [r·Inner(p),
// (r+1)·Inner(p)).
func (c *Comb) Inner(p int) int64 {
	x, o := counts(p)
	return c.binom[c.n-x][o]
}

// Rank gives the rank of b among the placements of its ply.
func (c *Comb) Rank(b game.Board) int64 {
	x, o := bits.OnesCount32(uint32(b.X)), bits.OnesCount32(uint32(b.O))
	rx := c.rankSet(uint32(b.X))
	// O's cells, numbered among the cells X leaves free.
	free := ^uint32(b.X)
	var ro int64
	k := 1
	for m := uint32(b.O); m != 0; m &= m - 1 {
		below := uint32(1)<<bits.TrailingZeros32(m) - 1
		ro += c.binom[bits.OnesCount32(free&below)][k]
		k++
	}
	return rx*c.binom[c.n-x][o] + ro
}

// rankSet ranks the set of cells s among the sets of its size, in colex order.
func (c *Comb) rankSet(s uint32) int64 {
	var r int64
	k := 1
	for m := s; m != 0; m &= m - 1 {
		r += c.binom[bits.TrailingZeros32(m)][k]
		k++
	}
	return r
}

// unrankSet gives the set of k cells of rank r in colex order.
func (c *Comb) unrankSet(r int64, k int) uint32 {
	var s uint32
	for i := k; i >= 1; i-- {
		e := i - 1
		for e+1 < c.n && c.binom[e+1][i] <= r {
			e++
		}
		s |= 1 << e
		r -= c.binom[e][i]
	}
	return s
}

// nextSet gives the next set of the same size in colex order (Gosper's
// hack): the lowest run of ones moves up by one, and the rest of the run
// drops to the bottom. For sets of up to 31 or 63 elements.
func nextSet[S uint32 | uint64](s S) S {
	low := s & -s
	ripple := s + low
	return ripple | ((s^ripple)>>2)/low
}

// Each calls fn for every placement of ply p of rank in [lo, hi), in rank
// order, with its rank; only for those whose bit is set in only unless it
// is nil (only starts at the word of rank lo, as Placements says).
func (c *Comb) Each(p int, lo, hi int64, only []uint64, fn func(rank int64, b game.Board)) {
	if lo >= hi {
		return
	}
	base := lo >> 6
	x, o := counts(p)
	inner := c.binom[c.n-x][o]
	xs := c.unrankSet(lo/inner, x)
	os := c.unrankSet(lo%inner, o)
	var free [32]int
	for rank := lo; rank < hi; {
		nf := 0
		for cell := range c.n {
			if xs>>cell&1 == 0 {
				free[nf] = cell
				nf++
			}
		}
		for end := min(hi, (rank/inner+1)*inner); rank < end; rank++ {
			if only == nil || only[rank>>6-base]>>(rank&63)&1 != 0 {
				var om uint32
				for m := os; m != 0; m &= m - 1 {
					om |= 1 << free[bits.TrailingZeros32(m)]
				}
				fn(rank, game.Board{X: game.Mask(xs), O: game.Mask(om)})
			}
			if os != 0 {
				os = nextSet(os)
			}
		}
		os = uint32(1)<<o - 1
		if xs != 0 {
			xs = nextSet(xs)
		}
	}
}
