package search

import (
	"context"
	"flag"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/longtest"
	"github.com/tateti-lab/tateti-lab/internal/progress"
	"github.com/tateti-lab/tateti-lab/internal/protocol"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
)

// Search and the exhaustive solve are two independent solvers: they must
// give every position the same value and depth, and Value the same value. Small games are checked on
// every position, larger ones on a reproducible sample; without the long
// checks, a tenth of the sample, and a thousand positions of the 16-cell
// boards checked whole with them. The packed layout,
// which boards past Pons' take (gravity 8x8, free 6x6), is held to the solve
// on small boards laid out packed.
func TestAgreesWithSolve(t *testing.T) {
	tests := []struct {
		rows, cols, k   int
		gravity, misere bool
		sample          int // 0: every position
		packed          bool
	}{
		{3, 3, 3, false, false, 0, true},
		{3, 3, 3, false, true, 0, true},
		{3, 4, 3, false, false, 0, true},
		{2, 6, 2, false, true, 0, true},
		{4, 4, 3, false, false, 3000, true},
		{3, 3, 3, true, false, 0, true},
		{4, 4, 4, true, false, 0, true},
		{4, 4, 3, true, true, 0, true},
		{3, 5, 3, true, false, 0, true},
		{5, 4, 4, true, false, 3000, true},
		{3, 3, 3, false, false, 0, false},
		{3, 3, 3, false, true, 0, false},
		{3, 4, 3, false, false, 0, false},
		{4, 4, 3, false, false, 3000, false},
		{4, 4, 4, false, true, 3000, false},
		{2, 6, 2, false, false, 0, false},
		{3, 3, 3, true, false, 0, false},
		{4, 4, 4, true, false, 0, false},
		{4, 4, 4, true, true, 0, false},
		{3, 4, 3, true, false, 0, false},
		{4, 3, 3, true, true, 0, false},
		{2, 5, 2, true, false, 0, false},
		{4, 5, 4, true, false, 3000, false},
		{5, 4, 4, true, true, 3000, false},
		{6, 3, 3, true, false, 3000, false},
		// Gravity 5x5, past what is solved whole in memory here in good
		// time, is held to the tier solve instead (tier's
		// TestGravity5x5Sample, a long check).
	}
	for _, tt := range tests {
		rl := rules.New(rules.Spec{Spec: game.Spec{Rows: tt.rows, Cols: tt.cols, K: tt.k}, Gravity: tt.gravity, Misere: tt.misere})
		name := rl.Spec().Words()
		if tt.packed {
			name += " packed"
		}
		t.Run(name, func(t *testing.T) {
			if testing.Short() && (tt.sample > 0 || tt.rows*tt.cols == 16) {
				t.Skip("every position of 4x4, or a sample of a larger board: heavy under -race, runs without -short")
			}
			sol, err := solve.Lean(context.Background(), rl, 2)
			if err != nil {
				t.Fatal(err)
			}
			s, err := New(rl.Spec(), Options{TableBits: 20, Workers: 2, packed: tt.packed})
			if err != nil {
				t.Fatal(err)
			}
			if s.g.packed != tt.packed {
				t.Fatalf("the layout is packed: %v, want %v", s.g.packed, tt.packed)
			}
			positions := sol.Positions(true)
			switch { // the long checks take every position, or the whole sample
			case longtest.Enabled():
			case tt.sample > 0:
				tt.sample /= 10
			case len(positions) > 100_000: // every position of a 4x4 board
				tt.sample = 1000
			}
			if tt.sample > 0 {
				positions = pick(positions, tt.sample, uint64(tt.rows*100+tt.cols))
			}
			for _, i := range positions {
				b := sol.Enum.Board(i)
				r, err := s.Solve(context.Background(), uint64(b.X), uint64(b.O))
				if err != nil {
					t.Fatal(err)
				}
				if !r.Settled || r.Value != sol.Value[i] || r.Depth != sol.Depth[i] {
					t.Fatalf("%s: search gives %+v, the solve value %d depth %d", rl.Spec().Format(b), r, sol.Value[i], sol.Depth[i])
				}
				v, err := s.Value(context.Background(), uint64(b.X), uint64(b.O))
				if want := (Result{Value: sol.Value[i], Bounds: perfect.Bounds{Low: sol.Value[i], High: sol.Value[i]}}); err != nil || v != want {
					t.Fatalf("%s: Value gives %+v, %v; want %+v", rl.Spec().Format(b), v, err, want)
				}
			}
		})
	}
}

