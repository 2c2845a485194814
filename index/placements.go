package index

import (
	"fmt"
	"math/bits"

	"github.com/tateti-lab/tateti-lab/game"
)

// Placements ranks the placements of each ply of one board densely, 0 to
// Size(p)-1, with no table of ids: what a tier solve keys its files by.
// Consecutive ranks share their outer part (the X cells under free
// placement, the column heights under gravity), so that a walk over a
// range of them is cheap.
type Placements interface {
	// Name names the layout: "comb" or "heights".
	Name() string
	// Size is the number of placements at ply p.
	Size(p int) int64
	// Rank gives the rank of b among the placements of its ply.
	Rank(b game.Board) int64
	// Unrank gives the placement of ply p whose rank is r.
	Unrank(p int, r int64) game.Board
	// Children appends to dst the ranks, among the next ply's placements,
	// of the boards b becomes when the side to move marks each cell of
	// moves, in increasing cell order: what a solve asks of each position,
	// in one call, so that a layout shares the work its children have in
	// common.
	Children(dst []int64, b game.Board, moves game.Mask) []int64
	// Each calls fn for every placement of ply p of rank in [lo, hi), in
	// rank order, with its rank; only for those whose bit is set in the
	// bitset only unless it is nil. only starts at the word of rank lo: it
	// holds the bit of rank r in word r/64 - lo/64, so that a task of work
	// needs the bits of its own range alone (a ply's whole bitset w serves
	// as w[lo/64:]). The range lies in [0, Size(p)) and may start and end
	// anywhere: a task of work takes one.
	Each(p int, lo, hi int64, only []uint64, fn func(rank int64, b game.Board))
}

// NewPlacements gives the layout of a board: Comb under free placement,
// where nearly every placement with fair counts can arise, and Heights
// under gravity, where far fewer can.
func NewPlacements(s game.Spec, gravity bool) (Placements, error) {
	if gravity {
		return NewHeights(s.Rows, s.Cols)
	}
	if s.Cells() > 32 {
		return nil, fmt.Errorf("a free board of %d cells has more than the 32 placements rank", s.Cells())
	}
	return NewComb(s.Cells()), nil
}

// Name is "comb".
func (c *Comb) Name() string { return "comb" }

// Children appends the ranks of b's children by moves. As for Heights, a
// new mark at cell t shifts the numbers of the marks above it: a new X
// mark moves the later X marks up a place in the X set, and takes t from
// the cells the O marks are numbered among (an O mark above t numbers one
// less); a new O mark moves the later O marks up a place. Each part of the
// rank is then a prefix sum below t, the new mark's term, and a suffix sum
// above it, made once for all the children.
func (c *Comb) Children(dst []int64, b game.Board, moves game.Mask) []int64 {
	xs, os := uint32(b.X), uint32(b.O)
	x, o := bits.OnesCount32(xs), bits.OnesCount32(os)
	xMoves := x == o
	// Prefix and suffix sums over the X marks, and over the O marks by
	// their numbers among the cells X leaves free: a side has at most 16
	// marks on 32 cells, and a sum's index runs to the marks.
	var px, sx, po, so [17]int64
	for i, m := 0, xs; m != 0; i, m = i+1, m&(m-1) {
		px[i+1] = px[i] + c.binom[bits.TrailingZeros32(m)][i+1]
	}
	for i, m := 0, os; m != 0; i, m = i+1, m&(m-1) {
		t := bits.TrailingZeros32(m)
		po[i+1] = po[i] + c.binom[t-bits.OnesCount32(xs&(1<<t-1))][i+1]
	}
	for i, m := x, xs; i > 0; i-- {
		s := 31 - bits.LeadingZeros32(m)
		sx[i-1] = sx[i] + c.binom[s][i+1]
		m &^= 1 << s
	}
	for i, m := o, os; i > 0; i-- {
		t := 31 - bits.LeadingZeros32(m)
		num := t - bits.OnesCount32(xs&(1<<t-1))
		if xMoves {
			so[i-1] = so[i] + c.binom[max(num-1, 0)][i] // used only above the new X mark, where num > 0
		} else {
			so[i-1] = so[i] + c.binom[num][i+1]
		}
		m &^= 1 << t
	}
	if xMoves {
		inner := c.binom[c.n-x-1][o] // the O sets among the cells left free
		for m := uint64(moves); m != 0; m &= m - 1 {
			t := bits.TrailingZeros64(m)
			below := uint32(1)<<t - 1
			jx, jo := bits.OnesCount32(xs&below), bits.OnesCount32(os&below)
			nx := px[jx] + c.binom[t][jx+1] + sx[jx]
			dst = append(dst, nx*inner+po[jo]+so[jo])
		}
		return dst
	}
	base := c.rankSet(xs) * c.binom[c.n-x][o+1] // an O move keeps the X set
	for m := uint64(moves); m != 0; m &= m - 1 {
		t := bits.TrailingZeros64(m)
		below := uint32(1)<<t - 1
		jx, jo := bits.OnesCount32(xs&below), bits.OnesCount32(os&below)
		dst = append(dst, base+po[jo]+c.binom[t-jx][jo+1]+so[jo])
	}
	return dst
}

