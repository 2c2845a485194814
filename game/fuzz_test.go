package game

import (
	"fmt"
	"testing"
)

func FuzzParse(f *testing.F) {
	for _, s := range []string{"XO./.X./..O", "xo-_x ...o", ".........", "XOX/OX", "XOZ/.../...", "////", "ÿ"} {
		f.Add(3, 3, s)
	}
	f.Add(4, 4, "..../.xo./.ox./....")
	f.Fuzz(func(t *testing.T, rows, cols int, text string) {
		s, err := NewSpec(rows, cols, 0)
		if err != nil {
			return
		}
		b, err := s.Parse(text)
		if err != nil {
			return
		}
		if b.X&b.O != 0 || (b.X|b.O)&^full(s) != 0 {
			t.Fatalf("(%v).Parse(%q) = %+v: overlapping or out-of-board cells", s, text, b)
		}
		out := s.Format(b)
		back, err := s.Parse(out)
		if err != nil || back != b {
			t.Fatalf("(Format(%+v)).Parse() = %+v, %v; want the board back", b, back, err)
		}
		if FromID(ID(b)) != b {
			t.Fatalf("FromID(ID(%+v)) differs", b)
		}
	})
}

// Sizes of every magnitude parse and validate without a panic, and a size
// that validates is small enough to build.
func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"3x3", "4X4", "3", "x", "0x3", "-1x2", "99999999999999999999x1",
		"3x6148914691236517208", "6148914691236517208x3", "4294967297x4294967295", "-9223372036854775808x-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		rows, cols, err := ParseSize(text)
		if err != nil {
			if len(err.Error()) > 300 {
				t.Fatalf("ParseSize(%q) error is %d characters long, want the input cut", text, len(err.Error()))
			}
			return
		}
		if s, err := NewSpec(rows, cols, 0); err == nil {
			if s.Cells() > MaxCells || s.Cells() < 1 {
				t.Fatalf("NewSpec(%d, %d) = %v with %d cells, want at most %d", rows, cols, s, s.Cells(), MaxCells)
			}
			New(s)
		}
		r2, c2, err := ParseSize(fmt.Sprintf("%dx%d", rows, cols))
		if err != nil || r2 != rows || c2 != cols {
			t.Fatalf("ParseSize(%q) = %d, %d but its printed form reads back as %d, %d, %v", text, rows, cols, r2, c2, err)
		}
	})
}
