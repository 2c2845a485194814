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

func TestPercent(t *testing.T) {
	tests := []struct {
		name   string
		n, all int64
		want   float64
	}{
		{"rounded up", 16, 17, 94.12},
		{"rounded down", 1, 3, 33.33},
		{"all", 5, 5, 100},
		{"all but one of many", 99999, 100000, 99.99},
		{"one of many", 1, 100000, 0.01},
		{"none", 0, 7, 0},
		{"of none", 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Percent(tt.n, tt.all); got != tt.want {
				t.Errorf("Percent(%d, %d) = %v, want %v", tt.n, tt.all, got, tt.want)
			}
		})
	}
}
