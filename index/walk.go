package index

import (
	"math/bits"

	"github.com/tateti-lab/tateti-lab/game"
)

// A Walker walks the boards of one ply of a Diagram in rank order, and
// ranks each one's children in the next ply as it goes: what a solve of
// the ply from the next one asks of every board, at a few steps of the
// diagram a board where Rank takes one a cell.
//
// A board's rank is the sum over its levels of what each level's value
// passes over (contrib), which depends on the values of that level and
// those before it only: the node, and the marks still to come. A board
// and the next one in rank order share every level before the first
// they differ at, so the walker keeps each level's node and partial sum
// and makes them again from that level alone. A child differs from its
// parent at its move's level L only: before L its sums are the parent's
// with one more mark of the mover to come (kept as well), at L the move's,
// and past L they follow the child's own nodes over the parent's values,
// kept a move level apiece and made again from the first level the walk
// has changed since.
type Walker struct {
	d      *Diagram
	levels int
	mover  game.Cell
	rank   int64
	done   bool
	val    [65]game.Cell // val[l]: the board's value at level l
	node   [66]int32     // node[l]: its node at level l
	x, o   [66]int       // the X and O marks to come from level l on
	sum    [66]int64     // sum[l]: what levels before l pass over
	more   [66]int64     // sum with one more mark of the mover to come: a child's, before its move
	// kid[m][l] and ksum[m][l], for the child by the move at level m: its
	// node at level l > m and what its levels m+1..l-1 pass over; valid
	// up to level fresh[m], the first level changed since they were made.
	kid   [65][66]int32
	ksum  [65][66]int64
	fresh [65]int
}

// Walk gives a walker over the boards of ply p from rank lo, which is in
// [0, Size(p)), or at the end where lo is Size(p).
func (d *Diagram) Walk(p int, lo int64) *Walker {
	w := &Walker{d: d, levels: len(d.order), mover: game.X, rank: lo}
	if p%2 == 1 {
		w.mover = game.O
	}
	w.x[0], w.o[0] = (p+1)/2, p/2
	if lo >= d.Size(p) {
		w.done = true
		return w
	}
	w.descend(0, lo)
	return w
}

// Board gives the board the walker is at.
func (w *Walker) Board() game.Board {
	var b game.Board
	for l, v := range w.val[:w.levels] {
		if v != game.Empty {
			b = b.Play(w.d.order[l], v)
		}
	}
	return b
}

// Rank gives the rank of the board the walker is at.
func (w *Walker) Rank() int64 { return w.rank }

// Done says whether the walker has passed the ply's last board.
func (w *Walker) Done() bool { return w.done }

// contrib gives what the value v passes over at level l from node n with
// x and o marks to come from l on: the ways to finish from its smaller
// values.
func (w *Walker) contrib(l int, n int32, v game.Cell, x, o int) int64 {
	d := w.d
	k := d.kids[l][3*n : 3*n+3]
	var c int64
	if v >= game.X && k[game.Empty] >= 0 {
		c += d.waysAt(l+1, k[game.Empty], x, o)
	}
	if v == game.O && k[game.X] >= 0 {
		c += d.waysAt(l+1, k[game.X], x-1, o)
	}
	return c
}

// set puts v at level l and makes level l+1's node, marks and sums.
func (w *Walker) set(l int, v game.Cell) {
	n, x, o := w.node[l], w.x[l], w.o[l]
	w.val[l] = v
	w.node[l+1] = w.d.kids[l][3*n+int32(v)]
	w.sum[l+1] = w.sum[l] + w.contrib(l, n, v, x, o)
	w.more[l+1] = w.more[l] + w.contrib(l, n, v, x+b2i(w.mover == game.X), o+b2i(w.mover == game.O))
	w.x[l+1], w.o[l+1] = x-b2i(v == game.X), o-b2i(v == game.O)
}

// ways gives the ways to finish from level l's node after the value v.
func (w *Walker) ways(l int, v game.Cell) int64 {
	k := w.d.kids[l][3*w.node[l]+int32(v)]
	if k < 0 {
		return 0
	}
	return w.d.waysAt(l+1, k, w.x[l]-b2i(v == game.X), w.o[l]-b2i(v == game.O))
}

// descend sets the levels from l on to the board of rank r among those
// that share the levels before l.
func (w *Walker) descend(l int, r int64) {
	for ; l < w.levels; l++ {
		v := game.Empty
		for ; v < game.O; v++ {
			c := w.ways(l, v)
			if r < c {
				break
			}
			r -= c
		}
		w.set(l, v)
	}
}

// Next moves to the next board in rank order, and says whether there is
// one.
func (w *Walker) Next() bool {
	if w.done {
		return false
	}
	for l := w.levels - 1; l >= 0; l-- {
		for v := w.val[l] + 1; v <= game.O; v++ {
			if w.ways(l, v) > 0 {
				w.set(l, v)
				w.descend(l+1, 0)
				w.rank++
				for m := range w.fresh[:w.levels] {
					w.fresh[m] = min(w.fresh[m], l)
				}
				return true
			}
		}
	}
	w.done = true
	return false
}

// Children appends to dst the ranks, among the next ply's boards, of the
// children of the board the walker is at by the legal moves, in
// increasing cell order as Diagram.Children gives them: -1 for a move that
// makes a line.
func (w *Walker) Children(dst []int64) []int64 {
	var at [64]int8 // at[cell]: the level of a legal move's cell, -1 for none
	var moves uint64
	for l := 0; l < w.levels; l++ {
		if w.val[l] != game.Empty {
			continue
		}
		c := w.d.order[l]
		moves |= 1 << c
		at[c] = int8(l)
		if w.d.gravity { // the column's cells above are empty: skip to the next column
			l += w.d.spec.Rows - 1 - l%w.d.spec.Rows
		}
	}
	for m := moves; m != 0; m &= m - 1 {
		dst = append(dst, w.child(int(at[bits.TrailingZeros64(m)])))
	}
	return dst
}

// child gives the rank of the child by the move at level m, or -1 where
// it makes a line.
func (w *Walker) child(m int) int64 {
	n, mx, mo := w.node[m], b2i(w.mover == game.X), b2i(w.mover == game.O)
	r := w.more[m] + w.contrib(m, n, w.mover, w.x[m]+mx, w.o[m]+mo)
	from := m + 1
	if w.fresh[m] > m {
		from = max(from, w.fresh[m])
	} else {
		w.kid[m][m+1], w.ksum[m][m+1] = w.d.kids[m][3*n+int32(w.mover)], 0
	}
	kid, ksum := &w.kid[m], &w.ksum[m]
	l := from
	for ; l < w.levels && kid[l] >= 0; l++ {
		k, v := kid[l], w.val[l]
		ksum[l+1] = ksum[l] + w.contrib(l, k, v, w.x[l], w.o[l])
		kid[l+1] = w.d.kids[l][3*k+int32(v)]
	}
	w.fresh[m] = l // a child with a line stays so while its levels before l do
	if kid[l] < 0 {
		return -1
	}
	return r + ksum[w.levels]
}
