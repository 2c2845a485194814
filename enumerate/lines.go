package enumerate

import (
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
)

// The estimate counts placements that play could make: what it adds to the
// plain count of marks is a bound that knows k. In a position that can
// arise, the side that did not make the last move has no k in a row (had it
// one, the game would have ended before that move), so no line of the board,
// a row or a column, holds one of its. Counting the ways to fill each line
// apart, by the marks added and by which sides then hold k in a row in it,
// and multiplying the lines, gives for every count of marks an upper bound
// on the positions; the rows' and the columns' bounds hold both, and the
// estimate takes the smaller. Under gravity a column fills from the bottom,
// so the columns are stacks and the rows are not apart: only the columns
// count.

// A lineCount counts the ways to fill the open cells of some lines: by
// which sides then hold k in a row in one of them (the index: 1 for X, 2
// for O, 3 for both), by the X and the O marks added.
type lineCount [4][][]uint64

// newLineCount gives a count with room for up to n marks of each side,
// nothing counted.
func newLineCount(n int) lineCount {
	var c lineCount
	for f := range c {
		c[f] = newPoly(n)
	}
	return c
}

// times gives the count of the lines of c and of d together.
func (c lineCount) times(d lineCount) lineCount {
	n := len(c[0]) + len(d[0]) - 2
	out := newLineCount(n)
	for f, cf := range c {
		for g, dg := range d {
			for x, row := range cf {
				for o, a := range row {
					if a == 0 {
						continue
					}
					for y, drow := range dg {
						for p, b := range drow {
							out[f|g][x+y][o+p] += a * b
						}
					}
				}
			}
		}
	}
	return out
}

// runState is where the fill of a line stands: the mark on the last cell
// and how many of it end there (up to k), which sides hold k in a row, and,
// for a stack, whether an open cell was left empty (then all above are).
type runState struct {
	last  game.Cell
	run   int
	flags int
	ended bool
}

// countLine counts the ways to fill the open cells (Empty in marks) of one
// line, in order; a stack fills in order, its first open cell left empty
// ending it.
func countLine(marks []game.Cell, k int, stack bool) lineCount {
	n := len(marks)
	states := map[runState][][]uint64{{}: unit(n)}
	for _, fixed := range marks {
		next := map[runState][][]uint64{}
		for s, poly := range states {
			for _, c := range []game.Cell{game.Empty, game.X, game.O} {
				if fixed != game.Empty && c != fixed || fixed == game.Empty && stack && s.ended && c != game.Empty {
					continue
				}
				t := step(s, c, k, stack && fixed == game.Empty && c == game.Empty)
				dx, do := 0, 0
				if fixed == game.Empty {
					dx, do = b2i(c == game.X), b2i(c == game.O)
				}
				addShifted(next, t, poly, dx, do)
			}
		}
		states = next
	}
	out := newLineCount(n)
	for s, poly := range states {
		for x := range poly {
			for o, v := range poly[x] {
				out[s.flags][x][o] += v
			}
		}
	}
	return out
}

// step gives the state after a cell of mark c.
func step(s runState, c game.Cell, k int, ends bool) runState {
	t := runState{last: c, flags: s.flags, ended: s.ended || ends}
	if c == game.Empty {
		return t
	}
	t.run = 1
	if s.last == c {
		t.run = min(s.run+1, k)
	}
	if t.run == k {
		t.flags |= int(c) // X is 1, O is 2
	}
	return t
}

// addShifted adds poly, shifted by dx X and do O marks, to the count of t.
func addShifted(m map[runState][][]uint64, t runState, poly [][]uint64, dx, do int) {
	dst, ok := m[t]
	if !ok {
		dst = newPoly(len(poly) - 1)
		m[t] = dst
	}
	for x := range len(poly) - dx {
		for o := range len(poly) - do {
			dst[x+dx][o+do] += poly[x][o]
		}
	}
}

// newPoly gives counts by X and O marks, up to n of each, all 0.
func newPoly(n int) [][]uint64 {
	p := make([][]uint64, n+1)
	for x := range p {
		p[x] = make([]uint64, n+1)
	}
	return p
}

// unit is the count of the empty fill: one way, no marks, room for n.
func unit(n int) [][]uint64 {
	p := newPoly(n)
	p[0][0] = 1
	return p
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// boardCount counts the fills of root's open cells as the product of its
// lines: the rows, or the columns (bottom up under gravity, as stacks).
func boardCount(rs rules.Spec, root game.Board, columns bool) lineCount {
	lines, length := rs.Rows, rs.Cols
	if columns {
		lines, length = rs.Cols, rs.Rows
	}
	total := newLineCount(0)
	total[0][0][0] = 1
	marks := make([]game.Cell, length)
	for l := range lines {
		for i := range length {
			cell := l*rs.Cols + i // along row l
			if columns {
				cell = (rs.Rows-1-i)*rs.Cols + l // up column l from the bottom
			}
			marks[i] = root.At(cell)
		}
		total = total.times(countLine(marks, rs.K, columns && rs.Gravity))
	}
	return total
}

// placements gives, for every count of added marks, an upper bound on the
// positions play can make from root: the fills where the side that did not
// move last holds no k in a row, the smaller of the rows' and the columns'
// bounds (the columns' only, under gravity).
func placements(rs rules.Spec, root game.Board, x0, o0 int) [][]uint64 {
	out := constrained(boardCount(rs, root, true), x0, o0)
	if !rs.Gravity {
		rows := constrained(boardCount(rs, root, false), x0, o0)
		for x := range out {
			for o := range out[x] {
				out[x][o] = min(out[x][o], rows[x][o])
			}
		}
	}
	return out
}

// constrained sums c over the sides holding k in a row that a position with
// x0+x X and o0+o O marks allows: none for the side that did not move last.
func constrained(c lineCount, x0, o0 int) [][]uint64 {
	out := make([][]uint64, len(c[0]))
	for x := range out {
		out[x] = make([]uint64, len(c[0][x]))
		for o := range out[x] {
			notLast := 2 // X moved last: O has no line
			if x0+x == o0+o {
				notLast = 1 // O moved last, or no one has: X has no line
			}
			for f := range c {
				if f&notLast == 0 {
					out[x][o] += c[f][x][o]
				}
			}
		}
	}
	return out
}
