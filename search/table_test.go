package search

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/tateti-lab/tateti-lab/rules"
)

// A lookup never takes another position's score, however the slots in use
// change between its store and its lookup (grow widens them during a
// search; fit narrows them for the next). Each case stores a hash with
// some slots in use and looks up hashes that differ from it in a few bits,
// the low bits that choose a slot and the high ones the tag keeps, with
// as many slots in use or more.
func TestTableNeverMistakes(t *testing.T) {
	flips := []struct {
		name string
		bits uint64
	}{
		{"the top bit", 1 << 63},
		{"the top two bits", 3 << 62},
		{"the lowest bit of the tag", 1 << tagShift},
		{"the highest bit of a slot of 2^12", 1 << 11},
		{"the lowest bit", 1},
		{"the lowest bit and the top bit", 1<<63 | 1},
	}
	const most = 16
	tb := newTable(most, most, false)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, f := range flips {
		t.Run(f.name, func(t *testing.T) {
			for range 1 << 10 {
				h := rng.Uint64()
				for b1 := MinTableBits; b1 <= most; b1 += 2 {
					for b2 := b1; b2 <= most; b2++ {
						tb.use(b1)
						tb.put(h, 7, exact)
						if got, _, ok := tb.get(h); !ok || got != 7 {
							t.Fatalf("h %#x stored with 2^%d slots: got %d, %v, want 7, true", h, b1, got, ok)
						}
						tb.use(b2)
						if got, _, ok := tb.get(h ^ f.bits); ok {
							t.Fatalf("h %#x stored with 2^%d slots in use, then %#x looked up with 2^%d: got %d, want a miss", h, b1, h^f.bits, b2, got)
						}
						tb.use(b1)
						tb.slots[h&tb.mask.Load()].Store(0)
					}
				}
			}
		})
	}
}

// The slots in use grow from startBits with the nodes a search takes, up
// to what its position wants, and Reset empties every slot used.
func TestTableGrows(t *testing.T) {
	tests := []struct {
		name     string
		want     int
		nodes    uint64
		wantUsed int
	}{
		{"few nodes keep the start", 24, 1000, startBits},
		{"a position that wants fewer uses fewer", 14, 0, 14},
		{"four slots a node", 24, 1 << 20, 22},
		{"no more than the position wants", 20, 1 << 30, 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &Solver{maxBits: 26, tt: newTable(tt.want, startBits, false), want: tt.want}
			s.nodes.Store(tt.nodes)
			s.grow(&job{})
			if got := s.tt.used(); got != tt.wantUsed {
				t.Errorf("slots in use after %d nodes: got 2^%d, want 2^%d", tt.nodes, got, tt.wantUsed)
			}
			s.tt.put(^uint64(0), 3, exact)
			s.tt.use(MinTableBits)
			s.Reset()
			s.tt.use(tt.want)
			if _, _, ok := s.tt.get(^uint64(0)); ok {
				t.Errorf("after Reset an entry stored with 2^%d slots in use is still there", tt.wantUsed)
			}
		})
	}
}

// A search of a position near the last one searched keeps the slots that
// search widened to; any other starts with startBits, and no search uses
// more than its position wants.
func TestStartSlots(t *testing.T) {
	const last = 0b1111 // the last position's marks
	tests := []struct {
		name       string
		mask       uint64
		used, want int // the slots the last search ended with, and what this position wants
		wantStart  int
	}{
		{"a child keeps the slots", last | 1<<8, 22, 24, 22},
		{"a sibling keeps them", last&^1 | 1<<8, 22, 24, 22},
		{"two marks gone: unrelated", last&^3 | 1<<8, 22, 24, startBits},
		{"the same position keeps them", last, 20, 24, 20},
		{"near, but wanting fewer", last | 1<<8, 22, 19, 19},
		{"unrelated, wanting fewer than the start", 1 << 20, 22, 12, 12},
		{"near, the last search short", last | 1<<8, 13, 24, startBits},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &Solver{tt: newTable(22, tt.used, false), last: last, want: tt.want}
			defer s.tt.release()
			if got := s.startSlots(tt.mask); got != tt.wantStart {
				t.Errorf("startSlots(%#b) after a search that used 2^%d slots: got 2^%d, want 2^%d", tt.mask, tt.used, got, tt.wantStart)
			}
		})
	}
	s := &Solver{want: 24} // no table yet: no search before
	if got := s.startSlots(0); got != startBits {
		t.Errorf("the first search: got 2^%d slots, want 2^%d", got, startBits)
	}
}

// A search's helpers start only on cores the solvers sharing them leave
// idle: none when a core is all there is, or when another search holds
// the other one.
func TestCoresStartHelpersOnIdleCores(t *testing.T) {
	rl := rules.New(gravity(6, 7, 4))
	b, err := rules.Position(rl, "", "44444343")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		cores     *Cores
		held      int
		wantHelps bool
	}{
		{"no cores shared: every helper", nil, 0, true},
		{"two cores", NewCores(2), 0, true},
		{"one core", NewCores(1), 0, false},
		{"two cores, one held by another search", NewCores(2), 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := New(rl.Spec(), Options{TableBits: 20, Workers: 2, Cores: tt.cores})
			if err != nil {
				t.Fatal(err)
			}
			for range tt.held {
				tt.cores.take()
			}
			if _, err := s.Solve(context.Background(), uint64(b.X), uint64(b.O)); err != nil {
				t.Fatal(err)
			}
			if got := s.pool[1].nodes > 0; got != tt.wantHelps {
				t.Errorf("the helper searched: got %v, want %v (%d nodes in all)", got, tt.wantHelps, s.Nodes())
			}
			if tt.cores != nil {
				if got := tt.cores.busy.Load(); got != int64(tt.held) {
					t.Errorf("cores busy after the search: got %d, want %d", got, tt.held)
				}
			}
		})
	}
}
