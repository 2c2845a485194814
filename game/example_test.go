package game_test

import (
	"fmt"

	"github.com/tateti-lab/tateti-lab/game"
)

func ExampleSpec_Parse() {
	s := game.Default
	b, err := s.Parse("xo./.x./..o")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Format(b), game.ID(b), b.ToMove())
	_, err = s.Parse("XOX/OX")
	fmt.Println(err)
	// Output:
	// XO./.X./..O 13210 X
	// board "XOX/OX" has 5 cells, want 9 for 3x3
}

func ExampleSymTable_Canonical() {
	syms := game.NewSymTable(game.Default, game.BoardSymmetries(game.Default))
	corner, _ := game.Default.Parse("..X/.../...")
	canon, orbit := syms.Canonical(game.ID(corner))
	fmt.Println(game.Default.Format(game.FromID(canon)), orbit)
	// Output:
	// X../.../... 4
}