// John Tromp's values of Connect Four, W columns by H rows, from the empty
// board: + the first player wins, = draw, - the second. The larger boards
// take minutes: they are benchmarks (BenchmarkTromp).
var tromp = []struct {
	w, h  int
	value perfect.Value
}{
	{4, 4, 0}, {5, 4, 0}, {6, 4, -1}, {7, 4, 0},
	{4, 5, 0}, {5, 5, 0}, {6, 5, 0}, {7, 5, 0},
	{4, 6, 0}, {5, 6, 0}, {6, 6, -1}, {7, 6, 1},
}

// The boards up to 25 cells take a second at most: w4h4, w5h4, w6h4 (O
// wins), w4h5, w5h5, w4h6.
func TestTromp(t *testing.T) {
	for _, tt := range tromp {
		if tt.w*tt.h > 25 {
			continue
		}
		t.Run(fmt.Sprintf("w%dh%d", tt.w, tt.h), func(t *testing.T) {
			if testing.Short() && tt.w*tt.h > 20 {
				t.Skip("seconds under -race; runs without -short")
			}
			s, err := New(gravity(tt.h, tt.w, 4), Options{TableBits: 22, Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			if r, err := s.Solve(context.Background(), 0, 0); err != nil || r.Value != tt.value {
				t.Fatalf("value %d, %v; want %d", r.Value, err, tt.value)
			}
		})
	}
}

// BenchmarkTromp solves John Tromp's boards from the empty board, with one
// worker and with two: Tromp/w7h5/workers=2.
func BenchmarkTromp(b *testing.B) {
	for _, tt := range tromp {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("w%dh%d/workers=%d", tt.w, tt.h, workers), func(b *testing.B) {
				for b.Loop() {
					s, err := New(gravity(tt.h, tt.w, 4), Options{TableBits: *benchBits, Workers: workers})
					if err != nil {
						b.Fatal(err)
					}
					r, err := s.Solve(context.Background(), 0, 0)
					if err != nil || r.Value != tt.value {
						b.Fatalf("value %d, %v; want %d", r.Value, err, tt.value)
					}
					b.ReportMetric(float64(s.Nodes()), "nodes")
					b.ReportMetric(float64(r.Depth), "depth")
				}
			})
		}
	}
}

// A search whose context ends stops with its error, and the solver, its
// table holding only finished work, answers right afterwards.
func TestSolveStops(t *testing.T) {
	s, err := New(gravity(5, 6, 4), Options{TableBits: 20, Workers: 2}) // w6h5: a draw, about 0.3 s
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Solve(ctx, 0, 0); err != context.Canceled {
		t.Fatalf("a cancelled search gives %v, want context.Canceled", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := s.Solve(ctx, 0, 0); err != context.DeadlineExceeded {
		t.Fatalf("a search past its deadline gives %v, want context.DeadlineExceeded", err)
	}
	if r, err := s.Solve(context.Background(), 0, 0); err != nil || r.Value != 0 || r.Depth != 30 {
		t.Fatalf("after the stops: value %d depth %d, %v; want 0 and 30", r.Value, r.Depth, err)
	}
}

// benchBits sizes BenchmarkTromp's table: 2^24 entries, 128 MiB, unless
// -args -bench-bits=N says otherwise.
var benchBits = flag.Int("bench-bits", 24, "BenchmarkTromp: the table's size, as a power of 2")

// gravity gives the spec of a gravity game, normal play.
func gravity(rows, cols, k int) rules.Spec {
	return rules.Spec{Spec: game.Spec{Rows: rows, Cols: cols, K: k}, Gravity: true}
}

// BenchmarkConnectFour solves Connect Four's empty board, 7 columns by 6
// rows: X wins in 41 plies (Allis, Allen; Tromp's table).
func BenchmarkConnectFour(b *testing.B) {
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			for b.Loop() {
				s, err := New(gravity(6, 7, 4), Options{TableBits: connectFourBits, Workers: workers})
				if err != nil {
					b.Fatal(err)
				}
				r, err := s.Solve(context.Background(), 0, 0)
				if err != nil || r.Value != 1 || r.Depth != 41 {
					b.Fatalf("value %d depth %d, %v; want 1 and 41", r.Value, r.Depth, err)
				}
				b.ReportMetric(float64(s.Nodes()), "nodes")
			}
		})
	}
}