// Unrank gives the placement of ply p of rank r: its X set, then its O set
// among the cells X leaves free.
func (c *Comb) Unrank(p int, r int64) game.Board {
	x, o := counts(p)
	inner := c.Inner(p)
	xs := c.unrankSet(r/inner, x)
	free := c.unrankSet(r%inner, o) // numbered among the free cells
	var os uint32
	for cell := 0; free != 0; cell++ {
		if xs>>cell&1 != 0 {
			continue
		}
		if free&1 != 0 {
			os |= 1 << cell
		}
		free >>= 1
	}
	return game.Board{X: game.Mask(xs), O: game.Mask(os)}
}

// Heights ranks the placements of a gravity board: a ply's placements are
// its height vectors (stones a column, summing to the ply), in the order of
// their codes sum h_c·(rows+1)^c, each followed by its colourings, the sets
// of x = ceil(p/2) X stones among the p stones, numbered column by column
// from the bottom, in colex order. Every board that gravity can stack is
// ranked, reachable or not: 9,918,556,649 for 6 columns by 5 rows, where
// 2,818,972,642 can arise. A rank is offset(heights) + colex(X stones).
type Heights struct {
	rows, cols int
	binom      [65][65]int64
	vectors    [][]uint32 // vectors[p]: the codes of ply p's height vectors, in order
	at         []int32    // at[code]: the vector's place in its ply
	// spread[i][v] puts the cells of byte v of a board's mask (cells 8i to
	// 8i+7) at their places column by column from the bottom: the stone at
	// height j of column c at bit c·rows+j.
	spread [8][256]uint64
	weight []int // weight[c]: (rows+1)^c, column c's digit in a code
}

// maxCodes bounds the height vectors a Heights keeps: (rows+1)^cols.
const maxCodes = 1 << 24

