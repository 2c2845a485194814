package grade

import (
	"strings"
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Every opening ReadOpenings gives replays to its board, and its game goes
// on; anything else is refused.
func FuzzReadOpenings(f *testing.F) {
	c4 := rules.New(rules.Spec{Spec: game.Spec{Rows: 6, Cols: 7, K: 4}, Gravity: true})
	f.Add("44\n4453 1\n# a comment\n")
	f.Add("......./......./......./......./......./...X...\n")
	f.Add("1212121\n")
	f.Fuzz(func(t *testing.T, text string) {
		ops, err := ReadOpenings(c4, strings.NewReader(text))
		if err != nil {
			return
		}
		for _, o := range ops {
			var b game.Board
			for _, c := range o.Cells {
				b = b.Play(c, b.ToMove())
			}
			if over, _ := c4.Outcome(b); b != o.Board || over {
				t.Errorf("read %q: opening %v makes %s (over %t), want its board, in play", text, o.Cells, c4.Spec().Format(b), over)
			}
		}
	})
}
