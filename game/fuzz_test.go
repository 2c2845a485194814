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
		b, err := Parse(s, text)
		if err != nil {
			return
		}
		if b.X&b.O != 0 || (b.X|b.O)&^full(s) != 0 {
			t.Fatalf("Parse(%v, %q) = %+v: overlapping or out-of-board cells", s, text, b)
		}
		out := Format(s, b)
		back, err := Parse(s, out)
		if err != nil || back != b {
			t.Fatalf("Parse(Format(%+v)) = %+v, %v; want the board back", b, back, err)
		}
		if FromID(ID(b)) != b {
			t.Fatalf("FromID(ID(%+v)) differs", b)
		}
	})
}

func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"3x3", "4X4", "3", "x", "0x3", "-1x2", "99999999999999999999x1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		rows, cols, err := ParseSize(text)
		if err != nil {
			return
		}
		r2, c2, err := ParseSize(fmt.Sprintf("%dx%d", rows, cols))
		if err != nil || r2 != rows || c2 != cols {
			t.Fatalf("ParseSize(%q) = %d, %d but its printed form reads back as %d, %d, %v", text, rows, cols, r2, c2, err)
		}
	})
}
