package game_test

import (
	"fmt"

	"github.com/tateti-lab/tateti-lab/game"
)

func ExampleParse() {
	s := game.Default
	b, err := game.Parse(s, "xo./.x./..o")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(game.Format(s, b), game.ID(b), b.ToMove())
	_, err = game.Parse(s, "XOX/OX")
	fmt.Println(err)
	// Output:
	// XO./.X./..O 13210 X
	// board "XOX/OX" has 5 cells, want 9 for 3x3
}

func ExampleGame_Reachability() {
	g := game.New(game.Default)
	for _, text := range []string{"XXX/OO./...", "XXX/OOO/..."} {
		b, _ := game.Parse(g.Spec, text)
		fmt.Println(text, g.Status(b), g.Reachability(b))
	}
	// Output:
	// XXX/OO./... x_won reachable
	// XXX/OOO/... x_won both_won
}

func ExampleGame_Canonical() {
	g := game.New(game.Default)
	corner, _ := game.Parse(g.Spec, "..X/.../...")
	canon, orbit := g.Canonical(game.ID(corner))
	fmt.Println(game.Format(g.Spec, game.FromID(canon)), orbit)
	// Output:
	// X../.../... 4
}
