package search_test

import (
	"context"
	"fmt"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/search"
)

// Connect Four on 5 columns by 4 rows, from the empty board: a draw, which
// runs to the full board.
func ExampleSolver_Solve() {
	sp := rules.Spec{Spec: game.Spec{Rows: 4, Cols: 5, K: 4}, Gravity: true}
	s, err := search.New(sp, search.Options{TableBits: 16, Workers: 1})
	if err != nil {
		panic(err)
	}
	r, err := s.Solve(context.Background(), 0, 0)
	fmt.Println(r.Value, r.Depth, r.Settled, err)
	// Output: draw 20 true <nil>
}

// Value settles only who wins: on 6 columns by 4 rows, O, as John Tromp
// found.
func ExampleSolver_Value() {
	sp := rules.Spec{Spec: game.Spec{Rows: 4, Cols: 6, K: 4}, Gravity: true}
	s, err := search.New(sp, search.Options{TableBits: 20, Workers: 2})
	if err != nil {
		panic(err)
	}
	r, err := s.Value(context.Background(), 0, 0)
	fmt.Println(r.Value, r.Low == r.High, r.Settled, err)
	// Output: O wins true false <nil>
}
