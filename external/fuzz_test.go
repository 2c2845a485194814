package external

import (
	"slices"
	"strconv"
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/protocol"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

// FuzzParseCheck reads any --check: what it reads, written back by
// String, reads the same.
func FuzzParseCheck(f *testing.F) {
	for _, s := range []string{"value", "value,depth", "value,best", "value,depth,best", "best,value", "depth", "value,,best", "value,value"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCheck(s)
		if err != nil {
			return
		}
		back, err := ParseCheck(c.String())
		if err != nil || back != c {
			t.Fatalf("ParseCheck(%q) = %+v, written %q, read back as %+v, %v", s, c, c.String(), back, err)
		}
	})
}

// FuzzAnswer reads any line as a solver program's answer on an empty cell
// of a 3x3 board, the value, depth and best moves all checked: an answer
// read has a value of the three, a depth of zero or more plies, and best
// moves on distinct cells, in order; anything else is an error, never a
// panic.
func FuzzAnswer(f *testing.F) {
	for _, s := range []string{"1 5 4", "0 9 0 2 6 8", "-1 2", "1", "", "win 3 4", "1 -2 4", "1 300 4", "0 9 4 4", "1 5 9", "1 5 x"} {
		f.Add(s)
	}
	rl := rules.Classic(game.Default)
	x := &Solver{Values: [3]string{"1", "0", "-1"}, Check: Check{Depth: true, Best: true}, Moves: protocol.Cell}
	values := map[string]perfect.Value{"1": perfect.XWins, "0": perfect.Draw, "-1": perfect.OWins}
	f.Fuzz(func(t *testing.T, line string) {
		a, err := x.parse(rl, game.Board{}, line, values)
		if err != nil {
			return
		}
		if a.Value < -1 || a.Value > 1 || a.Depth == nil || *a.Depth < 0 {
			t.Fatalf("%q read as value %d, depth %v", line, a.Value, a.Depth)
		}
		var cells []int
		for _, m := range a.Best {
			c, err := strconv.Atoi(m)
			if err != nil || c < 0 || c >= game.Default.Cells() {
				t.Fatalf("%q read with best move %q, not a cell", line, m)
			}
			cells = append(cells, c)
		}
		if !slices.IsSorted(cells) || len(slices.Compact(slices.Clone(cells))) != len(cells) {
			t.Fatalf("%q read with best moves %q, want distinct cells in order", line, a.Best)
		}
	})
}
