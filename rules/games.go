package rules

import (
	"fmt"
	"strings"

	"github.com/tateti-lab/tateti-lab/game"
)

// A NamedGame is a common game of the family under the name people and
// game libraries give it (OpenSpiel's, with hyphens), and the flags it
// stands for.
type NamedGame struct {
	Name  string
	Spec  Spec
	Flags string // the game flags that say the same: "--gravity --size 6x7 --k 4"
}

// Games are the named games: tic-tac-toe, and Connect Four as OpenSpiel,
// PettingZoo and Kaggle ConnectX play it, 6 rows by 7 columns.
var Games = []NamedGame{
	{"tic-tac-toe", Spec{Spec: game.Spec{Rows: 3, Cols: 3, K: 3}}, "--size 3x3 --k 3"},
	{"connect-four", Spec{Spec: game.Spec{Rows: 6, Cols: 7, K: 4}, Gravity: true}, "--gravity --size 6x7 --k 4"},
}

// Named gives the game named name, hyphens or underscores alike
// ("connect_four" is OpenSpiel's spelling).
func Named(name string) (NamedGame, error) {
	key := strings.ReplaceAll(strings.ToLower(name), "_", "-")
	var names []string
	for _, g := range Games {
		if g.Name == key {
			return g, nil
		}
		names = append(names, g.Name)
	}
	return NamedGame{}, fmt.Errorf("game %q is not one of %s; give it by its flags (--size, --k, --gravity) instead", game.Echo(name), strings.Join(names, ", "))
}