// NewHeights builds the rank of a gravity board of rows by cols.
func NewHeights(rows, cols int) (*Heights, error) {
	codes := 1
	for range cols {
		if codes *= rows + 1; codes > maxCodes {
			return nil, fmt.Errorf("a %dx%d gravity board has more than %d column heights to rank", rows, cols, maxCodes)
		}
	}
	if rows*cols > 64 {
		return nil, fmt.Errorf("a %dx%d board has more than 64 cells", rows, cols)
	}
	h := &Heights{rows: rows, cols: cols, vectors: make([][]uint32, rows*cols+1), at: make([]int32, codes)}
	for i := range h.binom {
		h.binom[i][0] = 1
		for k := 1; k <= i; k++ {
			h.binom[i][k] = h.binom[i-1][k-1] + h.binom[i-1][k]
		}
	}
	// A code's stones are its digits' sum: its lowest digit's and the
	// sum of the code above that digit, a smaller code's.
	stones := make([]uint8, codes)
	count := make([]int, len(h.vectors))
	count[0] = 1
	for code := 1; code < codes; code++ {
		stones[code] = uint8(code%(rows+1)) + stones[code/(rows+1)]
		count[stones[code]]++
	}
	for p := range h.vectors {
		h.vectors[p] = make([]uint32, 0, count[p])
	}
	for code, p := range stones {
		h.at[code] = int32(len(h.vectors[p]))
		h.vectors[p] = append(h.vectors[p], uint32(code))
	}
	h.weight = make([]int, cols)
	for c, w := 0, 1; c < cols; c, w = c+1, w*(rows+1) {
		h.weight[c] = w
	}
	for cell := range rows * cols {
		r, c := cell/cols, cell%cols
		for v := range 256 {
			if v>>(cell%8)&1 != 0 {
				h.spread[cell/8][v] |= 1 << (c*rows + rows - 1 - r)
			}
		}
	}
	return h, nil
}

// Name is "heights".
func (h *Heights) Name() string { return "heights" }

// Size is the number of placements at ply p.
func (h *Heights) Size(p int) int64 { return h.first(p, int64(len(h.vectors[p]))) }

// first gives the first rank of the g-th height vector of ply p: each
// vector of ply p holds C(p, ceil(p/2)) placements, the ways to choose the
// X stones' slots among its p stones, and ranks them in vector order.
func (h *Heights) first(p int, g int64) int64 { return g * h.binom[p][(p+1)/2] }

// cell gives the cell of the stone at height j (0 the bottom) of column c.
func (h *Heights) cell(c, j int) int { return (h.rows-1-j)*h.cols + c }

// Rank gives the rank of b, a board gravity can stack. The marks are
// turned column by column (spread), where a column's stones are its low
// bits; the X stones' slots then gather column after column.
func (h *Heights) Rank(b game.Board) int64 {
	_, slots, code, p := h.gather(b, nil)
	var colex int64
	for k := 1; slots != 0; k++ {
		colex += h.binom[bits.TrailingZeros64(slots)][k]
		slots &= slots - 1
	}
	return h.first(p, int64(h.at[code])) + colex
}

// Children appends the ranks of b's children by moves, each the cell on
// top of its column. A child's stone takes slot s = the stones of the
// columns to its left plus its own column's; the parent's X slots below s
// keep their slot and number, those above move up a slot (and a number,
// when the stone is X's). With the parent's X slots s_1 < s_2 < ..., the
// child's colex rank is then
//
//	sum_{i<=j} C(s_i, i) + [X] C(s, j+1) + sum_{i>j} C(s_i+1, i+[X])
//
// where j is the number of X slots below s: a prefix and a suffix sum,
// made once for all the children.
func (h *Heights) Children(dst []int64, b game.Board, moves game.Mask) []int64 {
	var base [64]int // base[c]: the stones of the columns left of c
	occ, slots, code, p := h.gather(b, &base)
	col := uint64(1)<<h.rows - 1
	x := 0
	if b.ToMove() == game.X {
		x = 1
	}
	// below[j], above[j]: the sums over the first j X slots and the rest.
	var below, above [34]int64
	n := 0
	for m := slots; m != 0; m &= m - 1 {
		s := bits.TrailingZeros64(m)
		below[n+1] = below[n] + h.binom[s][n+1]
		n++
	}
	for i, m := n, slots; i > 0; i-- {
		s := 63 - bits.LeadingZeros64(m)
		above[i-1] = above[i] + h.binom[s+1][i+x]
		m &^= 1 << s
	}
	for m := uint64(moves); m != 0; m &= m - 1 {
		c := bits.TrailingZeros64(m) % h.cols
		s := base[c] + bits.OnesCount64(occ>>(c*h.rows)&col)
		j := bits.OnesCount64(slots & (1<<s - 1))
		r := below[j] + above[j] + h.first(p+1, int64(h.at[code+h.weight[c]]))
		if x == 1 {
			r += h.binom[s][j+1]
		}
		dst = append(dst, r)
	}
	return dst
}

