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

// Game holds the rules of one Spec, computed once: its winning lines as masks
// and its symmetries. A Game is safe for concurrent use.
type Game struct {
	Spec  Spec
	Lines []Mask  // every window of K cells in a row, column or diagonal, sorted
	Syms  [][]int // Syms[s][i] is where symmetry s sends cell i; Syms[0] is the identity
	full  Mask
	wins  []uint64   // for boards of at most 16 cells: bit m is set when mask m holds a line
	symID [][]uint64 // symID[s*chunks+c][v]: the id contribution of chunk c with id v under symmetry s
	nch   int
}

// New computes the rules of a validated Spec.
func New(s Spec) *Game {
	g := &Game{Spec: s, full: full(s), Lines: lines(s), Syms: symmetries(s)}
	if s.Cells() <= 16 {
		g.wins = make([]uint64, (1<<s.Cells()+63)/64)
		for m := range 1 << s.Cells() {
			if g.hasLine(Mask(m)) {
				g.wins[m/64] |= 1 << (m % 64)
			}
		}
	}
	g.nch = (s.Cells() + 7) / 8
	for _, p := range g.Syms {
		for c := range g.nch {
			t := make([]uint64, chunk)
			for v := range chunk {
				d := dec[v]
				for j := range 8 {
					i := 8*c + j
					if i < s.Cells() {
						t[v] += (uint64(d[0]>>j&1) + 2*uint64(d[1]>>j&1)) * Pow3(p[i])
					}
				}
			}
			g.symID = append(g.symID, t)
		}
	}
	return g
}

// lines lists the windows of k cells along every row, column, diagonal and
// anti-diagonal, each as a mask, sorted and without repeats (for k=1 the four
// directions give the same windows).
func lines(s Spec) []Mask {
	var out []Mask
	dirs := [][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}}
	for r := range s.Rows {
		for c := range s.Cols {
			for _, d := range dirs {
				er, ec := r+(s.K-1)*d[0], c+(s.K-1)*d[1]
				if er >= s.Rows || ec < 0 || ec >= s.Cols {
					continue
				}
				var m Mask
				for j := range s.K {
					m |= 1 << ((r+j*d[0])*s.Cols + c + j*d[1])
				}
				out = append(out, m)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// symmetries lists the cell permutations that map the board onto itself: the 8
// of the square, or the 4 of a rectangle. Every one maps lines onto lines.
func symmetries(s Spec) [][]int {
	type f func(r, c int) (int, int)
	R, C := s.Rows-1, s.Cols-1
	maps := []f{
		func(r, c int) (int, int) { return r, c },
		func(r, c int) (int, int) { return r, C - c },
		func(r, c int) (int, int) { return R - r, c },
		func(r, c int) (int, int) { return R - r, C - c },
	}
	if s.Square() {
		maps = append(maps,
			func(r, c int) (int, int) { return c, r },
			func(r, c int) (int, int) { return C - c, r },
			func(r, c int) (int, int) { return c, R - r },
			func(r, c int) (int, int) { return C - c, R - r },
		)
	}
	out := make([][]int, len(maps))
	for k, m := range maps {
		out[k] = make([]int, s.Cells())
		for i := range s.Cells() {
			r, c := m(i/s.Cols, i%s.Cols)
			out[k][i] = r*s.Cols + c
		}
	}
	return out
}

func (g *Game) hasLine(m Mask) bool {
	for _, l := range g.Lines {
		if m&l == l {
			return true
		}
	}
	return false
}

// Won reports whether the cells of m hold a winning line.
func (g *Game) Won(m Mask) bool {
	if g.wins != nil {
		return g.wins[m/64]>>(m%64)&1 == 1
	}
	return g.hasLine(m)
}

// Status gives a board's status from the bitmask lines: X's line first, then
// O's, then a full board is a draw. On boards that cannot arise, where both
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

// Full is the mask of every cell of the board.
func (g *Game) Full() Mask { return g.full }

// Transform gives the board under symmetry s (an index into Syms).
func (g *Game) Transform(b Board, s int) Board {
	var t Board
	p := g.Syms[s]
	for x := uint32(b.X); x != 0; x &= x - 1 {
		t.X |= 1 << p[bits.TrailingZeros32(x)]
	}
	for o := uint32(b.O); o != 0; o &= o - 1 {
		t.O |= 1 << p[bits.TrailingZeros32(o)]
	}
	return t
}

// Canonical gives the smallest state id over the symmetries of the board with
// state id id, and the orbit size: how many distinct boards the symmetries make.
func (g *Game) Canonical(id uint64) (canon uint64, orbit int) {
	var digits [MaxCells / 8]uint64
	v := id
	for c := range g.nch {
		digits[c] = v % chunk
		v /= chunk
	}
	canon, fixed := id, 0
	for s := range g.Syms {
		var t uint64
		for c, tab := range g.symID[s*g.nch : (s+1)*g.nch] {
			t += tab[digits[c]]
		}
		canon = min(canon, t)
		if t == id {
			fixed++
		}
	}
	return canon, len(g.Syms) / fixed
}
