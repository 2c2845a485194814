package perfect

import (
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
)

var connectFour = rules.New(rules.Spec{Spec: game.Spec{Rows: 6, Cols: 7, K: 4}, Gravity: true})

func TestForced(t *testing.T) {
	ttt := rules.Classic(game.Default)
	misere := rules.New(rules.Spec{Spec: game.Default, Misere: true})
	tests := []struct {
		name    string
		rl      rules.Rules
		board   string
		line    []int
		at      int
		threats []int
	}{
		{"a fork after two moves", ttt, "XO./.X./...", []int{8, 6, 2}, 2, []int{2, 3}},
		{"one threat is stopped", ttt, "XO./.X./...", []int{8}, 1, nil},
		{"no threat on the empty board", ttt, ".../.../...", []int{4}, 1, nil},
		{"two threats in a row at once", connectFour, "......./......./......./......./.OO..../.XXX...", []int{35, 39}, 0, []int{35, 39}},
		{"a threat right above the cell that stops another", connectFour,
			"......./......./......./O....../OOO.XXX/XXX.OXO", []int{38, 31}, 0, []int{38, 31}},
		{"under misère nothing is plain", misere, "XO./.X./...", []int{8, 6, 2}, 3, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := tt.rl.Spec().Parse(tt.board)
			if err != nil {
				t.Fatal(err)
			}
			at, threats := Forced(tt.rl, b, tt.line)
			var want game.Mask
			for _, c := range tt.threats {
				want |= 1 << c
			}
			if at != tt.at || threats != want {
				t.Errorf("Forced(%s, %v) = %d, %b; want %d, %b", tt.board, tt.line, at, threats, tt.at, want)
			}
		})
	}
}
