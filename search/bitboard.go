package search

import "math/bits"

// A gravity board as Pascal Pons' Connect Four solver keeps it: column c
// takes the bits c*(Rows+1) up to c*(Rows+1)+Rows-1, the bottom first, and
// one more bit above each column stays empty, so that shifting a set of
// marks by 1 (up a column), Rows+1 (along a row), Rows (down a diagonal) or
// Rows+2 (up a diagonal) never carries a mark into another line. A board of
// Cols*(Rows+1) bits at most 64 fits: Connect Four's 7x6 takes 49, 8x7 64.

// geometry is the bit layout of one board size.
type geometry struct {
	rows, cols, k int
	bottom        uint64  // the bottom cell of every column
	full          uint64  // every cell of the board
	dirs          [4]uint // the shifts of the four directions of a line
	order         [64]int // columns to try, the centre first: 3 2 4 1 5 0 6 on 7
}

func newGeometry(rows, cols, k int) *geometry {
	g := &geometry{rows: rows, cols: cols, k: k, dirs: [4]uint{1, uint(rows) + 1, uint(rows), uint(rows) + 2}}
	for c := range cols {
		g.bottom |= 1 << (c * (rows + 1))
		g.full |= g.column(c)
	}
	g.order = centreFirst(cols)
	return g
}

// centreFirst orders the columns by their distance to the centre, the left
// one first among equals: the centre is worth most in k in a row.
func centreFirst(cols int) [64]int {
	var order [64]int
	n := 0
	for d := 0; n < cols; d++ {
		for _, c := range []int{(cols-1)/2 - d, cols/2 + d} {
			if c >= 0 && c < cols && (n == 0 || order[n-1] != c) {
				order[n] = c
				n++
			}
		}
	}
	return order
}

// playable gives the cell each column that is not full would take next.
func (g *geometry) playable(mask uint64) uint64 { return (mask + g.bottom) & g.full }

// column gives the cells of column c.
func (g *geometry) column(c int) uint64 {
	return (uint64(1)<<g.rows - 1) << (c * (g.rows + 1))
}

// lined reports whether the marks m hold k in a row in some direction.
func (g *geometry) lined(m uint64) bool {
	for _, d := range g.dirs {
		run := m
		for i := 1; i < g.k && run != 0; i++ {
			run &= m >> (uint(i) * d)
		}
		if run != 0 {
			return true
		}
	}
	return false
}

// bitOf gives the bit of board cell i.
func (g *geometry) bitOf(i int) int {
	r, c := i/g.cols, i%g.cols
	return c*(g.rows+1) + (g.rows - 1 - r)
}

// marks counts the marks on a set.
func marks(m uint64) int { return bits.OnesCount64(m) }

// shift moves a set of cells by t bits, up for t > 0 and down for t < 0;
// what leaves the 64 bits is gone.
func shift(m uint64, t int) uint64 {
	if t >= 0 {
		return m << uint(t)
	}
	return m >> uint(-t)
}

// winning gives the cells, taken or not, that would give the side with
// marks m a k in a row: a cell x completes a line when the k-1 other cells
// of some window of k along a direction through x are all m's. The spare
// bits between columns keep a window from wrapping from one column into
// the next; the caller keeps the cells it can play.
func (g *geometry) winning(m uint64) uint64 {
	var w uint64
	for _, d := range g.dirs {
		for j := range g.k { // x is the j-th cell of the window
			cells := g.full
			for i := range g.k {
				if i != j {
					cells &= shift(m, (j-i)*int(d))
				}
			}
			w |= cells
		}
	}
	return w & g.full
}
