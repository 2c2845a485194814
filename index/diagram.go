package index

import (
	"context"
	"fmt"
	"math/bits"
	"runtime"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/par"
)

// Diagram ranks, densely and ply by ply, the boards of one game that hold
// no line of k: the placements with fair counts (ceil(p/2) X marks and
// floor(p/2) O marks at ply p) that gravity can stack, where it applies,
// and where no side has k in a row. They are every position in progress
// play can reach, and a few play cannot (a stack play cannot order); a
// finished board is not among them, since its value is the rules'.
// Connect Four 6x6 has 69,173,028,785 reachable positions and 600 billion
// placements in the heights layout; the diagram ranks close to the first.
//
// The diagram decides the cells one at a time, column by column from the
// bottom under gravity and row by row otherwise (a level a cell), as
// jh85's and Böck's solvers do: a node at level L stands for everything
// the first L cells tell of the rest, the lines through a decided and an
// undecided cell that are still whole (each is dead, or X's, or O's so
// far), and under gravity whether the column's last cell was left empty
// (so that the cells above it must be). Nodes of one level with the same
// future are one (the reduction of a decision diagram), and each holds
// how many ways there are to finish the board from it with x more X marks
// and o more O marks. The rank of a board is, summed over its levels, the
// ways to finish from the cell's smaller values (empty < X < O), so that
// ranks follow the order of the cells' values read as a number.
type Diagram struct {
	spec    game.Spec
	gravity bool
	order   []int     // order[L]: the board's cell decided at level L
	kids    [][]int32 // kids[L][3n+v]: node n's node at level L+1 after the value v (game.Cell), or -1 where v is not allowed
	ways    [][]int64 // ways[L][n*width[L] + row[L][x] + o]: node n's ways to finish with x more X and o more O marks
	row     [][]int   // row[L][x]: where the ways with x more X marks start in a node's, min(most[1], cells-L-x)+1 of them
	width   []int     // width[L]: the ways a node of level L holds
	most    [2]int    // the most marks X and O have: ceil(cells/2), floor(cells/2)
}

// maxStates bounds the states a level of the diagram may hold while it is
// built, before its reduction: Connect Four 6x6 needs 320,000, 7x6 some
// millions.
const maxStates = 1 << 26

// NewDiagram builds the diagram of a rows by cols board, k in a row, under
// gravity or free placement, within maxStates states a level; its ways
// counted by as many goroutines as Go runs at once.
func NewDiagram(s game.Spec, gravity bool) (*Diagram, error) {
	return newDiagram(s, gravity, runtime.GOMAXPROCS(0))
}

// newDiagram is NewDiagram, its ways counted by workers goroutines: the
// same diagram whatever their number.
func newDiagram(s game.Spec, gravity bool, workers int) (*Diagram, error) {
	n := s.Cells()
	if n > 64 || s.K < 1 {
		return nil, fmt.Errorf("a diagram of %s: want at most 64 cells and a line of at least 1", s)
	}
	d := &Diagram{spec: s, gravity: gravity, order: cellOrder(s, gravity), most: [2]int{(n + 1) / 2, n / 2}}
	b := newBuilder(d)
	for L := range n {
		if err := b.level(L); err != nil {
			return nil, err
		}
	}
	d.kids = b.reduce()
	d.count(workers)
	return d, nil
}

// cellOrder gives the cells in the order the diagram decides them: under
// gravity each column from the bottom, columns left to right (a board
// decided so far is then stacked, or not, by what it holds); row by row
// under free placement.
func cellOrder(s game.Spec, gravity bool) []int {
	order := make([]int, 0, s.Cells())
	if !gravity {
		for i := range s.Cells() {
			order = append(order, i)
		}
		return order
	}
	for c := range s.Cols {
		for j := range s.Rows {
			order = append(order, (s.Rows-1-j)*s.Cols+c)
		}
	}
	return order
}

// Name is "diagram".
func (d *Diagram) Name() string { return "diagram" }

// Size is the number of boards of ply p with no line.
func (d *Diagram) Size(p int) int64 {
	if p < 0 || p > len(d.order) {
		return 0
	}
	return d.waysAt(0, 0, (p+1)/2, p/2)
}

// Nodes is the number of nodes of the diagram, all levels.
func (d *Diagram) Nodes() int {
	n := 1 // the last level's
	for _, k := range d.kids {
		n += len(k) / 3
	}
	return n
}

// Bytes is the memory of the diagram's tables.
func (d *Diagram) Bytes() uint64 {
	var n uint64
	for L := range d.kids {
		n += 4*uint64(len(d.kids[L])) + 8*uint64(len(d.ways[L]))
	}
	return n
}

// waysAt gives node n of level L's ways to finish with x more X marks and
// o more O marks; 0 where there are none.
func (d *Diagram) waysAt(L int, n int32, x, o int) int64 {
	if x < 0 || o < 0 || x > d.most[0] || o > d.most[1] || x+o > len(d.order)-L {
		return 0
	}
	return d.ways[L][int(n)*d.width[L]+d.row[L][x]+o]
}

