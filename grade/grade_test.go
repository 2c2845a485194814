package grade

import "testing"

func TestTally(t *testing.T) {
	var tl Tally
	moves := []struct {
		before, after int8
		best          bool
	}{
		{1, 1, true}, {1, 1, false}, {1, 0, false}, {1, -1, false}, {0, -1, false}, {0, 0, true}, {-1, -1, true},
	}
	for _, m := range moves {
		tl.add(m.before, m.after, m.best)
	}
	tl.finish()
	want := Tally{Positions: 7, Kept: 4, Best: 3, WinToDraw: 1, WinToLoss: 1, DrawToLoss: 1, Accuracy: 57.14}
	if tl != want {
		t.Fatalf("got %+v, want %+v", tl, want)
	}
}
