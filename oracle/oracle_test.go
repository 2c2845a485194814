package oracle

import (
	"context"
	"flag"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/longtest"
	"github.com/tateti-lab/tateti-lab/internal/protocol"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
	"github.com/tateti-lab/tateti-lab/tier"
)

// The two oracles agree through the seam: on random positions of free and
// gravity games, normal and misère, the table's answer and search's are the
// same in value, depth, every move's value and depth, the best moves and
// the best line; only who answered and the move sequences counted differ.
func TestMemoryAndSearchAgree(t *testing.T) {
	specs := []rules.Spec{
		{Spec: game.Spec{Rows: 4, Cols: 4, K: 4}, Gravity: true},
		{Spec: game.Spec{Rows: 4, Cols: 5, K: 4}, Gravity: true},
		{Spec: game.Spec{Rows: 3, Cols: 4, K: 3}, Gravity: true, Misere: true},
		{Spec: game.Spec{Rows: 3, Cols: 3, K: 3}},
		{Spec: game.Spec{Rows: 3, Cols: 4, K: 3}, Misere: true},
	}
	for _, sp := range specs {
		t.Run(sp.String(), func(t *testing.T) {
			if testing.Short() && sp.Cells() > 16 {
				t.Skip("a table past 16 cells from each position: heavy under -race, runs without -short")
			}
			if sp.Cells() > 16 {
				longtest.Skip(t, "a table past 16 cells from each position")
			}
			rl := rules.New(sp)
			tab := InMemory(rl, Options{Workers: 1})
			srch, err := Search(rl, Options{Memory: 1 << 32, Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, uint64(sp.Cells())))
			n := 20
			if testing.Short() {
				n = 4 // heavy under -race
			}
			for range n {
				b := randomPosition(rl, rng)
				want, err := tab.Analyze(context.Background(), b)
				if err != nil {
					t.Fatal(err)
				}
				got, err := srch.Analyze(context.Background(), b)
				if err != nil {
					t.Fatal(err)
				}
				if got.Engine != "search" || want.Engine != "memory" || got.Paths != -1 {
					t.Fatalf("oracle %q and %q, paths %d; want search, memory and -1", got.Engine, want.Engine, got.Paths)
				}
				got.Engine, got.AnsweredBy, got.Paths = want.Engine, want.AnsweredBy, want.Paths
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s: search gives\n%+v\nthe game in memory\n%+v", sp.Spec.Format(b), got, want)
				}
			}
		})
	}
}

// randomPosition plays random legal moves from the empty board, stopping at
// a random ply or at the end of the game.
func randomPosition(rl rules.Rules, rng *rand.Rand) game.Board {
	return randomTo(rl, rng, rng.IntN(rl.Spec().Cells()))
}

// randomTo plays random legal moves from the empty board to ply stop, or
// to the end of the game.
func randomTo(rl rules.Rules, rng *rand.Rand, stop int) game.Board {
	var b game.Board
	for b.Ply() < stop {
		moves := rl.Moves(b)
		if moves == 0 {
			break
		}
		for k := rng.IntN(bits.OnesCount64(uint64(moves))); k > 0; k-- {
			moves &= moves - 1
		}
		b = b.Play(bits.TrailingZeros64(uint64(moves)), b.ToMove())
	}
	return b
}

// boardCells is the largest board TestEveryBoard takes: 10 cells, 12 with
// the long checks; "go test ./oracle -run TestEveryBoard -args
// -board-cells=16" takes up to 16 (docs/performance.md has what each
// takes).
var boardCells = flag.Int("board-cells", 0, "TestEveryBoard: the largest board, in cells (default 10, or 12 with TATETI_LONG=1)")

