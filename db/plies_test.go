package db

import "testing"

func TestPlyCodesFindAndNext(t *testing.T) {
	codes := make([]byte, 3*dirStep)
	reach := []int64{1, 5, dirStep - 1, dirStep + 7, 3*dirStep - 1} // the reachable ranks
	for _, r := range reach {
		codes[r] = 9
	}
	pl := newPlyCodes(codes)
	if got := pl.Reachable(); got != int64(len(reach)) {
		t.Fatalf("Reachable = %d, want %d", got, len(reach))
	}
	for k, want := range reach {
		if got := pl.Find(int64(k)); got != want {
			t.Errorf("Find(%d) = %d, want %d", k, got, want)
		}
	}
	tests := []struct{ from, want int64 }{{0, 1}, {2, 5}, {6, dirStep - 1}, {dirStep, dirStep + 7}, {dirStep + 8, 3*dirStep - 1}, {3 * dirStep, -1}}
	for _, tt := range tests {
		if got := pl.Next(tt.from); got != tt.want {
			t.Errorf("Next(%d) = %d, want %d", tt.from, got, tt.want)
		}
	}
}
