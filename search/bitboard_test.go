package search

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/longtest"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
)

// The fast ways to find the cells that complete a line (k = 4 written out,
// its shifts constant for layouts of 4 to 7 rows, and runs for any k up to
// 8) give what checking every window gives: under gravity with k = 4 at
// every cell whose cell above is not one of the marks (winning's contract),
// elsewhere at every cell.
func TestWinning(t *testing.T) {
	tests := []struct {
		rows, cols, k int
		gravity       bool
	}{
		{6, 7, 4, true}, {7, 8, 4, true}, {4, 4, 4, true}, {5, 6, 4, true}, {3, 8, 4, true}, {8, 7, 4, true},
		{4, 4, 3, true}, {5, 6, 2, true}, {6, 7, 5, true}, {7, 8, 8, true}, {7, 8, 1, true},
		{4, 4, 4, false}, {5, 5, 4, false}, {4, 6, 4, false}, {4, 7, 4, false}, {3, 8, 4, false}, {5, 5, 3, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%dx%d k=%d gravity=%v", tt.rows, tt.cols, tt.k, tt.gravity), func(t *testing.T) {
			g := newGeometry(tt.rows, tt.cols, tt.k, tt.gravity, false)
			rng := rand.New(rand.NewPCG(uint64(tt.k), 3))
			for range 2000 {
				m := rng.Uint64() & rng.Uint64() & g.full // about a quarter of the cells
				asked := g.full
				if tt.gravity && tt.k == 4 {
					asked &^= m >> 1 // the cells below a mark
				}
				if got, want := g.winning(m)&asked, g.winningSlow(m)&asked; got != want {
					t.Fatalf("marks %#x: winning %#x, want %#x", m, got, want)
				}
			}
		})
	}
}

// On a packed layout (no spare bit; the boards past Pons' layout, and small
// ones laid out so to be checked), lined and winning agree with package
// game's lines, an independent reference: lined where game finds a line,
// on any marks; winning, on marks with no line, at each empty cell whose
// mark would make one; and
// under gravity playable gives the lowest empty cell of each column.
func TestPacked(t *testing.T) {
	tests := []struct {
		rows, cols, k int
		gravity       bool
	}{
		{8, 8, 4, true}, {7, 9, 4, true}, {8, 8, 5, true}, {6, 7, 4, true}, {4, 4, 3, true}, {2, 9, 2, true},
		{6, 6, 4, false}, {8, 8, 5, false}, {5, 6, 4, false}, {7, 9, 6, false}, {1, 64, 3, false}, {8, 8, 8, false}, {3, 3, 3, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%dx%d k=%d gravity=%v", tt.rows, tt.cols, tt.k, tt.gravity), func(t *testing.T) {
			g := newGeometry(tt.rows, tt.cols, tt.k, tt.gravity, true)
			ref := game.New(game.Spec{Rows: tt.rows, Cols: tt.cols, K: tt.k})
			n := tt.rows * tt.cols
			rng := rand.New(rand.NewPCG(uint64(n), uint64(tt.k)))
			for range 500 {
				cells := rng.Uint64() & rng.Uint64() & (1<<n - 1) // n is less than 64 or the shift gives all cells
				if n == 64 {
					cells = rng.Uint64() & rng.Uint64()
				}
				m := g.fromCells(cells)
				if got, want := g.lined(m), ref.Won(game.Mask(cells)); got != want {
					t.Fatalf("cells %#x: lined %v, want %v", cells, got, want)
				}
				for ref.Won(game.Mask(cells)) { // a mark fewer, till none is in a line: every line then needs the new mark
					cells &^= 1 << nthBit(cells, rng.IntN(marks(cells)))
				}
				m = g.fromCells(cells)
				var want uint64
				for c := range n {
					if cells>>c&1 == 0 && ref.Won(game.Mask(cells|1<<c)) {
						want |= g.fromCells(1 << c)
					}
				}
				if got := g.winning(m) &^ m; got != want {
					t.Fatalf("cells %#x: winning %#x, want %#x", cells, got, want)
				}
			}
			if tt.gravity {
				checkPlayable(t, g, rng)
			}
		})
	}
}

