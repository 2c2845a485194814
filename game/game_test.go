package game

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestNewSpec(t *testing.T) {
	tests := []struct {
		name          string
		rows, cols, k int
		want          Spec
		wantErr       string
	}{
		{"tic-tac-toe", 3, 3, 3, Spec{3, 3, 3}, ""},
		{"k defaults to shorter side", 3, 4, 0, Spec{3, 4, 3}, ""},
		{"k shorter than side", 4, 4, 3, Spec{4, 4, 3}, ""},
		{"k along the longer side", 2, 5, 5, Spec{2, 5, 5}, ""},
		{"empty side", 0, 3, 0, Spec{}, "size 0x3 has an empty side"},
		{"k too long", 3, 3, 7, Spec{}, "k 7 does not fit a 3x3 board, want 1 to 3"},
		{"negative k", 3, 3, -1, Spec{}, "k -1 does not fit"},
		{"too many cells", 9, 8, 0, Spec{}, "size 9x8 has more cells than the game model holds: at most 64"},
		{"the largest", 8, 8, 4, Spec{Rows: 8, Cols: 8, K: 4}, ""},
		// rows*cols wraps around to 8 and to -1 in 64 bits: each side is checked first.
		{"product wraps to 8", 6148914691236517208, 3, 0, Spec{}, "size 6148914691236517208x3 has more cells"},
		{"product wraps to -1", 4294967297, 4294967295, 0, Spec{}, "has more cells than the game model holds"},
		{"one huge side", 3, 6148914691236517208, 0, Spec{}, "has more cells than the game model holds"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := NewSpec(tt.rows, tt.cols, tt.k)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("NewSpec(%d, %d, %d) error = %v, want it to contain %q", tt.rows, tt.cols, tt.k, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("NewSpec(%d, %d, %d) = %v, %v; want %v", tt.rows, tt.cols, tt.k, got, err, tt.want)
			}
		})
	}
}

func TestParseSize(t *testing.T) {
	tests := []struct {
		in         string
		rows, cols int
		wantErr    bool
	}{
		{"3x3", 3, 3, false},
		{"4X4", 4, 4, false},
		{" 3x4 ", 3, 4, false},
		{"3", 0, 0, true},
		{"3x", 0, 0, true},
		{"axb", 0, 0, true},
		{"", 0, 0, true},
		{"99999999999999999999x3", 0, 0, true},
		{"3x6148914691236517208", 3, 6148914691236517208, false}, // NewSpec refuses it
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			r, c, err := ParseSize(tt.in)
			if (err != nil) != tt.wantErr || r != tt.rows || c != tt.cols {
				t.Fatalf("ParseSize(%q) = %d, %d, %v; want %d, %d, error %v", tt.in, r, c, err, tt.rows, tt.cols, tt.wantErr)
			}
		})
	}
}

