package search

import (
	"math/bits"

	"github.com/tateti-lab/tateti-lab/perfect"
)

// A Guide knows the values of positions of the game searched, as a
// win/draw/loss database does, and tells the search, which then needs no
// search of its own to learn who wins: a known draw scores 0, a known win
// at least 1 and a known loss at most -1, the window narrowed to match.
// What is left to search is how soon a win or a loss ends, through the
// moves that keep the win; every other move is cut where the guide is
// asked. A guide must be safe for concurrent use when the solver has
// several workers.
type Guide interface {
	// Value gives the value for X of the position in progress whose X
	// and O marks are the cells of x and o (numbered as Solve takes
	// them), and false when it does not know it, an error among the
	// reasons: the search then goes on unguided, and its answer is as
	// right, only slower.
	Value(x, o uint64) (perfect.Value, bool)
}

// guideLast is the last ply at which the search asks its guide. A
// question costs a rank in the decision diagram and, unless its block is
// cached, a block inflated: past ply 12 a Connect Four tier holds more
// blocks than a database keeps (6x6's ply 15: 547 of 65,536 positions
// against 256 kept), each question reads one, and a subtree there is
// searched in less; up to it the blocks stay (docs/design/search-guided.md).
const guideLast = 12

// guided narrows the window (alpha, beta) of the position pos, mask of
// moves marks by the value the guide knows of it; when that settles the
// score, v is the score or bound to return and done is true.
func (w *worker) guided(pos, mask uint64, moves, alpha, beta int) (a, b, v int, done bool) {
	s := w.s
	x, o := pos, mask^pos
	if moves%2 == 1 {
		x, o = o, x
	}
	val, ok := s.guide.Value(s.toCells(x), s.toCells(o))
	if !ok {
		return alpha, beta, 0, false
	}
	if moves%2 == 1 {
		val = -val // for the side to move
	}
	switch {
	case val == perfect.Draw:
		return alpha, beta, 0, true
	case val > 0 && alpha < 1:
		if alpha = 1; alpha >= beta {
			return alpha, beta, alpha, true
		}
	case val < 0 && beta > -1:
		if beta = -1; alpha >= beta {
			return alpha, beta, beta, true
		}
	}
	return alpha, beta, 0, false
}

// guidedSpan narrows the span of scores within of the root, marks bx and
// bo of moves marks, by the value the guide knows of it.
func (s *Solver) guidedSpan(bx, bo uint64, moves int, xToMove bool, within span) span {
	if s.guide == nil {
		return within
	}
	val, ok := s.guide.Value(s.toCells(bx), s.toCells(bo))
	if !ok {
		return within
	}
	if !xToMove {
		val = -val
	}
	switch {
	case val == perfect.Draw:
		return span{0, 0}
	case val > 0:
		within.lo = max(within.lo, 1)
	default:
		within.hi = min(within.hi, -1)
	}
	return within
}

// toCells gives the game's cells of the marks b, in the layout's bits:
// fromCells' inverse.
func (s *Solver) toCells(b uint64) uint64 {
	var c uint64
	for ; b != 0; b &= b - 1 {
		c |= 1 << s.cellOf[bits.TrailingZeros64(b)]
	}
	return c
}

// cellsOfBits gives the cell of each of the layout's 64 bits, -1 for a bit
// that is no cell of a board of n cells.
func (g *geometry) cellsOfBits(n int) []int8 {
	cellOf := make([]int8, 64)
	for i := range cellOf {
		cellOf[i] = -1
	}
	for c := range n {
		cellOf[g.bitOf(c)] = int8(c)
	}
	return cellOf
}
