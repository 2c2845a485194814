package rules

import (
	"fmt"
	"strings"

	"github.com/tateti-lab/tateti-lab/game"
)

// A NamedGame is a common game of the family under the name people and
// game libraries give it (OpenSpiel's, with hyphens).
type NamedGame struct {
	Name string
	Spec Spec
}

// Games are the named games: tic-tac-toe, and Connect Four as OpenSpiel,
// PettingZoo and Kaggle ConnectX play it, 6 rows by 7 columns.
var Games = []NamedGame{
	{"tic-tac-toe", Spec{Spec: game.Spec{Rows: 3, Cols: 3, K: 3}}},
	{"connect-four", Spec{Spec: game.Spec{Rows: 6, Cols: 7, K: 4}, Gravity: true}},
}

// Named gives the game named name, hyphens or underscores alike
// ("connect_four" is OpenSpiel's spelling).
func Named(name string) (NamedGame, error) {
	key := strings.ReplaceAll(strings.ToLower(name), "_", "-")
	for _, g := range Games {
		if g.Name == key {
			return g, nil
		}
	}
	return NamedGame{}, fmt.Errorf("game %q is not one of %s; give it by its flags (--size, --k, --gravity) instead", game.Echo(name), strings.Join(GameNames(), ", "))
}

// GameNames gives the names of Games, in their order.
func GameNames() []string {
	names := make([]string, len(Games))
	for i, g := range Games {
		names[i] = g.Name
	}
	return names
}

// Flags gives the game flags that say s: "--gravity --size 6x7 --k 4".
func (s Spec) Flags() string {
	var b strings.Builder
	if s.Gravity {
		b.WriteString("--gravity ")
	}
	if s.Misere {
		b.WriteString("--misere ")
	}
	fmt.Fprintf(&b, "--size %dx%d --k %d", s.Rows, s.Cols, s.K)
	return b.String()
}

// Mistaken says whether a gravity board of rows by cols, its line k (0 for
// the shorter side), is one people take for Connect Four by mistake: 7x6,
// 7 rows by 6 columns, or 6x7 with six in a row. Tromp's 5x4 boards, taller
// than wide on purpose, are not.
func Mistaken(rows, cols, k int) bool {
	return (rows == 7 && cols == 6) || (rows == 6 && cols == 7 && k == 0)
}