func TestParseFormat(t *testing.T) {
	s := Default
	tests := []struct {
		name, in, want string
	}{
		{"canonical", "XO./.X./..O", "XO./.X./..O"},
		{"no separators", "XO..X...O", "XO./.X./..O"},
		{"lower case and other empties", "xo-/_x /..o", "XO./.X./..O"},
		{"empty board", ".........", ".../.../..."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := s.Parse(tt.in)
			if err != nil {
				t.Fatalf("(%q).Parse() error: %v", tt.in, err)
			}
			if got := s.Format(b); got != tt.want {
				t.Fatalf("(Parse(%q)).Format() = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"too few cells", "XOX/OX", `board "XOX/OX" has 5 cells, want 9 for 3x3`},
		{"too few without separators", "XOXOX", `board "XOXOX" has 5 cells, want 9 for 3x3`},
		{"too many cells", "XOXOXOXOXO", `board "XOXOXOXOXO" has 10 cells, want 9 for 3x3`},
		{"bad character", "XOZ/.../...", `board "XOZ/.../..." has 'Z' at character 3`},
		{"long row", "XOXO/../...", `board "XOXO/../..." has 4 cells in row 1, want 3`},
		{"too few rows", "XOX/OXOXOX", `board "XOX/OXOXOX" has 2 rows of cells split by '/', want 3 rows of 3`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Default.Parse(tt.in)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("(%q).Parse() error = %v, want it to contain %q", tt.in, err, tt.want)
			}
		})
	}
}

func TestIDRoundTrip(t *testing.T) {
	for id := range Pow3(9) {
		b := FromID(id)
		if got := ID(b); got != id {
			t.Fatalf("ID(FromID(%d)) = %d", id, got)
		}
	}
	// A board of MaxIDCells cells with every cell set round-trips too, as
	// does the largest id of all.
	for _, b := range []Board{{X: 0x55_5555_5555, O: 0xaa_aaaa_aaaa}, {O: 1<<MaxIDCells - 1}} {
		if got := FromID(ID(b)); got != b {
			t.Fatalf("FromID(ID(%+v)) = %+v", b, got)
		}
	}
	if got, want := ID(Board{O: 1<<MaxIDCells - 1}), Pow3(MaxIDCells)-1; got != want {
		t.Fatalf("the largest id is %d, want 3^40-1 = %d", got, want)
	}
}

func TestIDDigits(t *testing.T) {
	b, _ := Default.Parse("X.O/.../...")
	if got, want := ID(b), uint64(1*1+2*9); got != want {
		t.Fatalf("ID(X.O/.../...) = %d, want %d (1*3^0 + 2*3^2)", got, want)
	}
}

func TestLines(t *testing.T) {
	tests := []struct {
		spec Spec
		want int
	}{
		{Spec{3, 3, 3}, 8},
		{Spec{4, 4, 4}, 10},
		{Spec{4, 4, 3}, 24},
		{Spec{3, 4, 3}, 14},
		{Spec{1, 3, 1}, 3},
		{Spec{2, 2, 2}, 6},
	}
	for _, tt := range tests {
		t.Run(tt.spec.String(), func(t *testing.T) {
			if got := len(New(tt.spec).Lines); got != tt.want {
				t.Fatalf("%v has %d lines, want %d", tt.spec, got, tt.want)
			}
		})
	}
}

func TestStatus(t *testing.T) {
	g := New(Default)
	tests := []struct {
		board string
		want  Status
	}{
		{".../.../...", InProgress},
		{"XXX/OO./...", XWon},
		{"X.O/XO./O.X", OWon},
		{"XOX/XOO/OXX", Draw},
		{"XOX/OXO/OXO", InProgress + Draw},
	}
	for _, tt := range tests {
		t.Run(tt.board, func(t *testing.T) {
			b, err := Default.Parse(tt.board)
			if err != nil {
				t.Fatal(err)
			}
			if got := g.Status(b); got != tt.want {
				t.Fatalf("Status(%s) = %v, want %v", tt.board, got, tt.want)
			}
		})
	}
}

func TestSymmetries(t *testing.T) {
	tests := []struct {
		spec Spec
		want int
	}{
		{Spec{3, 3, 3}, 8},
		{Spec{3, 4, 3}, 4},
		{Spec{4, 4, 4}, 8},
	}
	for _, tt := range tests {
		t.Run(tt.spec.String(), func(t *testing.T) {
			g := New(tt.spec)
			syms := BoardSymmetries(tt.spec)
			if got := len(syms); got != tt.want {
				t.Fatalf("%v has %d symmetries, want %d", tt.spec, got, tt.want)
			}
			// Every symmetry is a permutation that maps lines onto lines.
			lines := map[Mask]bool{}
			for _, l := range g.Lines {
				lines[l] = true
			}
			for s, p := range syms {
				for _, l := range g.Lines {
					if m := Transform(Board{X: l}, p).X; !lines[m] {
						t.Fatalf("symmetry %d sends line %b to %b, not a line", s, l, m)
					}
				}
			}
		})
	}
}

func TestCanonical(t *testing.T) {
	// Burnside: over all raw 3x3 boards, each class is counted once by its
	// canonical member, and the orbits of those members cover every board.
	syms := BoardSymmetries(Default)
	tab := NewSymTable(Default, syms)
	var classes, covered uint64
	for id := range Pow3(9) {
		canon, orbit := tab.Canonical(id)
		if canon > id {
			t.Fatalf("Canonical(%d) = %d, want at most the id itself", id, canon)
		}
		// The table lookup agrees with moving the bits one symmetry at a time.
		want := id
		for _, p := range syms {
			want = min(want, ID(Transform(FromID(id), p)))
		}
		if canon != want {
			t.Fatalf("Canonical(%d) = %d, want %d", id, canon, want)
		}
		if canon == id {
			classes++
			covered += uint64(orbit)
		}
	}
	if covered != Pow3(9) {
		t.Fatalf("orbits of canonical boards cover %d boards, want %d", covered, Pow3(9))
	}
	// 3^9 boards make 2,862 classes under the 8 symmetries of the square (OEIS A054247 for n=3).
	if classes != 2862 {
		t.Fatalf("%d classes of raw 3x3 boards, want 2862", classes)
	}
}

// Canonical equals the smallest id over the boards each symmetry makes, one
// cell at a time, on every raw board of small shapes and on a spread of raw
// boards of larger ones (every id a prime stride apart), for the symmetries
// of the board and for the identity and mirror alone (gravity's).
func TestCanonicalShapes(t *testing.T) {
	tests := []struct {
		spec   Spec
		stride uint64
	}{
		{Spec{Rows: 2, Cols: 3, K: 2}, 1},
		{Spec{Rows: 3, Cols: 4, K: 3}, 1},
		{Spec{Rows: 4, Cols: 4, K: 4}, 7919},
		{Spec{Rows: 3, Cols: 7, K: 4}, 1_000_003},
		{Spec{Rows: 5, Cols: 5, K: 4}, 100_000_007},
	}
	for _, tt := range tests {
		all := BoardSymmetries(tt.spec)
		for name, perms := range map[string][][]int{"all": all, "mirror": all[:2]} {
			t.Run(fmt.Sprintf("%v/%s", tt.spec, name), func(t *testing.T) {
				tab := NewSymTable(tt.spec, perms)
				for id := uint64(0); id < Pow3(tt.spec.Cells()); id += tt.stride {
					want, images := id, map[uint64]bool{}
					for _, p := range perms {
						img := ID(Transform(FromID(id), p))
						want = min(want, img)
						images[img] = true
					}
					canon, orbit := tab.Canonical(id)
					if canon != want || orbit != len(images) {
						t.Fatalf("Canonical(%d) = %d, orbit %d; want %d, orbit %d", id, canon, orbit, want, len(images))
					}
				}
			})
		}
	}
}

// A table whose first permutation is not the identity is refused at once:
// Canonical would count a wrong image as the board itself.
func TestSymTableWantsIdentityFirst(t *testing.T) {
	all := BoardSymmetries(Default)
	defer func() {
		if recover() == nil {
			t.Fatal("NewSymTable took the mirror first, want a panic")
		}
	}()
	NewSymTable(Default, [][]int{all[1], all[0]})
}

// Canonical ids of 4x4 boards, one per call, over a spread of raw boards.
func BenchmarkCanonical4x4(b *testing.B) {
	s := Spec{Rows: 4, Cols: 4, K: 4}
	tab := NewSymTable(s, BoardSymmetries(s))
	id, n := uint64(0), Pow3(s.Cells())
	for b.Loop() {
		tab.Canonical(id)
		if id += 7919; id >= n {
			id -= n
		}
	}
}

// hasLine, by shifts, agrees with a walk of every cell and direction by
// row and column, on random cell sets of boards small and large, square
// and not, for several k.
func TestHasLine(t *testing.T) {
	tests := []Spec{{3, 3, 3}, {4, 4, 4}, {4, 4, 3}, {5, 5, 4}, {4, 7, 4}, {6, 7, 4}, {3, 8, 3}, {7, 9, 5}, {1, 5, 1}, {2, 6, 2}, {8, 8, 8}}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, s := range tests {
		t.Run(s.String(), func(t *testing.T) {
			g := New(s)
			for range 20000 {
				a, b, c, d := rng.Uint64(), rng.Uint64(), rng.Uint64(), rng.Uint64()
				m := Mask(a&b|c&d) & g.full // each cell 7 times in 16
				if got, want := g.hasLine(m), walkLine(s, m); got != want {
					t.Fatalf("hasLine(%s) = %v, want %v", s.Format(Board{X: m}), got, want)
				}
			}
		})
	}
}

// walkLine reports whether m holds k cells in a row in some direction,
// walking the board by row and column.
func walkLine(s Spec, m Mask) bool {
	in := func(r, c int) bool { return r >= 0 && r < s.Rows && c >= 0 && c < s.Cols && m>>(r*s.Cols+c)&1 == 1 }
	for r := range s.Rows {
		for c := range s.Cols {
			for _, d := range [][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}} {
				n := 0
				for n < s.K && in(r+n*d[0], c+n*d[1]) {
					n++
				}
				if n == s.K {
					return true
				}
			}
		}
	}
	return false
}