// checkPlayable fills the columns of g to random heights and asks playable
// for the cell above each column that is not full.
func checkPlayable(t *testing.T, g *geometry, rng *rand.Rand) {
	t.Helper()
	for range 500 {
		var mask, want uint64
		for c := range g.cols {
			h := rng.IntN(g.rows + 1)
			mask |= (1<<h - 1) << (c * g.stride)
			if h < g.rows {
				want |= 1 << (c*g.stride + h)
			}
		}
		if got := g.playable(mask); got != want {
			t.Fatalf("marks %#x: playable %#x, want %#x", mask, got, want)
		}
	}
}

// A wide table finds an entry only by both words of its key: the hash and
// the second word that, with it, names the position.
func TestWideTable(t *testing.T) {
	tt := newTable(MinTableBits, MinTableBits, true)
	h, v := uint64(0x0123456789abcdef), uint64(42)
	tt.putWide(h, v, -7, lower)
	tests := []struct {
		name string
		h, v uint64
		ok   bool
	}{
		{"its key", h, v, true},
		{"another second word", h, v + 1, false},
		{"another hash", h + 1, v, false},
	}
	for _, c := range tests {
		score, flag, ok := tt.getWide(c.h, c.v)
		if ok != c.ok || ok && (score != -7 || flag != lower) {
			t.Errorf("%s: got %d, %d, %v; want -7, %d, %v", c.name, score, flag, ok, lower, c.ok)
		}
	}
}

// The mirror of a position's key is the key of its mirror image, and the
// mirror of a set of marks the image's marks, on Connect Four's layout
// (whose shifts are constants), on layouts of an odd and an even number
// of columns, with a spare bit a column or packed, under gravity or free
// placement (whose keys are marks above marks, mirrored apart).
func TestMirror(t *testing.T) {
	tests := []struct {
		name            string
		rows, cols      int
		gravity, packed bool
		keyed           bool // keys are marks plus all marks (Pons' layout)
	}{
		{"Connect Four", 6, 7, true, false, true},
		{"7x6, packed", 6, 7, true, true, false},
		{"6x5", 5, 6, true, false, true},
		{"5x4", 4, 5, true, false, true},
		{"7x7", 7, 7, true, false, true},
		{"8x8, packed", 8, 8, true, false, false},
		{"free 5x5", 5, 5, false, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newGeometry(tt.rows, tt.cols, 4, tt.gravity, tt.packed)
			rng := rand.New(rand.NewPCG(1, 2))
			for range 1000 {
				x, o, mx, mo := randomColumns(rng, tt.rows, tt.cols)
				if got, want := g.mirror(g.fromCells(x)), g.fromCells(mx); got != want {
					t.Fatalf("mirror of the marks %#x is %#x, want the image's %#x", g.fromCells(x), got, want)
				}
				if !tt.keyed {
					continue
				}
				key := func(x, o uint64) uint64 { return g.fromCells(x) + g.fromCells(x|o) }
				if got, want := g.mirror(key(x, o)), key(mx, mo); got != want {
					t.Fatalf("mirror of the key %#x is %#x, want the image's key %#x", key(x, o), got, want)
				}
			}
		})
	}
}

// randomColumns gives a random position of a gravity board, each column
// filled to a random height, as X's and O's cells, and its mirror image's.
func randomColumns(rng *rand.Rand, rows, cols int) (x, o, mx, mo uint64) {
	for c := range cols {
		for r := range rng.IntN(rows + 1) {
			cell := (rows-1-r)*cols + c
			image := (rows-1-r)*cols + cols - 1 - c
			if rng.IntN(2) == 0 {
				x, mx = x|1<<cell, mx|1<<image
			} else {
				o, mo = o|1<<cell, mo|1<<image
			}
		}
	}
	return x, o, mx, mo
}

