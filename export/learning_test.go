package export

import (
	"fmt"
	"math"
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
)

// The columns for learning say what the other columns say, from the mover's
// side, on every row of games of each rule set: the checks a reader makes
// (scripts/checks.cjs), here on the rows as written.
func TestLearningColumns(t *testing.T) {
	specs := []rules.Spec{
		{Spec: game.Default},
		{Spec: game.Default, Misere: true},
		{Spec: game.Spec{Rows: 4, Cols: 3, K: 3}, Gravity: true},
		{Spec: game.Spec{Rows: 3, Cols: 4, K: 3}},
	}
	for _, s := range specs {
		t.Run(s.String(), func(t *testing.T) {
			states, _ := expected(solvedUnder(t, rules.New(s)))
			for _, st := range states {
				if err := checkLearning(s, st); err != nil {
					t.Fatalf("state %d (%s): %v", st.StateID, st.Board, err)
				}
			}
		})
	}
}

// checkLearning gives what is wrong with the columns for learning of st,
// a position of a game of s: their arrays have an entry an action, a
// column under gravity.
func checkLearning(s rules.Spec, st State) error {
	sign := int8(1)
	if st.Ply%2 == 1 {
		sign = -1
	}
	if got, want := st.MoverValue, sign*st.Value; got != want {
		return fmt.Errorf("mover_value %d, want %d", got, want)
	}
	for c, v := range st.Cells {
		if got, want := st.MoverCells[c], sign*v; got != want {
			return fmt.Errorf("mover_cells[%d] = %d, want %d", c, got, want)
		}
	}
	n := s.Cells()
	if s.Gravity {
		n = s.Cols
	}
	if len(st.Legal) != n || len(st.MoveValues) != n || len(st.Policy) != n {
		return fmt.Errorf("%d legal, %d move values, %d policy entries; want %d, one an action", len(st.Legal), len(st.MoveValues), len(st.Policy), n)
	}
	bestAt := map[int]bool{}
	for _, c := range st.BestMoves {
		bestAt[int(c)%len(st.Policy)] = true // a cell's column under gravity
	}
	legal, best, sum := 0, int8(-2), 0.0
	for a := range n {
		if st.Legal[a] != (st.MoveValues[a] != nullElem) {
			return fmt.Errorf("action %d: legal %v but move value %d", a, st.Legal[a], st.MoveValues[a])
		}
		if st.Legal[a] {
			legal++
			best = max(best, st.MoveValues[a])
		}
		if got := st.Policy[a] > 0; got != bestAt[a] {
			return fmt.Errorf("policy[%d] = %v, best moves %v", a, st.Policy[a], st.BestMoves)
		}
		sum += float64(st.Policy[a])
	}
	if legal != int(st.NMoves) {
		return fmt.Errorf("%d legal cells, n_moves %d", legal, st.NMoves)
	}
	if st.IsTerminal {
		if sum != 0 {
			return fmt.Errorf("policy sums to %v when the game is over, want 0", sum)
		}
	} else if math.Abs(sum-1) > 1e-6 || best != st.MoverValue {
		return fmt.Errorf("policy sums to %v (want 1), best move value %d (want mover_value %d)", sum, best, st.MoverValue)
	}
	for c := range bestAt {
		if st.MoveValues[c] != st.MoverValue {
			return fmt.Errorf("best move %d has move value %d, want %d", c, st.MoveValues[c], st.MoverValue)
		}
	}
	if got, want := st.Split, SplitOf(st.CanonicalID); got != want {
		return fmt.Errorf("split %q, want %q", got, want)
	}
	return nil
}

func TestSplitOf(t *testing.T) {
	tests := []struct {
		id   int64
		want string
	}{{0, "validation"}, {1, "test"}, {2, "train"}, {9, "train"}, {10, "validation"}, {4021, "test"}}
	for _, tt := range tests {
		if got := SplitOf(tt.id); got != tt.want {
			t.Errorf("SplitOf(%d) = %q, want %q", tt.id, got, tt.want)
		}
	}
}

func ExampleSplitOf() {
	for _, id := range []int64{34, 40, 41} {
		fmt.Println(id, SplitOf(id))
	}
	// Output:
	// 34 train
	// 40 validation
	// 41 test
}