// BenchmarkConnectFourValue asks the value alone of the empty board of
// Connect Four, 7 columns by 6 rows (X wins), and of 6 by 6 (O wins), with
// one worker and with two: who wins, no depth (Solver.Value), what
// solvers of win, draw or loss alone answer.
func BenchmarkConnectFourValue(b *testing.B) {
	for _, tt := range []struct {
		w, h  int
		value perfect.Value
	}{{7, 6, perfect.XWins}, {6, 6, perfect.OWins}} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("w%dh%d/workers=%d", tt.w, tt.h, workers), func(b *testing.B) {
				for b.Loop() {
					s, err := New(gravity(tt.h, tt.w, 4), Options{TableBits: connectFourBits, Workers: workers})
					if err != nil {
						b.Fatal(err)
					}
					r, err := s.Value(context.Background(), 0, 0)
					if err != nil || r.Value != tt.value {
						b.Fatalf("value %d, %v; want %d", r.Value, err, tt.value)
					}
					b.ReportMetric(float64(s.Nodes()), "nodes")
				}
			})
		}
	}
}

// BenchmarkConnectFourOpenings asks the value of each of X's seven first
// moves on Connect Four's empty board, two workers, one table kept from
// move to move: only the centre column wins (Allis; Tromp), and the others
// are draws or losses for X.
func BenchmarkConnectFourOpenings(b *testing.B) {
	for b.Loop() {
		s, err := New(gravity(6, 7, 4), Options{TableBits: connectFourBits, Workers: 2})
		if err != nil {
			b.Fatal(err)
		}
		var wins []int
		for c := range 7 {
			r, err := s.Value(context.Background(), 1<<(5*7+c), 0) // X in column c, on the bottom row
			if err != nil {
				b.Fatal(err)
			}
			if r.Value == 1 {
				wins = append(wins, c+1)
			}
		}
		if len(wins) != 1 || wins[0] != 4 {
			b.Fatalf("X's winning first moves are the columns %v, want only 4", wins)
		}
		b.ReportMetric(float64(s.Nodes()), "nodes")
	}
}

