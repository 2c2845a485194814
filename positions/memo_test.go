package positions

import (
	"context"
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
)

// The memo gives a position's mirror image its verdicts mirrored, says
// nothing of a move not asked about, and once full lets go of its deepest
// ply first.
func TestBestMemo(t *testing.T) {
	defer func(was int) { memoMost = was }(memoMost)
	memoMost = 3
	play := func(cells ...int) game.Board {
		b, err := rules.Position(connectFour, "", connectFour.Spec().FormatMoves(cells))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	m := newMemo(connectFour)
	left := play(35, 36) // X in column 1, O in column 2, bottom row
	m.put(left, 37, true)
	m.put(left, 28, false)
	mirror := game.Transform(left, connectFour.Symmetries()[1])
	tests := []struct {
		name     string
		b        game.Board
		cell     int
		best, ok bool
	}{
		{"a best move", left, 37, true, true},
		{"a move not best", left, 28, false, true},
		{"a move not asked about", left, 38, false, false},
		{"the best move's image", mirror, 39, true, true},
		{"the other's image", mirror, 34, false, true},
		{"another position", play(38), 37, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if best, ok := m.get(tt.b, tt.cell); best != tt.best || ok != tt.ok {
				t.Errorf("get cell %d: %t, %t; want %t, %t", tt.cell, best, ok, tt.best, tt.ok)
			}
		})
	}
	deep := play(38, 37, 36)
	m.put(play(38), 0, true)
	m.put(deep, 1, true)
	m.put(play(35), 2, true) // the fourth: the deepest ply, 3, goes
	for _, k := range []struct {
		b    game.Board
		cell int
	}{{left, 37}, {play(38), 0}, {play(35), 2}} {
		if _, ok := m.get(k.b, k.cell); !ok {
			t.Errorf("%s of ply %d was let go; want it kept", connectFour.Spec().Format(k.b), k.b.Ply())
		}
	}
	if _, ok := m.get(deep, 1); ok {
		t.Errorf("the position of ply 3 was kept past memoMost; want it let go")
	}
}

// A draw asks about each move of each class of positions once, whichever
// of its boards play meets first.
func TestDrawAsksAClassOnce(t *testing.T) {
	s := Sample{N: 200, Seed: 2, Plies: Plies{4, 14}}
	if err := s.WithEpsilon(0.5); err != nil {
		t.Fatal(err)
	}
	type move struct {
		least game.Board
		cell  int // in least's frame
	}
	asks, moves := 0, map[move]bool{}
	perms := connectFour.Symmetries()
	best := func(_ context.Context, b game.Board, cell int) (bool, error) {
		asks++
		least, _ := game.Least(b, perms)
		for _, p := range perms {
			if game.Transform(b, p) == least {
				moves[move{least, p[cell]}] = true
				break
			}
		}
		return centremost(connectFour, b)>>cell&1 == 1, nil
	}
	if _, err := s.Draw(context.Background(), connectFour, []BestMove{best}); err != nil {
		t.Fatal(err)
	}
	if asks != len(moves) || asks == 0 {
		t.Errorf("the draw asked %d times about %d moves of classes; want each once", asks, len(moves))
	}
}
