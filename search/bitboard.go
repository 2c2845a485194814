package search

import (
	"math/bits"
	"slices"
)

// A board as Pascal Pons' Connect Four solver keeps it: column c takes the
// bits c*(rows+1) up to c*(rows+1)+rows-1, the bottom first, and one more
// bit above each column stays empty, so that shifting a set of marks by 1
// (up a column), rows+1 (along a row), rows (down a diagonal) or rows+2 (up
// a diagonal) never carries a mark into another line. A gravity board of
// cols*(rows+1) bits at most 64 fits: Connect Four's 7x6 takes 49, 8x7 64.
// A free board is laid out with the board's longer side as the layout's
// columns (a transposition, a symmetry of free play), and must fit 32 bits,
// so that a key can hold all marks and the mover's apart.
//
// A board that does not fit so but has at most 64 cells (gravity 8x8, free
// 6x6 and 8x8) is packed: the same columns without the spare bit, c*rows
// up to c*rows+rows-1, a step along a direction masked where it would leave
// the board (stepper), and its key two words (wideKey).

// geometry is the bit layout of one board size.
type geometry struct {
	rows, cols, k int // of the layout
	gravity       bool
	packed        bool     // no spare bit above a column: steps are masked (stepper), keys wide
	fast4         bool     // k = 4 in Pons' layout: winning and lined have it written out
	carries       bool     // gravity in Pons' layout: a column's next cell is its marks plus its bottom cell, the carry stopping at the spare bit
	stride        int      // the bits of a column: rows+1, or rows when packed
	transposed    bool     // the layout's rows are the board's columns
	boardCols     int      // the board's columns, which number its cells
	bottom        uint64   // the bottom cell of every column
	spares        uint64   // in Pons' layout, the spare bit above every column
	full          uint64   // every cell of the board
	dirs          [4]uint  // the shifts of the four directions of a line
	steps         [4]step  // when packed, the cells that may step along each direction
	units         []uint64 // where moves are tried, in order: columns under gravity, cells under free placement, the centre first
	colBits       uint64   // the bits of column 0, with its spare bit in Pons' layout
	swaps         []swap   // the trades of columns that mirror the layout (mirror)
	middle        uint64   // the middle column's bits, which mirror leaves in place
	evenRows      uint64   // under gravity, the cells of the rows r with r = rows mod 2 (from the bottom, 0 first)
	// keyShift places the mover's marks in a key, mask + pos<<keyShift:
	// 0 under gravity, where the heights make pos + mask unique, 32 under
	// free placement, the mover's marks above all marks.
	keyShift uint
}

// A step is where a direction's shift keeps a cell on the board of a packed
// layout: fwd holds the cells whose next cell along it is on the board (the
// cell d bits up), back those whose previous one is (d bits down).
type step struct{ fwd, back uint64 }

// orient gives the layout's rows and columns for a board: transposed under
// free placement when its columns outnumber its rows.
func orient(rows, cols int, gravity bool) (lrows, lcols int, transposed bool) {
	if !gravity && cols > rows {
		return cols, rows, true
	}
	return rows, cols, false
}

// layoutBits is how many bits a board takes in Pons' layout.
func layoutBits(rows, cols int, gravity bool) int {
	rows, cols, _ = orient(rows, cols, gravity)
	return cols * (rows + 1)
}

// spareFits says whether a board fits Pons' layout, with a spare bit a
// column: 64 bits under gravity, 32 under free placement (its keys hold all
// marks and the mover's in one word).
func spareFits(rows, cols int, gravity bool) bool {
	if gravity {
		return layoutBits(rows, cols, gravity) <= 64
	}
	return layoutBits(rows, cols, gravity) <= 32
}

// newGeometry gives the layout of a board of at most 64 cells: Pons' where
// it fits and packed is false, else packed.
func newGeometry(rows, cols, k int, gravity, packed bool) *geometry {
	g := &geometry{k: k, gravity: gravity, boardCols: cols, packed: packed || !spareFits(rows, cols, gravity)}
	rows, cols, g.transposed = orient(rows, cols, gravity)
	g.rows, g.cols, g.stride = rows, cols, rows+1
	if g.packed {
		g.stride = rows
	}
	g.fast4 = k == 4 && !g.packed
	g.carries = gravity && !g.packed
	g.dirs = [4]uint{1, uint(g.stride), uint(g.stride) - 1, uint(g.stride) + 1}
	for c := range cols {
		g.bottom |= 1 << (c * g.stride)
		g.full |= g.column(c)
	}
	g.colBits = 1<<g.stride - 1
	if !g.packed {
		g.spares = g.bottom << g.rows
	}
	g.swaps, g.middle = g.mirrorSwaps()
	for c := range cols {
		for r := rows % 2; r < rows; r += 2 {
			g.evenRows |= 1 << (c*g.stride + r)
		}
	}
	if !gravity {
		g.keyShift = 32
	}
	for _, c := range centreFirst(cols) {
		if gravity {
			g.units = append(g.units, g.column(c))
			continue
		}
		for _, r := range centreFirst(rows) {
			g.units = append(g.units, 1<<(c*g.stride+r))
		}
	}
	if !gravity {
		g.sortCells()
	}
	if g.packed {
		g.steps = g.stepper()
	}
	return g
}

