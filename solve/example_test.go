package solve_test

import (
	"context"
	"fmt"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
)

func ExampleAnalyze() {
	g := rules.Classic(game.Default)
	b, _ := game.Default.Parse("XX./O../...")
	a, err := solve.Analyze(context.Background(), g, b, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(a.ToMove, "to move:", a.Value, "in", a.Depth)
	for _, m := range a.Moves {
		fmt.Println(m.Cell, m.Value, m.Depth, m.Best)
	}
	// Output:
	// O to move: X wins in 4
	// 2 X wins 3 true
	// 4 X wins 1 false
	// 5 X wins 1 false
	// 6 X wins 1 false
	// 7 X wins 1 false
	// 8 X wins 1 false
}

func ExampleBounds() {
	for _, b := range []perfect.Bounds{{Low: 0, High: 1}, {Low: -1, High: 0}, {Low: 1, High: 1}, {Low: -1, High: 1}} {
		fmt.Println(b)
	}
	// Output:
	// X does not lose
	// O does not lose
	// X wins
	// nothing yet
}