// Search agrees with the exhaustive solve on every board up to -board-cells
// cells (10, 12 with the long checks, 9 under -short), every line length from 2 to the longer side, free
// and gravity, normal and misère: on every position where a game has at
// most 1,000 (200 under -short), else on that many drawn at random, in
// value, depth, every move's value and depth, the best moves and the best
// line.
func TestEveryBoard(t *testing.T) {
	maxCells, most := *boardCells, 1000
	if maxCells == 0 {
		maxCells = 10
		if longtest.Enabled() {
			maxCells = 12
		}
	}
	if testing.Short() {
		maxCells, most = min(maxCells, 9), 200
	}
	boards, positions := 0, 0
	for _, sp := range boardsUpTo(maxCells) {
		rl := rules.New(sp)
		sol, err := solve.Game(context.Background(), rl, 2)
		if err != nil {
			t.Fatal(err)
		}
		srch, err := Search(rl, Options{Memory: 64 << 20, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		at := sol.Positions(true)
		if len(at) > most {
			var picked []int // most of them drawn, without a shuffle of millions
			for _, k := range protocol.Sample(len(at), most, uint64(sp.Cells()*10+sp.K)) {
				picked = append(picked, at[k])
			}
			at = picked
		}
		for _, i := range at {
			want := sol.Analysis(i)
			got, err := srch.Analyze(context.Background(), want.Board)
			if err != nil {
				t.Fatal(err)
			}
			got.Engine, got.AnsweredBy, got.Paths = want.Engine, want.AnsweredBy, want.Paths
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s, %s: search gives\n%+v\nthe game in memory\n%+v", sp, sp.Spec.Format(want.Board), got, want)
			}
		}
		boards, positions = boards+1, positions+len(at)
	}
	t.Logf("%d games, %d positions", boards, positions)
}

// boardsUpTo lists every game of up to cells cells: each size, each line
// length from 2 to its longer side, free and gravity, normal and misère.
func boardsUpTo(cells int) []rules.Spec {
	var out []rules.Spec
	for rows := 1; rows <= cells; rows++ {
		for cols := 1; rows*cols <= cells; cols++ {
			for k := 2; k <= max(rows, cols); k++ {
				for _, gravity := range []bool{false, true} {
					for _, misere := range []bool{false, true} {
						out = append(out, rules.Spec{Spec: game.Spec{Rows: rows, Cols: cols, K: k}, Gravity: gravity, Misere: misere})
					}
				}
			}
		}
	}
	return out
}

// Search gives best lines unless made with NoLines, and the rest of each
// analysis the same either way.
func TestAllLines(t *testing.T) {
	rl := rules.New(rules.Spec{Spec: game.Spec{Rows: 4, Cols: 4, K: 4}, Gravity: true})
	rng := rand.New(rand.NewPCG(3, 4))
	var boards []game.Board
	for range 30 {
		boards = append(boards, randomPosition(rl, rng))
	}
	o, err := Search(rl, Options{Memory: 64 << 20, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	with, err := All(context.Background(), []Oracle{o}, rl, boards, Batch{Phase: "test"})
	if err != nil {
		t.Fatal(err)
	}
	noLines, err := Search(rl, Options{Memory: 64 << 20, Workers: 1, NoLines: true})
	if err != nil {
		t.Fatal(err)
	}
	without, err := All(context.Background(), []Oracle{noLines}, rl, boards, Batch{Phase: "test"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range boards {
		if over, _ := rl.Outcome(boards[i]); !over && len(with[i].BestLine) == 0 {
			t.Errorf("%s: no best line when lines were asked for", rl.Spec().Format(boards[i]))
		}
		if without[i].BestLine != nil {
			t.Errorf("%s: a best line %v when none was asked for", rl.Spec().Format(boards[i]), without[i].BestLine)
		}
		with[i].BestLine = nil
		if !reflect.DeepEqual(with[i], without[i]) {
			t.Errorf("%s: with lines\n%+v\nwithout\n%+v", rl.Spec().Format(boards[i]), with[i], without[i])
		}
	}
}

// askedKinds are what an answer may be asked to hold beyond the value:
// everything, the value and depth alone, values without depths, and the
// value alone.
var askedKinds = []Options{{}, {ValueOnly: true}, {NoDepths: true}, {ValueOnly: true, NoDepths: true}}

// askedOf gives the full answer a as asked asks it, worked out here from
// the definitions, not by the oracle's code: no moves and no line for the
// value alone; without depths, every depth 0, no line, and the best moves
// those whose value is the best for the side to move.
func askedOf(a perfect.Analysis, asked Options) perfect.Analysis {
	if asked.NoDepths {
		a.Depth, a.BestLine, a.NoDepths = 0, nil, true
		best := perfect.OWins
		for _, m := range a.Moves {
			best = max(best, m.Value.For(a.ToMove))
		}
		a.Moves = slices.Clone(a.Moves)
		for i, m := range a.Moves {
			a.Moves[i].Depth, a.Moves[i].Best = 0, m.Value.For(a.ToMove) == best
		}
	}
	if asked.ValueOnly {
		a.Moves, a.BestLine, a.ValueOnly = nil, nil, true
	}
	return a
}

// Every engine answers what it was asked, each kind of answer (askedKinds)
// the full answer cut as the kind says: the same answer whoever gives it.
func TestAsked(t *testing.T) {
	rl := rules.New(rules.Spec{Spec: game.Spec{Rows: 4, Cols: 4, K: 4}, Gravity: true})
	rng := rand.New(rand.NewPCG(5, 6))
	var boards []game.Board
	n := 20
	if testing.Short() {
		n = 6 // heavy under -race
	}
	for range n {
		boards = append(boards, randomPosition(rl, rng))
	}
	full, err := All(context.Background(), []Oracle{InMemory(rl, Options{Workers: 1})}, rl, boards, Batch{Phase: "test"})
	if err != nil {
		t.Fatal(err)
	}
	books := bookDir(t, rl, 5)
	for _, asked := range askedKinds[1:] {
		o := asked
		o.Workers, o.Memory, o.NoLines = 1, 64<<20, asked.NoDepths
		tab, err := Solved(context.Background(), rl, o)
		if err != nil {
			t.Fatal(err)
		}
		searched, err := Search(rl, o)
		if err != nil {
			t.Fatal(err)
		}
		for _, or := range []Oracle{InMemory(rl, o), tab, searched, openBook(t, rl, books, o)} {
			t.Run(fmt.Sprintf("%s/value-only=%v/no-depths=%v", or.Name(), asked.ValueOnly, asked.NoDepths), func(t *testing.T) {
				got, err := All(context.Background(), []Oracle{or}, rl, boards, Batch{Phase: "test"})
				if err != nil {
					t.Fatal(err)
				}
				for i := range full {
					want := askedOf(full[i], asked)
					want.Engine, want.AnsweredBy, want.Paths, want.BookLast = got[i].Engine, got[i].AnsweredBy, got[i].Paths, got[i].BookLast
					if !reflect.DeepEqual(got[i], want) {
						t.Errorf("%s:\n%+v\nwant\n%+v", rl.Spec().Format(boards[i]), got[i], want)
					}
				}
			})
		}
	}
}

// An opening book answers as the table does, on positions before its last
// ply, at it (its children searched) and past it (searched): the same
// value, depth, moves and line, the line of a position before the last
// ply stopping there; only who answered and the move sequences counted
// differ.
func TestBookAgrees(t *testing.T) {
	rl := rules.New(rules.Spec{Spec: game.Spec{Rows: 4, Cols: 4, K: 4}, Gravity: true})
	book := bookOf(t, rl, 5)
	tab := InMemory(rl, Options{Workers: 1})
	rng := rand.New(rand.NewPCG(8, 9))
	plies := map[bool]int{} // positions asked within the book, and past it
	n := 40
	if testing.Short() {
		n = 12 // heavy under -race
	}
	for range n {
		b := randomPosition(rl, rng)
		want, err := tab.Analyze(context.Background(), b)
		if err != nil {
			t.Fatal(err)
		}
		got, err := book.Analyze(context.Background(), b)
		if err != nil {
			t.Fatal(err)
		}
		by := perfect.Book // the position's value is the book's to its last ply, search's past it
		if b.Ply() > 5 {
			by = perfect.Search
		}
		if got.Engine != "book" || got.AnsweredBy != by || got.BookLast != 5 {
			t.Fatalf("engine %q, answered by %q past the book's last ply %d; want book, %s and 5", got.Engine, got.AnsweredBy, got.BookLast, by)
		}
		got.Engine, got.AnsweredBy, got.BookLast, got.Paths = want.Engine, want.AnsweredBy, want.BookLast, want.Paths
		if cut := 5 - b.Ply(); cut > 0 && cut < len(want.BestLine) { // the line stops at the book's last ply
			want.BestLine, want.LineEnd = want.BestLine[:cut], 5
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: the book gives\n%+v\nthe game in memory\n%+v", rl.Spec().Format(b), got, want)
		}
		plies[b.Ply() <= 5]++
	}
	if plies[true] == 0 || plies[false] == 0 {
		t.Errorf("positions within the book and past it: %v, want both", plies)
	}
}

// BestMove asks a book, and search, one question a child, not a settled
// score: the cells are those the game solved in memory marks best, on
// positions within the book, at its last ply and past it, and of search
// alone, normal and misère, each position asked and then the positions
// along a best line from it, as a game asks them.
func TestBestMoveAsked(t *testing.T) {
	for _, spec := range []rules.Spec{
		{Spec: game.Spec{Rows: 4, Cols: 4, K: 4}, Gravity: true},
		{Spec: game.Spec{Rows: 4, Cols: 4, K: 3}, Gravity: true, Misere: true},
	} {
		t.Run(spec.String(), func(t *testing.T) {
			rl := rules.New(spec)
			book := bookOf(t, rl, 5)
			alone, err := Search(rl, Options{Workers: 1, Memory: 64 << 20})
			if err != nil {
				t.Fatal(err)
			}
			tab, err := Solved(context.Background(), rl, Options{Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(3, 4))
			for range 30 {
				b := randomPosition(rl, rng)
				for _, o := range []Oracle{book, alone} {
					checkBestLine(t, rl, o, tab, b)
				}
			}
		})
	}
}

// checkBestLine asks o about every move of b and of each position after
// it along the first best move, as a game of perfect play asks them (the
// position after a best move is one IsBest knows exactly), and holds the
// best moves to tab's.
func checkBestLine(t *testing.T, rl rules.Rules, o, tab Oracle, b game.Board) {
	t.Helper()
	for {
		if over, _ := rl.Outcome(b); over {
			return
		}
		want, err := tab.Analyze(context.Background(), b)
		if err != nil {
			t.Fatal(err)
		}
		var got uint64
		isBest := BestMove(o)
		for m := uint64(rl.Moves(b)); m != 0; m &= m - 1 {
			best, err := isBest(context.Background(), b, bits.TrailingZeros64(m))
			if err != nil {
				t.Fatal(err)
			}
			if best {
				got |= m & -m
			}
		}
		if got != want.BestCells() {
			t.Fatalf("%s, %s: best cells %b; want %b", o.Name(), rl.Spec().Format(b), got, want.BestCells())
		}
		b = b.Play(bits.TrailingZeros64(got), b.ToMove())
	}
}

// bookOf gives the oracle of an opening book of rl's game to ply last,
// built for the test, closed at its end.
func bookOf(t *testing.T, rl rules.Rules, last int) Oracle {
	t.Helper()
	return openBook(t, rl, bookDir(t, rl, last), Options{Workers: 1, Memory: 64 << 20})
}

// bookDir builds the opening book of rl's game to the ply last, in a
// folder of the test's.
func bookDir(t *testing.T, rl rules.Rules, last int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "book")
	if _, err := tier.SolveBook(context.Background(), rl, last, dir, 2); err != nil {
		t.Fatal(err)
	}
	return dir
}

// openBook opens the opening book in dir as o asks, closed when the test
// ends.
func openBook(t *testing.T, rl rules.Rules, dir string, o Options) Oracle {
	t.Helper()
	book, err := Database(rl, dir, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { book.Close() })
	return book
}
