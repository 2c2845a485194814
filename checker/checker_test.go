package checker

import (
	"fmt"
	"math/big"
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
)

// seed000 is a board in the prime-product article's convention: 0 for player one (X, who moves
// first), 1 for player two (O), -1 for empty; results 0 one wins, 1 two wins,
// 2 draw, 3 not finished.
type seed000 struct {
	name  string
	board [3][3]int
	want  int
}

// The nine test boards of the prime-product article, as the article gives them.
var seed000Boards = []seed000{
	{"noHuboMovimientos", [3][3]int{{-1, -1, -1}, {-1, -1, -1}, {-1, -1, -1}}, 3},
	{"empate", [3][3]int{{1, 0, 1}, {0, 0, 1}, {0, 1, 0}}, 2},
	{"noFinalizada", [3][3]int{{1, -1, -1}, {1, 0, -1}, {0, -1, 0}}, 3},
	{"ganaUnoVertical", [3][3]int{{1, 0, 1}, {-1, 0, -1}, {0, 0, 1}}, 0},
	{"ganaDosVertical", [3][3]int{{1, -1, 0}, {1, 0, -1}, {1, -1, 0}}, 1},
	{"ganaUnoHorizontal", [3][3]int{{1, -1, -1}, {0, 0, 0}, {0, 1, 1}}, 0},
	{"ganaDosHorizontal", [3][3]int{{0, -1, 0}, {-1, 0, -1}, {1, 1, 1}}, 1},
	{"ganaUnoDiagonal", [3][3]int{{0, -1, -1}, {1, 0, -1}, {1, -1, 0}}, 0},
	{"ganaUnoAlFinal", [3][3]int{{1, 0, 1}, {0, 0, 1}, {1, 0, 0}}, 0},
}

type boardCase struct {
	name  string
	spec  game.Spec
	board string
	want  game.Status
}

// seedCases gathers the seeds' boards in board text.
func seedCases() []boardCase {
	var out []boardCase
	cell := map[int]string{0: "X", 1: "O", -1: "."}
	result := []game.Status{game.XWon, game.OWon, game.Draw, game.InProgress}
	for _, b := range seed000Boards {
		text := ""
		for r, row := range b.board {
			if r > 0 {
				text += "/"
			}
			for _, v := range row {
				text += cell[v]
			}
		}
		out = append(out, boardCase{"the prime-product article " + b.name, game.Default, text, result[b.want]})
	}
	return append(out,
		// Seed 002's kata: [[1,1,1],[0,2,2],[0,0,0]] is 1, X wins; a full board with no line is 0.
		boardCase{"the Codewars product kata row of ones", game.Default, "XXX/.OO/...", game.XWon},
		boardCase{"the Codewars product kata cat's game", game.Default, "XOX/XOO/OXX", game.Draw},
		// Seed 003's main: X (1,1), O (0,0), X (1,2), O (1,0), X (2,2), O (2,0): O wins the column.
		boardCase{"the counter article game", game.Default, "O../OXX/O.X", game.OWon},
		// Seed 004's UVa 10111 sample boards, 4x4 with four in a row, still open.
		boardCase{"the contest-programming report sample 1", game.Spec{Rows: 4, Cols: 4, K: 4}, "..../.xo./.ox./....", game.InProgress},
		boardCase{"the contest-programming report sample 2", game.Spec{Rows: 4, Cols: 4, K: 4}, "o.../.ox./.xxx/xooo", game.InProgress},
		boardCase{"4x4 anti-diagonal", game.Spec{Rows: 4, Cols: 4, K: 4}, "...O/..O./.O../OXXX", game.OWon},
		boardCase{"4x4 k=3 window off the corner", game.Spec{Rows: 4, Cols: 4, K: 3}, "..../..X./.X../X...", game.XWon},
		boardCase{"3x4 k=3 short row window", game.Spec{Rows: 3, Cols: 4, K: 3}, ".OOO/XX../X...", game.OWon},
	)
}

func TestSeedBoards(t *testing.T) {
	for _, name := range Names {
		for _, tt := range seedCases() {
			t.Run(name+"/"+tt.name, func(t *testing.T) {
				c, err := New(name, tt.spec)
				if err != nil {
					t.Fatal(err)
				}
				b, err := tt.spec.Parse(tt.board)
				if err != nil {
					t.Fatal(err)
				}
				cells := b.Marks(tt.spec, make([]game.Cell, tt.spec.Cells()))
				if got := c.Status(cells); got != tt.want {
					t.Fatalf("%s.Status(%s) = %v, want %v", name, tt.board, got, tt.want)
				}
			})
		}
	}
}

// The 128-bit scores of primes are exact: compare with math/big on the score
// of a full 4x4 board, which passes 2^64.
func TestPrimes128(t *testing.T) {
	p, err := newPrimes(game.Spec{Rows: 4, Cols: 4, K: 4})
	if err != nil {
		t.Fatal(err)
	}
	score, want := u128{lo: 1}, big.NewInt(1)
	for _, q := range p.prime {
		score = score.mul(q)
		want.Mul(want, new(big.Int).SetUint64(q))
	}
	got := new(big.Int).Lsh(new(big.Int).SetUint64(score.hi), 64)
	got.Or(got, new(big.Int).SetUint64(score.lo))
	if got.Cmp(want) != 0 || want.BitLen() <= 64 {
		t.Fatalf("product of the first 16 primes = %v, want %v (past 64 bits)", got, want)
	}
	for _, d := range []uint64{2, 53, 2 * 3 * 5 * 7, 59, 1<<61 - 1} {
		wantDiv := new(big.Int).Mod(want, new(big.Int).SetUint64(d)).Sign() == 0
		if score.divisibleBy(d) != wantDiv {
			t.Errorf("divisibleBy(%d) = %v, want %v", d, !wantDiv, wantDiv)
		}
	}
	if _, err := newPrimes(game.Spec{Rows: 4, Cols: 8, K: 4}); err == nil {
		t.Error("newPrimes for 32 cells: no error, want one (scores pass 128 bits)")
	}
}

func TestNew(t *testing.T) {
	if _, err := New("abacus", game.Default); err == nil {
		t.Fatal(`New("abacus") gave no error`)
	}
	cs, err := All(game.Default)
	if err != nil || len(cs) != 4 {
		t.Fatalf("All = %d checkers, %v; want 4", len(cs), err)
	}
	for i, c := range cs {
		if c.Name() != Names[i] {
			t.Errorf("checker %d is named %q, want %q", i, c.Name(), Names[i])
		}
	}
}

func ExampleNew() {
	s := game.Default
	b, _ := s.Parse("XOX/XO./.O.")
	cells := b.Marks(s, make([]game.Cell, s.Cells()))
	for _, name := range Names {
		c, _ := New(name, s)
		fmt.Println(name, c.Status(cells))
	}
	// Output:
	// primes o_won
	// product o_won
	// counter o_won
	// lines o_won
}