// stepper gives, for each direction of dirs (up a column, along a row, down
// a diagonal, up a diagonal), the cells whose next and previous cells along
// it are on the board.
func (g *geometry) stepper() [4]step {
	var st [4]step
	moves := [4][2]int{{0, 1}, {1, 0}, {1, -1}, {1, 1}} // the next cell: columns, rows
	for b := 0; b < g.cols*g.stride; b++ {
		c, r := b/g.stride, b%g.stride
		if r >= g.rows {
			continue
		}
		on := func(c, r int) bool { return c >= 0 && c < g.cols && r >= 0 && r < g.rows }
		for d, m := range moves {
			if on(c+m[0], r+m[1]) {
				st[d].fwd |= 1 << b
			}
			if on(c-m[0], r-m[1]) {
				st[d].back |= 1 << b
			}
		}
	}
	return st
}

// sortCells orders the cells of a free board by their distance to its
// centre, nearest first, and in the order they have among equals.
func (g *geometry) sortCells() {
	dist := func(u uint64) int {
		b := bits.TrailingZeros64(u)
		c, r := b/g.stride, b%g.stride
		dc, dr := 2*c-(g.cols-1), 2*r-(g.rows-1)
		return dc*dc + dr*dr
	}
	slices.SortStableFunc(g.units, func(a, b uint64) int { return dist(a) - dist(b) })
}

// centreFirst orders 0 to n-1 by their distance to the centre, the lower
// first among equals: the centre is worth most in k in a row.
func centreFirst(n int) []int {
	var order []int
	for d := 0; len(order) < n; d++ {
		for _, c := range []int{(n-1)/2 - d, n/2 + d} {
			if c >= 0 && c < n && (len(order) == 0 || order[len(order)-1] != c) {
				order = append(order, c)
			}
		}
	}
	return order
}

// playable gives the cells a move can take: under gravity the next cell of
// each column that is not full, under free placement every empty cell.
func (g *geometry) playable(mask uint64) uint64 {
	switch {
	case g.carries:
		return (mask + g.bottom) & g.full
	case g.gravity: // above a mark of its column, or at the bottom
		return (mask<<1 | g.bottom) &^ mask & g.full
	}
	return g.full &^ mask
}

// column gives the cells of column c.
func (g *geometry) column(c int) uint64 {
	return (uint64(1)<<g.rows - 1) << (c * g.stride)
}

// lined reports whether the marks m hold k in a row in some direction.
func (g *geometry) lined(m uint64) bool {
	if g.fast4 {
		return g.lined4(m)
	}
	if g.packed {
		return g.linedPacked(m)
	}
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
	r, c := i/g.boardCols, i%g.boardCols
	if g.transposed {
		r, c = c, r
	}
	return c*g.stride + (g.rows - 1 - r)
}

// mirror gives a key (or a set of cells) with the columns in the reverse
// order. A key, the marks of the side to move plus all marks, holds in each
// column a number below 2^(rows+1), with no carry into the next column, so
// the mirror of a position's key is its mirror image's key. A packed
// layout's keys are two sets of cells (wideKey), each mirrored alone.
// Column i and column cols-1-i trade places, each moved by the other's
// distance (swaps); Connect Four's seven columns of seven bits have their
// shifts as constants, since the search mirrors every key it makes near
// the root (mirrorPlies), a child's as well as its own.
func (g *geometry) mirror(k uint64) uint64 {
	if g.cols == 7 && g.stride == 7 {
		const c = 1<<7 - 1 // a column's bits
		return k&(c<<21) | (k&c)<<42 | k>>42&c | (k&(c<<7))<<28 | k>>28&(c<<7) | (k&(c<<14))<<14 | k>>14&(c<<14)
	}
	m := k & g.middle
	for _, sw := range g.swaps {
		m |= (k&sw.low)<<sw.by | k>>sw.by&sw.low
	}
	return m
}

// A swap trades column i, whose bits are low, with column cols-1-i, by
// bits above it.
type swap struct {
	low uint64
	by  uint
}