// count fills each node's ways from the level below: a node's ways with
// x and o marks to come are its children's, with one mark fewer of the
// value its child took. A level's nodes are counted in countChunk runs
// by up to workers goroutines, each run its own nodes' ways.
func (d *Diagram) count(workers int) {
	cells := len(d.order)
	d.ways = make([][]int64, cells+1)
	d.row = make([][]int, cells+1)
	d.width = make([]int, cells+1)
	for L := cells; L >= 0; L-- {
		left := cells - L
		d.row[L] = make([]int, min(d.most[0], left)+1)
		for x := range d.row[L] {
			d.row[L][x] = d.width[L]
			d.width[L] += min(d.most[1], left-x) + 1
		}
		if L == cells {
			d.ways[L] = []int64{1}
			continue
		}
		nodes := len(d.kids[L]) / 3
		d.ways[L] = make([]int64, nodes*d.width[L])
		runs := (nodes + countChunk - 1) / countChunk
		par.Tasks(context.Background(), runs, workers, func(_ context.Context, k int) error {
			for n := k * countChunk; n < min(nodes, (k+1)*countChunk); n++ {
				d.countNode(L, n)
			}
			return nil
		})
	}
}

// countChunk is the nodes of a level one goroutine counts at a time; a
// variable for the tests alone.
var countChunk = 4096

// countNode fills node n of level L's ways.
func (d *Diagram) countNode(L, n int) {
	left := len(d.order) - L
	w := d.ways[L][n*d.width[L] : (n+1)*d.width[L]]
	for x, start := range d.row[L] {
		for o := range min(d.most[1], left-x) + 1 {
			w[start+o] = d.finish(L, int32(n), x, o)
		}
	}
}

// finish sums node n of level L's ways with x and o marks to come over
// its children.
func (d *Diagram) finish(L int, n int32, x, o int) int64 {
	k := d.kids[L][3*n : 3*n+3]
	var w int64
	if k[game.Empty] >= 0 {
		w += d.waysAt(L+1, k[game.Empty], x, o)
	}
	if k[game.X] >= 0 {
		w += d.waysAt(L+1, k[game.X], x-1, o)
	}
	if k[game.O] >= 0 {
		w += d.waysAt(L+1, k[game.O], x, o-1)
	}
	return w
}

// Rank gives the rank of b among the boards of its ply with no line, or
// -1 where b is not one of them (it holds a line, or gravity cannot stack
// it, or its counts are not fair).
func (d *Diagram) Rank(b game.Board) int64 {
	x, o := bits.OnesCount64(uint64(b.X)), bits.OnesCount64(uint64(b.O))
	if x != o && x != o+1 {
		return -1
	}
	var r int64
	n := int32(0)
	for L, cell := range d.order {
		v := b.At(cell)
		k := d.kids[L][3*n : 3*n+3]
		if v >= game.X && k[game.Empty] >= 0 {
			r += d.waysAt(L+1, k[game.Empty], x, o)
		}
		if v == game.O && k[game.X] >= 0 {
			r += d.waysAt(L+1, k[game.X], x-1, o)
		}
		if n = k[v]; n < 0 {
			return -1
		}
		switch v {
		case game.X:
			x--
		case game.O:
			o--
		}
	}
	return r
}

// Unrank gives the board of ply p whose rank is r, in [0, Size(p)).
func (d *Diagram) Unrank(p int, r int64) game.Board {
	var b game.Board
	x, o := (p+1)/2, p/2
	n := int32(0)
	for L, cell := range d.order {
		k := d.kids[L][3*n : 3*n+3]
		v := game.Empty
		for ; v < game.O; v++ {
			var w int64
			if k[v] >= 0 {
				w = d.waysAt(L+1, k[v], x-b2i(v == game.X), o-b2i(v == game.O))
			}
			if r < w {
				break
			}
			r -= w
		}
		n = k[v]
		if v != game.Empty {
			b = b.Play(cell, v)
			x, o = x-b2i(v == game.X), o-b2i(v == game.O)
		}
	}
	return b
}

// b2i is 1 for true.
func b2i(t bool) int {
	if t {
		return 1
	}
	return 0
}

// Children appends to dst the ranks, among the next ply's boards with no
// line, of the boards b becomes when the side to move marks each cell of
// moves, in increasing cell order: -1 for a move that makes a line (a
// finished board, which the diagram does not rank).
func (d *Diagram) Children(dst []int64, b game.Board, moves game.Mask) []int64 {
	mover := b.ToMove()
	for m := uint64(moves); m != 0; m &= m - 1 {
		dst = append(dst, d.Rank(b.Play(bits.TrailingZeros64(m), mover)))
	}
	return dst
}

// Each calls fn for every board of ply p of rank in [lo, hi), in rank
// order, with its rank; only for those whose bit is set in only unless it
// is nil (bit r of word r/64 - lo/64, as Placements.Each takes it).
func (d *Diagram) Each(p int, lo, hi int64, only []uint64, fn func(rank int64, b game.Board)) {
	for r := lo; r < hi; r++ {
		if only != nil && only[r/64-lo/64]>>(r%64)&1 == 0 {
			continue
		}
		fn(r, d.Unrank(p, r))
	}
}