// A span of scores of the side to move proves bounds of the value for X.
func TestBounds(t *testing.T) {
	s, err := New(gravity(6, 7, 4), Options{TableBits: MinTableBits, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		sp      span
		xToMove bool
		want    perfect.Bounds
	}{
		{"nothing", span{-42, 42}, true, perfect.Bounds{Low: -1, High: 1}},
		{"the mover does not lose, X", span{0, 42}, true, perfect.Bounds{Low: 0, High: 1}},
		{"the mover does not lose, O", span{0, 42}, false, perfect.Bounds{Low: -1, High: 0}},
		{"the mover wins, O", span{3, 9}, false, perfect.Bounds{Low: -1, High: -1}},
		{"the mover does not win, X", span{-5, 0}, true, perfect.Bounds{Low: -1, High: 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := s.bounds(tt.sp, tt.xToMove); got != tt.want {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestTableBitsFor(t *testing.T) {
	tests := []struct {
		name   string
		memory uint64
		want   int
	}{
		{"not known", 0, 24},
		{"too little for the least", 100, MinTableBits},
		{"1 MiB: a table of 512 KiB", 1 << 20, 16},
		{"a large machine: the most", 1 << 40, MaxTableBits},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := TableBitsFor(tt.memory); got != tt.want {
				t.Fatalf("got %d, want %d", got, tt.want)
			}
		})
	}
}

// teller hears what a search tells its progress line.
type teller chan string

func (t teller) Report(string, int, int64, int64) {}
func (t teller) Tell(phase, text string)          { t <- phase + ": " + text }

// A search in progress tells its nodes, their rate and what it has proved,
// with the latest ply of a proved win.
func TestTell(t *testing.T) {
	s, err := New(gravity(6, 7, 4), Options{TableBits: MinTableBits, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	s.now = span{lo: 3, hi: 30} // X, to move on the empty board, wins by ply 40
	heard := make(teller, 1)
	j := &job{ctx: progress.With(context.Background(), heard), xToMove: true, done: make(chan struct{})}
	told := make(chan struct{})
	go func() { s.tell(j); close(told) }()
	got := <-heard
	close(j.done)
	<-told
	if want := "proved: X wins, within 40 plies"; !strings.HasPrefix(got, "search: ") || !strings.Contains(got, want) {
		t.Fatalf("told %q, want the search's nodes and %q", got, want)
	}
}

// connectFourBits sizes BenchmarkConnectFour's table: 2^26 entries, 512
// MiB, MaxTableBits, what the command gives it on a machine of 1 GiB or
// more.
var connectFourBits = MaxTableBits

// TestThreatWorth checks where each child's odd threat is asked on the
// 7x6 board: always for a draw or a win asked, and below a loss only when
// the window's horizon, cells+1+beta-moves plies ahead, is threatHorizon
// or more.
func TestThreatWorth(t *testing.T) {
	s, err := New(gravity(6, 7, 4), Options{TableBits: MinTableBits, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	edge := -(s.cells + 1 - 20 - threatHorizon) // the lowest beta asked at 20 marks
	tests := []struct {
		name        string
		moves, beta int
		want        bool
	}{
		{"a win asked", 36, 1, true},
		{"a draw asked", 36, 0, true},
		{"a slow loss, far off", 20, -1, true},
		{"the horizon at threatHorizon", 20, edge, true},
		{"the horizon a ply short", 20, edge - 1, false},
		{"a fast loss among fast wins", 10, -17, true},
		{"a fast loss, near", 20, -17, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := s.threatWorth(tt.moves, tt.beta); got != tt.want {
				t.Errorf("threatWorth(%d, %d) = %v, want %v", tt.moves, tt.beta, got, tt.want)
			}
		})
	}
}

// Each guess lies in its span, so that its answer narrows it: a wide span
// halved toward 0 (a full one on the mover's side), then the value (above 0, then above -1), then the depth
// from the bound proved.
func TestGuess(t *testing.T) {
	tests := []struct {
		name string
		sp   span
		hard bool
		want int
	}{
		{"nothing known: the mover's fast win first", span{-42, 42}, false, 23},
		{"no fast win: halved toward 0", span{-42, 21}, false, -21},
		{"nothing known, a hard position: a win?", span{-42, 42}, true, 0},
		{"a wide span of wins, a hard position: faster than proved?", span{2, 42}, true, 2},
		{"a wide span of wins: halved", span{2, 42}, false, 22},
		{"a wide span of losses: halved", span{-42, -3}, false, -23},
		{"a narrow span: a win?", span{-4, 4}, false, 0},
		{"no win: a loss?", span{-8, 0}, false, -1},
		{"a win: faster than proved?", span{2, 10}, false, 2},
		{"a loss: slower than proved?", span{-10, -3}, false, -4},
		{"a win or a draw: a win?", span{0, 5}, false, 0},
		{"a draw or a loss: a loss?", span{-5, 0}, false, -1},
		{"one of two wins", span{7, 8}, false, 7},
		{"one of two losses", span{-8, -7}, false, -8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := guess(tt.sp, tt.hard); got != tt.want {
				t.Errorf("guess(%v, %v) = %d, want %d", tt.sp, tt.hard, got, tt.want)
			}
		})
	}
	for lo := -42; lo <= 42; lo++ {
		for hi := lo + 1; hi <= 42; hi++ {
			for _, hard := range []bool{false, true} {
				if g := guess(span{lo, hi}, hard); g < lo || g >= hi {
					t.Errorf("guess(%d, %d, %v) = %d, want from %d to %d", lo, hi, hard, g, lo, hi-1)
				}
			}
		}
	}
}

// The busy table says a position is being searched from its enter to its
// leave, and a position that shares its slot neither clears nor takes it.
func TestBusyTable(t *testing.T) {
	var b busyTable
	h := busyHash(0b11, 0b111)
	other := h ^ 1 // the same slot, another position
	steps := []struct {
		name string
		do   func()
		h    uint64
		want bool
	}{
		{"nothing entered", func() {}, h, false},
		{"entered", func() { b.enter(h) }, h, true},
		{"another in its slot is not taken", func() {}, other, false},
		{"another's leave keeps it", func() { b.leave(other) }, h, true},
		{"left", func() { b.leave(h) }, h, false},
	}
	for _, st := range steps {
		st.do()
		if got := b.taken(st.h); got != st.want {
			t.Errorf("%s: taken = %v, want %v", st.name, got, st.want)
		}
	}
}

// BenchmarkPacked solves the same boards from the empty board in Pons'
// layout and packed, one worker, the table 2^20: what the boards past
// Pons' layout (gravity 8x8, free 6x6) pay for their masks and wide keys.
func BenchmarkPacked(b *testing.B) {
	boards := []struct {
		name string
		sp   rules.Spec
	}{
		{"gravity-w6h4", gravity(4, 6, 4)},
		{"free-4x4-k4", rules.Spec{Spec: game.Spec{Rows: 4, Cols: 4, K: 4}}},
	}
	for _, bd := range boards {
		for _, packed := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/packed=%v", bd.name, packed), func(b *testing.B) {
				for b.Loop() {
					s, err := New(bd.sp, Options{TableBits: 20, Workers: 1, packed: packed})
					if err != nil {
						b.Fatal(err)
					}
					if _, err := s.Solve(context.Background(), 0, 0); err != nil {
						b.Fatal(err)
					}
					b.ReportMetric(float64(s.Nodes()), "nodes")
				}
			})
		}
	}
}

// Positions near the root of 7x6, searched with a shared table large
// enough that each worker keeps the positions near the end in a near
// table of its own (tableOf), of 2^nearBits entries or of a quarter of
// the shared table, score as with one shared table too small for near
// tables. The race detector's run (-short) searches the one
// position of two workers: a search of ply 8 takes it a minute a worker.
func TestNearTable(t *testing.T) {
	rl := rules.New(gravity(6, 7, 4))
	rng := rand.New(rand.NewPCG(42, 1))
	for i := range 3 {
		b, ok := randomPlay(rl, 8, rng)
		if !ok || testing.Short() && i%2 == 0 {
			continue
		}
		t.Run(rl.Spec().Format(b), func(t *testing.T) {
			sizes := []int{nearBits + 3, nearLeast, nearLeast - 1} // near tables of 2^nearBits, of a quarter, none
			if testing.Short() {
				sizes = sizes[1:]
			}
			got := make([]Result, len(sizes))
			for k, bits := range sizes {
				s, err := New(rl.Spec(), Options{TableBits: bits, Workers: 1 + i%2})
				if err != nil {
					t.Fatal(err)
				}
				if got[k], err = s.Solve(context.Background(), uint64(b.X), uint64(b.O)); err != nil {
					t.Fatal(err)
				}
				near := s.TableBytes() > 8<<bits
				if want := bits >= nearLeast; near != want {
					t.Fatalf("table of 2^%d entries: near tables %v, want %v", bits, near, want)
				}
				if i%2 == 0 { // one worker: the shared table and a near table at most
					if got, want := s.TableBytes(), TableBytesFor(rl.Spec(), bits, 42-b.Ply()); got != want {
						t.Errorf("table of 2^%d entries: %d bytes, TableBytesFor says %d", bits, got, want)
					}
				}
			}
			last := got[len(got)-1] // one table
			for _, r := range got {
				if r != last {
					t.Errorf("with near tables %v in %d plies, with one table %v in %d", r.Value, r.Depth, last.Value, last.Depth)
				}
			}
		})
	}
}

// pick gives n of positions drawn reproducibly from seed, in their order:
// a draw of n, not a shuffle of millions.
func pick(positions []int, n int, seed uint64) []int {
	var out []int
	for _, k := range protocol.Sample(len(positions), n, seed) {
		out = append(out, positions[k])
	}
	return out
}

// childCut cuts at a child whose entry proves its move reaches beta, and
// leaves out the moves whose children's entries prove they fail low,
// giving the most those can score. The position is gravity 4x4's empty
// board; its children are the four bottom cells, the first one's entry
// set by each case (a score for its mover, O), which the last one, its
// mirror image, shares.
func TestChildCut(t *testing.T) {
	tests := []struct {
		name        string
		v           int
		flag        uint64
		alpha, beta int
		wantFloor   int
		wantLow     bool
		wantCut     bool
	}{
		{"exact, the move reaches beta", -3, exact, 1, 2, 3, false, true},
		{"upper bound, the move reaches beta", -2, upper, 1, 2, 2, false, true},
		{"lower bound, the move may reach beta", -2, lower, 1, 2, -17, false, false},
		{"exact, the move fails low", 4, exact, -1, 0, -4, true, false},
		{"lower bound, the move fails low", 1, lower, -1, 0, -1, true, false},
		{"lower bound, the move may beat alpha", -1, lower, -1, 0, -17, false, false},
		{"upper bound, the move may fail low", 4, upper, -1, 0, -17, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := New(gravity(4, 4, 4), Options{TableBits: MinTableBits, Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			s.fit(16, 0)
			w := s.pool[0]
			first := s.g.bottom & -s.g.bottom
			images := first | 1<<(63-bits.LeadingZeros64(s.g.bottom))
			s.tt.put(hash(w.key(0, first, 1)), tt.v, tt.flag) // O, to move there, has no mark
			floor, low, cut := w.childCut(0, 0, s.g.bottom, 0, tt.alpha, tt.beta)
			if cut != tt.wantCut || floor != tt.wantFloor || (low == images) != tt.wantLow || low&^images != 0 {
				t.Errorf("got floor %d, low %#x, cut %v; want floor %d, the first and last moves low %v, cut %v", floor, low, cut, tt.wantFloor, tt.wantLow, tt.wantCut)
			}
		})
	}
}

// A Solver gives its tables' memory back at Close, and a search after it
// makes them again: positions of more and more empty cells (each wanting a
// larger table, the one before released) answer the same before Close and
// after, and Close twice is no harm.
func TestCloseThenSolve(t *testing.T) {
	s, err := New(gravity(6, 7, 4), Options{TableBits: 22, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	moves := []string{"4444443333337777772222", "44444433333377777", "4444443333337", "444444333"}
	rl := rules.New(gravity(6, 7, 4))
	solve := func() []Result {
		var out []Result
		for _, m := range moves {
			b, err := rules.Play(rl, game.Board{}, m)
			if err != nil {
				t.Fatal(err)
			}
			r, err := s.Solve(context.Background(), uint64(b.X), uint64(b.O))
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, r)
		}
		return out
	}
	before := solve()
	s.Close()
	s.Close()
	if after := solve(); !slices.Equal(after, before) {
		t.Errorf("after Close: %v, want %v", after, before)
	}
}
