package positions

import (
	"context"
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
)

// The memo gives a position's mirror image its best cells mirrored, and
// once full lets go of its deepest ply first.
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
	m.put(left, 1<<37|1<<28)
	mirror := game.Transform(left, connectFour.Symmetries()[1])
	tests := []struct {
		name string
		b    game.Board
		want uint64
		ok   bool
	}{
		{"the position", left, 1<<37 | 1<<28, true},
		{"its mirror image", mirror, 1<<39 | 1<<34, true},
		{"another", play(38), 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, ok := m.get(tt.b); got != tt.want || ok != tt.ok {
				t.Errorf("get: %b, %t; want %b, %t", got, ok, tt.want, tt.ok)
			}
		})
	}
	deep := play(38, 37, 36)
	m.put(play(38), 1)
	m.put(deep, 2)
	m.put(play(35), 4) // the fourth: the deepest ply, 3, goes
	for _, b := range []game.Board{left, play(38), play(35)} {
		if _, ok := m.get(b); !ok {
			t.Errorf("%s of ply %d was let go; want it kept", connectFour.Spec().Format(b), b.Ply())
		}
	}
	if _, ok := m.get(deep); ok {
		t.Errorf("the position of ply 3 was kept past memoMost; want it let go")
	}
}

// A draw asks the best moves of each class of positions once, whichever
// of its boards play meets first.
func TestDrawAsksAClassOnce(t *testing.T) {
	s := Sample{N: 200, Seed: 2, Plies: Plies{4, 14}}
	if err := s.WithEpsilon(0.5); err != nil {
		t.Fatal(err)
	}
	asks, classes := 0, map[game.Board]bool{}
	best := func(_ context.Context, b game.Board) (uint64, error) {
		asks++
		least, _ := game.Least(b, connectFour.Symmetries())
		classes[least] = true
		return centremost(connectFour, b), nil
	}
	if _, err := s.Draw(context.Background(), connectFour, []BestMoves{best}); err != nil {
		t.Fatal(err)
	}
	if asks != len(classes) || asks == 0 {
		t.Errorf("the draw asked %d times for %d classes; want each class once", asks, len(classes))
	}
}
