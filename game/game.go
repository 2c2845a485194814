package game

import (
	"math/bits"
	"slices"
)

// Status is what a checker answers for a board.
type Status uint8

// The four statuses of a board.
const (
	InProgress Status = iota
	XWon
	OWon
	Draw
)

// Statuses lists every status in table order.
var Statuses = []Status{XWon, OWon, Draw, InProgress}

// String gives the status as its snake_case key: "x_won", "o_won", "draw" or
// "in_progress".
func (s Status) String() string {
	switch s {
	case XWon:
		return "x_won"
	case OWon:
		return "o_won"
	case Draw:
		return "draw"
	}
	return "in_progress"
}

// Terminal reports whether the game is over.
func (s Status) Terminal() bool { return s != InProgress }

// Game holds the board of one Spec, computed once: its winning lines as masks
// and, for small boards, a table of which cell sets hold a line. A Game is safe
// for concurrent use. What a line is worth, which moves are legal and which
// symmetries hold are the rules' business (package rules).
type Game struct {
	Spec  Spec
	Lines []Mask // every window of K cells in a row, column or diagonal, sorted
	full  Mask
	wins  []uint64 // for boards of at most 16 cells: bit m is set when mask m holds a line
	runs  []run    // the directions of the lines, for hasLine
}

// A run is one direction of the lines: from a cell of starts, the next
// cell of a line is step cells on in row-major order (right 1, down cols,
// down-right cols+1, down-left cols-1).
type run struct {
	step   uint
	starts Mask // the cells whose line in this direction stays on the board
}

// New computes the lines of a validated Spec.
func New(s Spec) *Game {
	g := &Game{Spec: s, full: full(s), Lines: lines(s), runs: runs(s)}
	if s.Cells() <= 16 {
		g.wins = make([]uint64, (1<<s.Cells()+63)/64)
		for m := range 1 << s.Cells() {
			if g.hasLine(Mask(m)) {
				g.wins[m/64] |= 1 << (m % 64)
			}
		}
	}
	return g
}

// lines lists the windows of k cells along every row, column, diagonal and
// anti-diagonal, each as a mask, sorted and without repeats (for k=1 the four
// directions give the same windows): from each start of each run, k cells
// a step apart.
func lines(s Spec) []Mask {
	var out []Mask
	for _, r := range runs(s) {
		for st := r.starts; st != 0; st &= st - 1 {
			c := bits.TrailingZeros64(uint64(st))
			var m Mask
			for j := range s.K {
				m |= 1 << (c + j*int(r.step))
			}
			out = append(out, m)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// hasLine reports whether m holds a line: whether, in some direction, a
// start cell of m has its k-1 next cells in m too, all starts at once by
// shifts (m>>(i*step) has at c the cell i steps on from c).
func (g *Game) hasLine(m Mask) bool {
	for _, r := range g.runs {
		x := m & r.starts
		for i := uint(1); i < uint(g.Spec.K) && x != 0; i++ {
			x &= m >> (i * r.step)
		}
		if x != 0 {
			return true
		}
	}
	return false
}

// runs gives the directions of the lines of s, with the cells their lines
// start from: the first cells of the windows that lines lists.
func runs(s Spec) []run {
	var out []run
	for _, d := range [][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}} {
		var starts Mask
		for r := range s.Rows {
			for c := range s.Cols {
				if er, ec := r+(s.K-1)*d[0], c+(s.K-1)*d[1]; er < s.Rows && ec >= 0 && ec < s.Cols {
					starts |= 1 << (r*s.Cols + c)
				}
			}
		}
		if starts != 0 {
			out = append(out, run{step: uint(d[0]*s.Cols + d[1]), starts: starts})
		}
	}
	return out
}

// Won reports whether the cells of m hold a winning line.
func (g *Game) Won(m Mask) bool {
	if g.wins != nil {
		return g.wins[m/64]>>(m%64)&1 == 1
	}
	return g.hasLine(m)
}

// Status gives a board's status from the bitmask lines: X's line first, then
// O's, then a full board is a draw. It says who has a line, not who won: that
// depends on the goal of the rules. On boards that cannot arise, where both
// have a line, it says x_won.
func (g *Game) Status(b Board) Status {
	switch {
	case g.Won(b.X):
		return XWon
	case g.Won(b.O):
		return OWon
	case b.X|b.O == g.full:
		return Draw
	}
	return InProgress
}

// Lined gives the cells of every complete line on b, of either side: the
// line that ended a finished game.
func (g *Game) Lined(b Board) Mask {
	var cells Mask
	for _, l := range g.Lines {
		if b.X&l == l || b.O&l == l {
			cells |= l
		}
	}
	return cells
}

// Full is the mask of every cell of the board.
func (g *Game) Full() Mask { return g.full }