// Unrank gives the placement of ply p of rank r: its height vector by the
// groups' first ranks, then the X stones' slots by their colex rank.
func (h *Heights) Unrank(p int, r int64) game.Board {
	g := h.group(p, r)
	slots := h.unrankColex(r-h.first(p, g), (p+1)/2)
	var xs, occ game.Mask
	slot := 0
	for c, code := 0, int(h.vectors[p][g]); c < h.cols; c, code = c+1, code/(h.rows+1) {
		for j := range code % (h.rows + 1) {
			cell := h.cell(c, j)
			occ |= 1 << cell
			if slots>>slot&1 != 0 {
				xs |= 1 << cell
			}
			slot++
		}
	}
	return game.Board{X: xs, O: occ &^ xs}
}

// gather turns b column by column (columns): it gives the occupied cells so
// turned, the X stones' slots, the code of the height vector and the ply;
// and, unless base is nil, the stones left of each column.
func (h *Heights) gather(b game.Board, base *[64]int) (occ, slots uint64, code, p int) {
	xs := h.columns(uint64(b.X))
	occ = h.columns(uint64(b.X | b.O))
	col := uint64(1)<<h.rows - 1
	for c := range h.cols {
		shift := c * h.rows
		j := bits.OnesCount64(occ >> shift & col)
		if base != nil {
			base[c] = p
		}
		slots |= (xs >> shift & col) << p
		p += j
		code += j * h.weight[c]
	}
	return occ, slots, code, p
}

// columns gives the cells of m column by column from the bottom (spread).
func (h *Heights) columns(m uint64) uint64 {
	var out uint64
	for i := 0; m != 0; i, m = i+1, m>>8 {
		out |= h.spread[i][m&255]
	}
	return out
}

// Each calls fn for every placement of ply p of rank in [lo, hi), in rank
// order, of those in only unless it is nil (only starts at the word of
// rank lo, as Placements says).
func (h *Heights) Each(p int, lo, hi int64, only []uint64, fn func(rank int64, b game.Board)) {
	if lo >= hi {
		return
	}
	base := lo >> 6
	x := (p + 1) / 2
	g := h.group(p, lo)
	s := h.unrankColex(lo-h.first(p, g), x)
	var cells [64]uint8
	for rank := lo; rank < hi; g++ {
		var occ game.Mask
		slot := 0
		for c, r := 0, int(h.vectors[p][g]); c < h.cols; c, r = c+1, r/(h.rows+1) {
			for j := range r % (h.rows + 1) {
				cells[slot] = uint8(h.cell(c, j))
				occ |= 1 << cells[slot]
				slot++
			}
		}
		for end := min(hi, h.first(p, g+1)); rank < end; rank++ {
			if only == nil || only[rank>>6-base]>>(rank&63)&1 != 0 {
				var xs game.Mask
				for m := s; m != 0; m &= m - 1 {
					xs |= 1 << cells[bits.TrailingZeros64(m)]
				}
				fn(rank, game.Board{X: xs, O: occ &^ xs})
			}
			if s != 0 {
				s = nextSet(s)
			}
		}
		s = uint64(1)<<x - 1
	}
}

// group gives the height vector of ply p whose ranks hold rank r.
func (h *Heights) group(p int, r int64) int64 { return r / h.binom[p][(p+1)/2] }

// unrankColex gives the set of k slots of colex rank r: its largest slot
// first, the largest s with C(s, k) <= r.
func (h *Heights) unrankColex(r int64, k int) uint64 {
	var slots uint64
	for ; k >= 1; k-- {
		s := k - 1
		for s+1 < 64 && h.binom[s+1][k] <= r {
			s++
		}
		slots |= 1 << s
		r -= h.binom[s][k]
	}
	return slots
}
