package index

import (
	"fmt"

	"github.com/tateti-lab/tateti-lab/game"
)

// A builder makes a diagram's levels one at a time, from the first cell:
// the states of each level, what the cells decided so far tell of the
// rest, and the moves between them; then reduces them from the last.
//
// A state is a string: a byte for each line open at its level (a cell of
// it decided and one not; 0 dead, else the game.Cell of every decided
// cell), in a fixed order, and a last byte, 1 where gravity leaves the
// level's cell empty (the one below it in its column is).
type builder struct {
	d     *Diagram
	trans [][]carry // trans[L]: how each line open at level L+1 is made from level L's
	ends  [][]int   // ends[L]: the lines whose last cell is level L's, by their byte at level L (-1: opened there too, k = 1)
	keys  []string  // the current level's states
	kids  [][]int32 // kids[L][3i+v]: the state at level L+1 of state i after the value v, or -1
}

// A carry says how a line open at the next level gets its byte: from the
// line's byte at this level (from, -1 where the line opens at this
// level's cell), with this level's value where the line holds the cell.
type carry struct {
	from int
	has  bool
}

// newBuilder lists d's lines by the levels of their cells, and how each
// level's open lines are carried to the next.
func newBuilder(d *Diagram) *builder {
	n := len(d.order)
	level := make([]int, n) // level[cell]
	for L, c := range d.order {
		level[c] = L
	}
	b := &builder{d: d, trans: make([][]carry, n), ends: make([][]int, n), keys: []string{"\x00"}}
	open := make([][]int, n+1) // open[L]: the lines open at level L, as first and last levels
	type span struct{ first, last int }
	var spans []span
	for _, line := range lineCells(d.spec) {
		sp := span{n, -1}
		for _, c := range line {
			sp.first, sp.last = min(sp.first, level[c]), max(sp.last, level[c])
		}
		spans = append(spans, sp)
	}
	holds := func(line, L int) bool {
		for _, c := range lineCells(d.spec)[line] {
			if level[c] == L {
				return true
			}
		}
		return false
	}
	for i, sp := range spans {
		for L := sp.first + 1; L <= sp.last; L++ {
			open[L] = append(open[L], i)
		}
	}
	for L := range n {
		at := make(map[int]int, len(open[L])) // a line's byte at level L
		for j, line := range open[L] {
			at[line] = j
		}
		for _, line := range open[L+1] {
			from, ok := at[line]
			if !ok {
				from = -1
			}
			b.trans[L] = append(b.trans[L], carry{from: from, has: holds(line, L)})
		}
		for i, sp := range spans {
			if sp.last == L {
				from, ok := at[i]
				if !ok {
					from = -1
				}
				b.ends[L] = append(b.ends[L], from)
			}
		}
	}
	return b
}

// lineCells gives every line of k cells of the board of s: rows, columns
// and both diagonals.
func lineCells(s game.Spec) [][]int {
	var lines [][]int
	for r := range s.Rows {
		for c := range s.Cols {
			for _, dir := range [4][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}} {
				er, ec := r+dir[0]*(s.K-1), c+dir[1]*(s.K-1)
				if er < 0 || er >= s.Rows || ec < 0 || ec >= s.Cols {
					continue
				}
				line := make([]int, s.K)
				for i := range line {
					line[i] = (r+dir[0]*i)*s.Cols + c + dir[1]*i
				}
				lines = append(lines, line)
			}
		}
	}
	return lines
}

// mark gives a line's byte once a cell of it holds v: dead where v is
// empty or the line held the other side's marks.
func mark(line byte, v game.Cell) byte {
	if line == byte(v) {
		return line
	}
	return 0
}

// level makes level L+1's states from level L's, each of L's with each
// value of level L's cell: none where gravity leaves the cell empty and a
// mark is put, or where a line is made.
func (b *builder) level(L int) error {
	d := b.d
	ids := make(map[string]int32)
	var keys []string
	kids := make([]int32, 3*len(b.keys))
	buf := make([]byte, len(b.trans[L])+1)
	top := !d.gravity || (L+1)%d.spec.Rows == 0 // the next cell starts a column
	for i, st := range b.keys {
		for v := game.Empty; v <= game.O; v++ {
			kids[3*i+int(v)] = -1
			if st[len(st)-1] == 1 && v != game.Empty || b.lined(L, st, v) {
				continue
			}
			for j, c := range b.trans[L] {
				switch {
				case c.from < 0:
					buf[j] = byte(v)
				case c.has:
					buf[j] = mark(st[c.from], v)
				default:
					buf[j] = st[c.from]
				}
			}
			buf[len(buf)-1] = byte(b2i(v == game.Empty && !top))
			id, ok := ids[string(buf)]
			if !ok {
				if len(keys) == maxStates {
					return fmt.Errorf("a diagram of %s: level %d has more than %d states", d.spec, L+1, maxStates)
				}
				id = int32(len(keys))
				keys = append(keys, string(buf))
				ids[keys[id]] = id
			}
			kids[3*i+int(v)] = id
		}
	}
	b.kids = append(b.kids, kids)
	b.keys = keys
	return nil
}

// lined says whether v on level L's cell makes a line from state st.
func (b *builder) lined(L int, st string, v game.Cell) bool {
	if v == game.Empty {
		return false
	}
	for _, from := range b.ends[L] {
		if from < 0 || mark(st[from], v) != 0 {
			return true
		}
	}
	return false
}

// reduce makes the states of each level with the same children one node,
// from the last level up, and gives each level's nodes' children.
func (b *builder) reduce() [][]int32 {
	n := len(b.kids)
	out := make([][]int32, n)
	canon := make([]int32, len(b.keys)) // the last level: every state finished, one node
	for L := n - 1; L >= 0; L-- {
		fk := b.kids[L]
		ids := make(map[[3]int32]int32)
		next := make([]int32, len(fk)/3)
		var kids []int32
		for i := range next {
			var k [3]int32
			for v := range k {
				k[v] = -1
				if c := fk[3*i+v]; c >= 0 {
					k[v] = canon[c]
				}
			}
			id, ok := ids[k]
			if !ok {
				id = int32(len(ids))
				ids[k] = id
				kids = append(kids, k[:]...)
			}
			next[i] = id
		}
		out[L], canon = kids, next
	}
	return out
}