// mirrorSwaps gives the swaps of the layout's columns that mirror it, and
// the bits of its middle column, which stays (none when the columns are
// even in number).
func (g *geometry) mirrorSwaps() (swaps []swap, middle uint64) {
	for i := range g.cols / 2 {
		swaps = append(swaps, swap{low: g.colBits << (i * g.stride), by: uint((g.cols - 1 - 2*i) * g.stride)})
	}
	if g.cols%2 == 1 {
		middle = g.colBits << (g.cols / 2 * g.stride)
	}
	return swaps, middle
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
// marks m a k in a row. Along a direction of shift d, let after(a) be the
// cells whose a next cells along d are all m's, and before(b) those whose b
// previous cells are: a cell completes a line when it is in after(a) and
// before(k-1-a) for some a. The spare bits between columns keep a line from
// wrapping from one column into the next; the caller keeps the cells it can
// play. Runs of up to maxRun are kept on the stack; longer k falls back to
// checking each window. k = 4, Connect Four's case and most of search's
// time, has its runs written out, and the common heights of the layout
// their shifts as constants: a shift by a variable costs several
// instructions more a shift (docs/design/search-constant-shifts.md); it
// is here, not in a function of its own, so that it costs one call. Under
// gravity and k = 4 it is exact at each cell whose cell above holds no
// mark of m, which every empty cell of a position of play is and callers
// ask about no other: a vertical line ends there only from below, the
// three cells under it, which takes a third of the work of a direction.
func (g *geometry) winning(m uint64) uint64 {
	if !g.fast4 {
		return g.winningK(m)
	}
	var w uint64
	if g.gravity {
		w = m << 1 & (m << 2) & (m << 3)
	} else {
		w = runs4(m, 1)
	}
	switch g.rows {
	case 6:
		w |= runs4(m, 7) | runs4(m, 6) | runs4(m, 8)
	case 5:
		w |= runs4(m, 6) | runs4(m, 5) | runs4(m, 7)
	case 4:
		w |= runs4(m, 5) | runs4(m, 4) | runs4(m, 6)
	case 7:
		w |= runs4(m, 8) | runs4(m, 7) | runs4(m, 9)
	default:
		for _, d := range g.dirs[1:] {
			w |= runs4(m, d)
		}
	}
	return w & g.full
}

// winningK is winning for any k, the runs kept on the stack.
func (g *geometry) winningK(m uint64) uint64 {
	if g.packed {
		return g.winningPacked(m)
	}
	if g.k-1 > maxRun {
		return g.winningSlow(m)
	}
	var w uint64
	var before, after [maxRun + 1]uint64
	n := g.k - 1
	for _, d := range g.dirs {
		before[0], after[0] = g.full, g.full
		for a := 1; a <= n; a++ {
			after[a] = after[a-1] & (m >> (uint(a) * d))
			before[a] = before[a-1] & (m << (uint(a) * d))
		}
		for a := 0; a <= n; a++ {
			w |= after[a] & before[n-a]
		}
	}
	return w & g.full
}

// runs4 gives the cells that complete four in a row of the marks m along
// the direction of shift d: three next, three previous, or two one way and
// one the other.
func runs4(m uint64, d uint) uint64 {
	a1 := m >> d
	a2 := a1 & (m >> (2 * d))
	b1 := m << d
	b2 := b1 & (m << (2 * d))
	return a2&(m>>(3*d)) | b2&(m<<(3*d)) | a1&b2 | a2&b1
}

// maxRun is the longest run winning keeps on the stack: k up to 8.
const maxRun = 7

// winningSlow is winning by every window of k through each cell.
func (g *geometry) winningSlow(m uint64) uint64 {
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

// oddTops gives, under gravity, the next cells of the columns of marks
// mask that have an odd number of empty cells: the playable cells outside
// evenRows.
func (g *geometry) oddTops(mask uint64) uint64 { return g.playable(mask) &^ g.evenRows }

// evenTops says whether an even number of columns have an odd number of
// empty cells, whose next cells are odd (oddTops): where claimeven holds.
// A move changes their number by one, so it holds either for a position
// or for each of its children.
func evenTops(odd uint64) bool { return bits.OnesCount64(odd)%2 == 0 }

// claimeven bounds the score of the side to move, whose marks are pos among
// all marks mask, under gravity and normal play, by what the other side can
// claim with a follow-up (Allis' claimeven), where odd is oddTops(mask)
// and evenTops holds of it: the other side can then answer each move right
// above it, or a move on an odd top by a move on another, and so take
// every empty cell of the rows evenRows does not hold but the odd tops,
// leaving the mover at most the rest. If the mover has no line even with
// all of those, it cannot win, and its score is at most 0; at most -1 when
// the other side has a line with its own (it completes it by the last move
// at the latest). ok is false when the rule says nothing.
func (g *geometry) claimeven(pos, mask, odd uint64) (most int, ok bool) {
	empty := g.full &^ mask
	if g.lined(g.moverClaims(pos, empty, odd)) {
		return 0, false
	}
	if g.lined(mask ^ pos | empty&^g.evenRows&^odd) {
		return -1, true
	}
	return 0, true
}

// oddThreat says, under gravity and normal play, whether the other side
// wins by a threat the mover cannot take first: Allis' odd threat, for
// either side. theirs is the other side's empty winning cells, odd is
// oddTops(mask). The threat is a cell of theirs with an odd number of
// empty cells below it in its column, where the other columns' odd tops
// are even in number (evenTops). The other side answers every move right
// above it, or a move on an odd top on another odd top: in the threat's
// column the mover takes the first, third, ... empty cell from the bottom,
// and so the last below the threat, whose answer is the threat; elsewhere
// what claimeven leaves it. If the mover has no line even with all of
// those, it never stops the other side: its score is at most -1. Of a
// column's threats the lowest that qualifies leaves the mover the fewest
// cells.
func (g *geometry) oddThreat(pos, mask, theirs, odd uint64) bool {
	top := g.playable(mask)
	for t := theirs &^ top & g.oddAbove(top); t != 0; {
		st := t & -t
		col := g.column(bits.TrailingZeros64(st) / g.stride)
		below := st - top&col // the column's empty cells below the threat, odd in number
		t &^= col
		others := odd &^ col
		if !evenTops(others) {
			continue
		}
		mine := below & (top & col * 0x5555555555555555) // every other cell from the column's next
		if !g.lined(g.moverClaims(pos, g.full&^mask&^col, others) | mine) {
			return true
		}
	}
	return false
}

// oddAbove gives, under gravity, the cells an odd number of cells above
// their column's next cell, top (playable): those with an odd number of
// empty cells below them. In Pons' layout, subtracting a column's next
// cell from its spare bit sets the cells from it up, the borrow stopping
// at the spare bit, so that one subtraction gives those cells of every
// column whose next cell lies on a row of evenRows, another of the
// others; of the first the cells off evenRows are odd above it, of the
// second those on it.
func (g *geometry) oddAbove(top uint64) uint64 {
	if !g.carries { // packed: a column at a time, every other cell from its next one's up
		var odd uint64
		for c := range g.cols {
			if col := g.column(c); top&col != 0 {
				odd |= col & (top & col << 1 * 0x5555555555555555)
			}
		}
		return odd
	}
	onEven := (g.spares - top&g.evenRows) & g.full
	onOdd := (g.spares - top&^g.evenRows) & g.full
	return onEven&^g.evenRows | onOdd&g.evenRows
}

// moverClaims gives the most cells the mover, whose marks are pos, can hold
// under claimeven with the empty cells empty and the odd tops odd: its
// marks, the empty cells of evenRows and the odd tops.
func (g *geometry) moverClaims(pos, empty, odd uint64) uint64 {
	return pos | empty&g.evenRows | odd
}

// lined4 is lined for k = 4, the shifts constants for the common heights.
func (g *geometry) lined4(m uint64) bool {
	switch g.rows {
	case 6:
		return run4(m, 1)|run4(m, 7)|run4(m, 6)|run4(m, 8) != 0
	case 5:
		return run4(m, 1)|run4(m, 6)|run4(m, 5)|run4(m, 7) != 0
	case 4:
		return run4(m, 1)|run4(m, 5)|run4(m, 4)|run4(m, 6) != 0
	case 7:
		return run4(m, 1)|run4(m, 8)|run4(m, 7)|run4(m, 9) != 0
	}
	var r uint64
	for _, d := range g.dirs {
		r |= run4(m, d)
	}
	return r != 0
}

// run4 gives the cells that start four marks of m in a row along d.
func run4(m uint64, d uint) uint64 {
	m &= m >> d
	return m & (m >> (2 * d))
}

// winningPacked is winning on a packed layout, any k: after(a), the cells
// whose a next cells along a direction are m's, is a step back from the
// m's in after(a-1), and before(b), whose b previous cells are, a step
// forward from the m's in before(b-1); a step keeps the cells that stay on
// the board (steps).
func (g *geometry) winningPacked(m uint64) uint64 {
	var w uint64
	var after [65]uint64 // k is at most 64
	n := g.k - 1
	for i, d := range g.dirs {
		st := g.steps[i]
		after[0] = g.full
		for a := 1; a <= n; a++ {
			after[a] = (m & after[a-1] & st.back) >> d
		}
		before := g.full
		for b := 0; b <= n; b++ {
			w |= after[n-b] & before
			before = (m & before & st.fwd) << d
		}
	}
	return w & g.full
}

// linedPacked is lined on a packed layout: run holds the cells that start
// i marks of m in a row along a direction.
func (g *geometry) linedPacked(m uint64) bool {
	for i, d := range g.dirs {
		run := m
		for j := 1; j < g.k && run != 0; j++ {
			run = m & (run & g.steps[i].back >> d)
		}
		if run != 0 {
			return true
		}
	}
	return false
}
