package game

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"
)

// BoardSymmetries lists the cell permutations that map a board of s onto
// itself: the 8 of the square or the 4 of a rectangle, the identity first and
// the left-right mirror second. Every one maps lines onto lines; which of them
// also map legal play onto legal play is a question for the rules.
func BoardSymmetries(s Spec) [][]int {
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

// Transform gives the board with every mark on cell i moved to cell perm[i].
func Transform(b Board, perm []int) Board {
	var t Board
	for x := uint64(b.X); x != 0; x &= x - 1 {
		t.X |= 1 << perm[bits.TrailingZeros64(x)]
	}
	for o := uint64(b.O); o != 0; o &= o - 1 {
		t.O |= 1 << perm[bits.TrailingZeros64(o)]
	}
	return t
}

// Least gives the least of b's images under perms (the identity among
// them), ordered by their X marks, then their O marks, as numbers: one board
// stands for each class of boards equal up to those symmetries, on boards of
// any size, with no state id. orbit is how many distinct images b has.
func Least(b Board, perms [][]int) (least Board, orbit int) {
	least = b
	var seen [8]Board
	for _, p := range perms {
		t := Transform(b, p)
		if !slices.Contains(seen[:orbit], t) {
			seen[orbit] = t
			orbit++
		}
		if CompareBoards(t, least) < 0 {
			least = t
		}
	}
	return least, orbit
}

// CompareBoards orders boards by their X marks, then their O marks, as
// numbers.
func CompareBoards(a, b Board) int {
	return cmp.Or(cmp.Compare(a.X, b.X), cmp.Compare(a.O, b.O))
}

// SymTable computes canonical state ids under a set of cell permutations
// (which must hold the identity first and be closed under composition),
// eight cells at a time through precomputed tables. It is safe for
// concurrent use.
type SymTable struct {
	perms  [][]int
	nch    int
	tabs32 [][]uint32 // when every id fits 32 bits (boards of at most 20 cells): half the cache
	tabs64 [][]uint64 // otherwise
}

// symChunk is the type of a table's entries.
type symChunk interface{ uint32 | uint64 }

// NewSymTable builds the tables for the permutations perms of boards of s:
// tabs[s*nch+c][v], the id contribution of chunk c with id v under
// permutation s.
func NewSymTable(s Spec, perms [][]int) *SymTable {
	// Canonical takes the first permutation's image to be the board itself.
	for i, c := range perms[0] {
		if c != i {
			panic(fmt.Sprintf("game: NewSymTable: the first permutation %v is not the identity", perms[0]))
		}
	}
	t := &SymTable{perms: perms, nch: (s.Cells() + 7) / 8}
	if Pow3(s.Cells()) <= 1<<32 {
		t.tabs32 = symTables[uint32](s, perms, t.nch)
	} else {
		t.tabs64 = symTables[uint64](s, perms, t.nch)
	}
	return t
}

func symTables[T symChunk](s Spec, perms [][]int, nch int) [][]T {
	var tabs [][]T
	for _, p := range perms {
		for c := range nch {
			tab := make([]T, chunk)
			for v := range chunk {
				d := dec[v]
				for j := range 8 {
					if i := 8*c + j; i < s.Cells() {
						tab[v] += T(uint64(d[0]>>j&1)+2*uint64(d[1]>>j&1)) * T(Pow3(p[i]))
					}
				}
			}
			tabs = append(tabs, tab)
		}
	}
	return tabs
}

// Perms gives the permutations of the table; Perms()[0] is the identity.
func (t *SymTable) Perms() [][]int { return t.perms }

// Canonical gives the smallest state id over the permutations of the board
// with state id id, and the orbit size: how many distinct boards they make.
func (t *SymTable) Canonical(id uint64) (canon uint64, orbit int) {
	var digits [MaxCells / 8]uint64
	v := id
	for c := range t.nch {
		digits[c] = v % chunk
		v /= chunk
	}
	var fixed int
	if t.tabs32 != nil {
		canon, fixed = images(t.tabs32, t.nch, &digits, id)
	} else {
		canon, fixed = images(t.tabs64, t.nch, &digits, id)
	}
	return canon, len(t.perms) / fixed
}

// images gives the smallest id over the images of the board with state id id
// (digits in chunks of eight cells) and how many images are the board itself.
// The identity's image, first, is id.
func images[T symChunk](tabs [][]T, nch int, digits *[MaxCells / 8]uint64, id uint64) (canon uint64, fixed int) {
	canon, fixed = id, 1
	for s := nch; s < len(tabs); s += nch {
		var img uint64
		for c, tab := range tabs[s : s+nch] {
			img += uint64(tab[digits[c]])
		}
		canon = min(canon, img)
		if img == id {
			fixed++
		}
	}
	return canon, fixed
}
