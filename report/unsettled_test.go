package report

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/view"
)

// An answer cut short has one shape, whatever step it was cut in (issue
// 43, case 10): depth null, the value null unless the bounds meet, what is
// proved in its own field, and the text saying the same; a figure left in
// the analysis by an unfinished step is never shown.
func TestUnsettledShape(t *testing.T) {
	rl := rules.New(rules.Spec{Spec: game.Spec{Rows: 6, Cols: 7, K: 4}, Gravity: true})
	b, _ := rules.Play(rl, game.Board{}, "4")
	tests := []struct {
		name    string
		proved  perfect.Bounds
		value   string // the JSON's value
		outcome string
		text    string
	}{
		{"nothing proved", perfect.Unknown, "null", "not settled", "value: not settled within the time limit; proved: nothing yet"},
		{"O does not lose", perfect.Bounds{Low: perfect.OWins, High: perfect.Draw}, "null", "not settled", "proved: O does not lose"},
		{"the value proved, its depth not", perfect.Bounds{Low: perfect.XWins, High: perfect.XWins}, "1", "X wins", "value: X wins (proved; the depth and the moves not settled within the time limit)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Value and depth as a cut step may leave them: they must not show.
			a := perfect.Analysis{Spec: rl.Spec(), Board: b, Status: game.InProgress, ToMove: b.ToMove(),
				Value: perfect.OWins, Depth: 36, Paths: -1, Engine: "search", Proved: &tt.proved}
			p := view.NewPosition(a)
			data, err := json.Marshal(p)
			if err != nil {
				t.Fatal(err)
			}
			var got map[string]any
			if err := json.Unmarshal(data, &got); err != nil {
				t.Fatal(err)
			}
			if v, _ := json.Marshal(got["value"]); string(v) != tt.value || got["depth"] != nil || got["outcome"] != tt.outcome || got["proved"] == nil {
				t.Errorf("JSON value %s, depth %v, outcome %v, proved %v; want %s, null, %q and the bounds", v, got["depth"], got["outcome"], got["proved"], tt.value, tt.outcome)
			}
			var text strings.Builder
			if err := Text(&text, p, Style{}); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(text.String(), tt.text) || strings.Contains(text.String(), "36") {
				t.Errorf("text\n%s\nwant %q and no depth", text.String(), tt.text)
			}
		})
	}
}