// The bound of claimeven holds for the exact score of every position where
// evenTops says it may be asked, from the exhaustive solve, of gravity
// boards with an even and an odd number of rows; it bounds some positions
// by 0 and some by -1, with no odd top and with some (over the boards); and
// evenTops holds for a position or for each of its children, never both.
func TestClaimeven(t *testing.T) {
	seen := map[string]int{}
	for _, c := range []gravityCase{{4, 4, 4, false}, {5, 4, 4, false}, {4, 5, 3, false}, {3, 4, 3, false}, {4, 4, 4, true}, {5, 4, 4, true}} {
		eachSolved(t, c, 16, func(t *testing.T, g *geometry, board string, pos, mask uint64, score int) {
			odd := g.oddTops(mask)
			for m := g.playable(mask); m != 0; m &= m - 1 {
				if evenTops(g.oddTops(mask|m&-m)) == evenTops(odd) {
					t.Fatalf("%s: evenTops says %v of the position and of its child", board, evenTops(odd))
				}
			}
			if !evenTops(odd) {
				return
			}
			most, ok := g.claimeven(pos, mask, odd)
			switch {
			case !ok:
			case score > most:
				t.Fatalf("%s: claimeven bounds the mover's score by %d, the solve gives %d", board, most, score)
			default:
				seen[fmt.Sprintf("claimeven %d, odd tops %v", most, odd != 0)]++
			}
		})
	}
	for _, k := range []string{"claimeven 0, odd tops false", "claimeven -1, odd tops false", "claimeven 0, odd tops true", "claimeven -1, odd tops true"} {
		if seen[k] == 0 {
			t.Errorf("%s: no position; got %v", k, seen)
		}
	}
}

// TestOddThreat checks oddThreat against the exhaustive solve of every
// position in progress of gravity boards, in Pons' layout and packed: where
// it says the other side's threat wins, the mover's score is at most -1.
// Each board solved must see the rule said of some position.
func TestOddThreat(t *testing.T) {
	for _, c := range []gravityCase{{4, 4, 4, false}, {5, 4, 4, false}, {4, 5, 3, false}, {3, 4, 3, false}, {5, 4, 4, true}, {6, 4, 4, false}, {4, 6, 4, false}} {
		said := 0
		solved := eachSolved(t, c, 20, func(t *testing.T, g *geometry, board string, pos, mask uint64, score int) {
			if !g.oddThreat(pos, mask, g.winning(mask^pos)&^mask, g.oddTops(mask)) {
				return
			}
			said++
			if score > -1 {
				t.Fatalf("%s: oddThreat says the mover loses, the solve gives it %d", board, score)
			}
		})
		if solved && said == 0 {
			t.Errorf("%v: oddThreat said nothing of any position", c)
		}
	}
}

// oddAbove gives the empty cells an odd number of cells above their
// column's next cell, of every column height, counted cell by cell, in
// Pons' layout and packed.
func TestOddAbove(t *testing.T) {
	for _, size := range []struct {
		rows, cols int
		packed     bool
	}{{6, 7, false}, {5, 6, false}, {4, 5, false}, {7, 7, false}, {6, 7, true}, {8, 8, false}} {
		g := newGeometry(size.rows, size.cols, 4, true, size.packed)
		rng := rand.New(rand.NewPCG(3, 4))
		for range 1000 {
			var mask, want uint64
			for c := range g.cols {
				h := rng.IntN(g.rows + 1)
				for r := range g.rows {
					switch bit := uint64(1) << (c*g.stride + r); {
					case r < h:
						mask |= bit
					case (r-h)%2 == 1:
						want |= bit
					}
				}
			}
			if got := g.oddAbove(g.playable(mask)); got != want {
				t.Fatalf("%dx%d, marks %#x: oddAbove gives %#x, want %#x", g.cols, g.rows, mask, got, want)
			}
		}
	}
}

// oddThreat says what a reading of the rule column by column says, on
// random positions of Connect Four's board, in Pons' layout and packed.
func TestOddThreatByColumns(t *testing.T) {
	for _, packed := range []bool{false, true} {
		g := newGeometry(6, 7, 4, true, packed)
		rng := rand.New(rand.NewPCG(5, 6))
		said := 0
		for range 20000 {
			x, o, _, _ := randomColumns(rng, g.rows, g.cols)
			pos, mask := g.fromCells(x), g.fromCells(x|o)
			theirs := g.winning(mask^pos) &^ mask
			got, want := g.oddThreat(pos, mask, theirs, g.oddTops(mask)), oddThreatByColumns(g, pos, mask, theirs, g.oddTops(mask))
			if got != want {
				t.Fatalf("packed %v, marks %#x, mover's %#x: oddThreat says %v, column by column %v", packed, mask, pos, got, want)
			}
			if got {
				said++
			}
		}
		if said == 0 {
			t.Errorf("packed %v: no odd threat in any position", packed)
		}
	}
}

// oddThreatByColumns is oddThreat read off the rule a threat at a time,
// each threat's column found by its number.
func oddThreatByColumns(g *geometry, pos, mask, theirs, odd uint64) bool {
	top := g.playable(mask)
	for t := theirs &^ top; t != 0; {
		st := t & -t
		col := g.column(bits.TrailingZeros64(st) / g.stride)
		below := st - top&col
		if bits.OnesCount64(below)%2 == 0 {
			t &^= st
			continue
		}
		t &^= col
		others := odd &^ col
		if bits.OnesCount64(others)%2 != 0 {
			continue
		}
		mine := below & (top & col * 0x5555555555555555)
		if !g.lined(pos | g.full&^mask&^col&g.evenRows | others | mine) {
			return true
		}
	}
	return false
}

// A gravityCase is a gravity board, in Pons' layout or packed.
type gravityCase struct {
	rows, cols, k int
	packed        bool
}

// eachSolved solves c's game exhaustively and, in a subtest named for it,
// calls f with each position in progress: its board written out, its side
// to move's marks pos and all marks mask in c's layout g, and its exact
// score for the side to move. A board of more than most cells is solved only under
// the long checks' switch; solved says whether it was.
func eachSolved(t *testing.T, c gravityCase, most int, f func(t *testing.T, g *geometry, board string, pos, mask uint64, score int)) (solved bool) {
	rl := rules.New(gravity(c.rows, c.cols, c.k))
	t.Run(fmt.Sprintf("%s packed=%v", rl.Spec().Words(), c.packed), func(t *testing.T) {
		if n := rl.Spec().Cells(); n > most {
			longtest.Skip(t, fmt.Sprintf("every position of a %d-cell game", n))
		}
		sol, err := solve.Lean(context.Background(), rl, 2)
		if err != nil {
			t.Fatal(err)
		}
		g := newGeometry(c.rows, c.cols, c.k, true, c.packed)
		for _, i := range sol.Positions(false) {
			b := sol.Enum.Board(i)
			if over, _ := rl.Outcome(b); over {
				continue
			}
			pos, mask := g.fromCells(uint64(b.O)), g.fromCells(uint64(b.X|b.O))
			if b.ToMove() == game.X {
				pos = g.fromCells(uint64(b.X))
			}
			f(t, g, rl.Spec().Format(b), pos, mask, moverScore(b, sol.Value[i], sol.Depth[i], c.rows*c.cols))
		}
		solved = true
	})
	return solved
}

// moverScore gives the score, in search's units, of the side to move of b
// from its value for X and its depth.
func moverScore(b game.Board, value perfect.Value, depth perfect.Depth, cells int) int {
	if value == 0 {
		return 0
	}
	score := cells + 1 - (b.Ply() + int(depth))
	if (value > 0) != (b.ToMove() == game.X) {
		score = -score
	}
	return score
}
