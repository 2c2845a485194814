package index

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"reflect"
	"slices"
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/longtest"
)

// A diagramCase names a board and its rules.
type diagramCase struct {
	rows, cols, k int
	gravity       bool
}

// eachDiagram runs check on the diagram of each case, as a subtest named
// by the case.
func eachDiagram(t *testing.T, cases []diagramCase, check func(t *testing.T, s game.Spec, d *Diagram, gravity bool)) {
	for _, tt := range cases {
		s := game.Spec{Rows: tt.rows, Cols: tt.cols, K: tt.k}
		t.Run(fmt.Sprintf("%s k=%d gravity=%v", s.Size(), s.K, tt.gravity), func(t *testing.T) {
			d, err := NewDiagram(s, tt.gravity)
			if err != nil {
				t.Fatal(err)
			}
			check(t, s, d, tt.gravity)
		})
	}
}

// lineless gives the boards of s the diagram ranks, by ply, each ply's in
// the diagram's order (the cells' values read as a number, level by
// level): fair counts, no line for either side, and under gravity
// stackable, found by walking every board (every stack, under gravity).
func lineless(s game.Spec, gravity bool) [][]game.Board {
	g := game.New(s)
	order := cellOrder(s, gravity)
	out := make([][]game.Board, s.Cells()+1)
	keep := func(b game.Board) {
		x, o := bits.OnesCount64(uint64(b.X)), bits.OnesCount64(uint64(b.O))
		if (x == o || x == o+1) && !g.Won(b.X) && !g.Won(b.O) {
			out[b.Ply()] = append(out[b.Ply()], b)
		}
	}
	if gravity {
		stacks(s, 0, game.Board{}, keep)
	} else {
		for id := range game.Pow3(s.Cells()) {
			keep(game.FromID(id))
		}
	}
	for _, bs := range out {
		slices.SortFunc(bs, func(a, b game.Board) int {
			for _, c := range order {
				if d := int(a.At(c)) - int(b.At(c)); d != 0 {
					return d
				}
			}
			return 0
		})
	}
	return out
}

// The diagram ranks every board with fair counts and no line, and nothing
// else, in the order of its cells' values: Size, Rank, Unrank and Each
// against a walk of every board, gravity and free, k from 1 to 4; a board
// with a line or one gravity cannot stack has no rank (-1), and Children
// gives each child's Rank, -1 for a move that makes a line.
func TestDiagram(t *testing.T) {
	eachDiagram(t, []diagramCase{
		{3, 4, 3, true}, {4, 3, 3, true}, {4, 4, 4, true}, {4, 4, 3, true}, {2, 5, 2, true},
		{3, 3, 3, false}, {3, 4, 3, false}, {1, 1, 1, true},
	}, func(t *testing.T, s game.Spec, d *Diagram, gravity bool) {
		want := lineless(s, gravity)
		for p, bs := range want {
			if got := d.Size(p); got != int64(len(bs)) {
				t.Fatalf("ply %d: Size %d, want %d boards", p, got, len(bs))
			}
			for r, b := range bs {
				if got := d.Rank(b); got != int64(r) {
					t.Fatalf("ply %d: Rank(%s) = %d, want %d", p, s.Format(b), got, r)
				}
				if got := d.Unrank(p, int64(r)); got != b {
					t.Fatalf("ply %d: Unrank(%d) = %s, want %s", p, r, s.Format(got), s.Format(b))
				}
				checkChildren(t, s, d, b, gravity)
			}
			var got []game.Board
			d.Each(p, 0, d.Size(p), nil, func(rank int64, b game.Board) { got = append(got, b) })
			if !slices.Equal(got, bs) {
				t.Fatalf("ply %d: Each gave %d boards, not the %d in rank order", p, len(got), len(bs))
			}
		}
		checkUnranked(t, s, d, gravity)
	})
}

// stacks calls fn with every board gravity can stack on s's columns from
// c on, b holding the columns before.
func stacks(s game.Spec, c int, b game.Board, fn func(game.Board)) {
	if c == s.Cols {
		fn(b)
		return
	}
	for h := range s.Rows + 1 {
		for colours := range 1 << h {
			col := b
			for j := range h {
				v := game.X
				if colours>>j&1 != 0 {
					v = game.O
				}
				col = col.Play((s.Rows-1-j)*s.Cols+c, v)
			}
			stacks(s, c+1, col, fn)
		}
	}
}

// checkUnranked checks that a board outside the diagram has rank -1: with
// a line, unfair counts, or (under gravity) a mark over an empty cell.
func checkUnranked(t *testing.T, s game.Spec, d *Diagram, gravity bool) {
	t.Helper()
	g := game.New(s)
	for id := range min(game.Pow3(s.Cells()), 200_000) {
		b := game.FromID(id)
		x, o := bits.OnesCount64(uint64(b.X)), bits.OnesCount64(uint64(b.O))
		in := (x == o || x == o+1) && (!gravity || stackable(s, b)) && !g.Won(b.X) && !g.Won(b.O)
		if got := d.Rank(b); (got >= 0) != in {
			t.Fatalf("Rank(%s) = %d; in the diagram: %v", s.Format(b), got, in)
		}
	}
}

// Each over a range, with a bitset, gives the boards of the range whose
// bits are set, with their ranks.
func TestDiagramEachRange(t *testing.T) {
	s := game.Spec{Rows: 4, Cols: 4, K: 4}
	d, err := NewDiagram(s, true)
	if err != nil {
		t.Fatal(err)
	}
	const p = 9
	tests := []struct {
		name   string
		lo, hi int64
	}{
		{"whole", 0, d.Size(p)},
		{"inside a word", 70, 100},
		{"across words", 63, 200},
		{"empty", 5, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			only := make([]uint64, (tt.hi-tt.lo&^63+63)/64+1)
			var want []int64
			for r := tt.lo; r < tt.hi; r++ {
				if r%3 != 1 {
					only[r/64-tt.lo/64] |= 1 << (r % 64)
					want = append(want, r)
				}
			}
			var got []int64
			d.Each(p, tt.lo, tt.hi, only, func(rank int64, b game.Board) {
				if d.Rank(b) != rank {
					t.Fatalf("rank %d given with %s, of rank %d", rank, s.Format(b), d.Rank(b))
				}
				got = append(got, rank)
			})
			if !slices.Equal(got, want) {
				t.Fatalf("Each gave ranks %v, want %v", got, want)
			}
		})
	}
}

// BenchmarkDiagram ranks and unranks boards of Connect Four 6x6's largest
// ply, spread over its ranks, and walks a range of it in rank order.
func BenchmarkDiagram(b *testing.B) {
	d, err := NewDiagram(game.Spec{Rows: 6, Cols: 6, K: 4}, true)
	if err != nil {
		b.Fatal(err)
	}
	const p = 28
	step := d.Size(p) / 4096
	b.Run("Rank", func(b *testing.B) {
		bs := make([]game.Board, 4096)
		for i := range bs {
			bs[i] = d.Unrank(p, int64(i)*step)
		}
		b.ResetTimer()
		for i := 0; b.Loop(); i++ {
			d.Rank(bs[i%len(bs)])
		}
	})
	b.Run("Unrank", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			d.Unrank(p, int64(i%4096)*step)
		}
	})
	b.Run("Each", func(b *testing.B) {
		lo := d.Size(p) / 2
		d.Each(p, lo, lo+int64(b.N), nil, func(int64, game.Board) {})
	})
	b.Run("Walker", func(b *testing.B) { // a board and its children's ranks
		w, kids := d.Walk(p, d.Size(p)/2), make([]int64, 0, 8)
		for b.Loop() {
			kids = w.Children(kids[:0])
			w.Next()
		}
	})
}

// A Diagram is a Placements, whose Children a tier solve asks.
var _ Placements = (*Diagram)(nil)

// A Walker from any rank gives the boards of the ply in rank order, as
// Unrank does, and each one's children as Diagram.Children does; the
// larger boards in the long checks.
func TestWalker(t *testing.T) {
	cases := []diagramCase{{4, 4, 4, true}, {3, 4, 3, false}, {2, 5, 2, true}}
	if longtest.Enabled() { // 11 s, minutes under -race
		cases = append(cases, diagramCase{4, 5, 4, true}, diagramCase{5, 4, 3, true})
	}
	eachDiagram(t, cases, func(t *testing.T, s game.Spec, d *Diagram, gravity bool) {
		for p := range s.Cells() + 1 {
			for _, lo := range []int64{0, d.Size(p) / 3, d.Size(p)} {
				checkWalk(t, s, d, p, lo, gravity)
			}
		}
	})
}

// checkWalk walks ply p of d from rank lo to its end.
func checkWalk(t *testing.T, s game.Spec, d *Diagram, p int, lo int64, gravity bool) {
	t.Helper()
	w := d.Walk(p, lo)
	r := lo
	var got, want []int64
	for ; !w.Done(); w.Next() {
		b := d.Unrank(p, r)
		if w.Rank() != r || w.Board() != b {
			t.Fatalf("ply %d from %d: at rank %d (%s), want rank %d (%s)", p, lo, w.Rank(), s.Format(w.Board()), r, s.Format(b))
		}
		got, want = w.Children(got[:0]), d.Children(want[:0], b, legal(s, b, gravity))
		if !slices.Equal(got, want) {
			t.Fatalf("ply %d, %s: the walker's children %v, want %v", p, s.Format(b), got, want)
		}
		r++
	}
	if r != d.Size(p) || w.Next() {
		t.Fatalf("ply %d from %d: the walk ended at rank %d, want %d", p, lo, r, d.Size(p))
	}
}

// Any number of goroutines counts the same ways, in runs of any length:
// gravity 5x5 in runs of 4,096 nodes by 1 and 3, and in runs of 7 by 3.
func TestDiagramWorkersAgree(t *testing.T) {
	s := game.Spec{Rows: 5, Cols: 5, K: 4}
	one, err := newDiagram(s, true, 1)
	if err != nil {
		t.Fatal(err)
	}
	runs := 0
	for L := range one.kids {
		runs = max(runs, (len(one.kids[L])/3+countChunk-1)/countChunk)
	}
	if runs < 2 {
		t.Fatalf("the largest level holds %d run of nodes: take a larger board", runs)
	}
	for _, chunk := range []int{countChunk, 7} {
		defer func(was int) { countChunk = was }(countChunk)
		countChunk = chunk
		three, err := newDiagram(s, true, 3)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(one.ways, three.ways) {
			t.Errorf("3 goroutines in runs of %d nodes counted other ways than 1", chunk)
		}
	}
}

// BenchmarkNewDiagram builds Connect Four 6x6's diagram with 1 and 2
// goroutines counting its ways.
func BenchmarkNewDiagram(b *testing.B) {
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprint("workers=", workers), func(b *testing.B) {
			for b.Loop() {
				if _, err := newDiagram(game.Spec{Rows: 6, Cols: 6, K: 4}, true, workers); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkChildWindows measures what a task of the win/draw/loss solve
// would read of the next ply were it to read windows of it, not the whole
// (docs/beam.md, Connect Four 7x6): for a task of 2^25 boards of a ply
// (tier.WDLTaskPositions) at a tenth, half and nine tenths of its ranks,
// the span of its children's ranks by each move's column, and the union
// of those spans, as megabytes of codes at four boards a byte
// (window-MB); and the boards a second walked with their children
// (boards/s). Connect Four 7x6, whose diagram takes 2.2 GB: go test
// ./index -run '^$' -bench ChildWindows -benchtime 1x -timeout 30m.
func BenchmarkChildWindows(b *testing.B) {
	s := game.Spec{Rows: 6, Cols: 7, K: 4}
	d, err := NewDiagram(s, true)
	if err != nil {
		b.Fatal(err)
	}
	const task = 1 << 25
	for _, p := range []int{24, 32, 38} {
		for _, tenth := range []int64{1, 5, 9} {
			lo := d.Size(p) * tenth / 10 / task * task
			b.Run(fmt.Sprintf("ply=%d/at=%d0%%", p, tenth), func(b *testing.B) {
				var union int64
				for b.Loop() {
					union = childWindow(d, s, p, lo, min(lo+task, d.Size(p)))
				}
				b.ReportMetric(float64(union)/4/1e6, "window-MB")
				b.ReportMetric(float64(task)*float64(b.N)/b.Elapsed().Seconds(), "boards/s")
			})
		}
	}
}

// childWindow gives the boards of the next ply a task of the ply p's
// boards of rank [lo, hi) would read: the union over the move columns of
// the span from each column's least child rank to its greatest.
func childWindow(d *Diagram, s game.Spec, p int, lo, hi int64) int64 {
	spans := make([][2]int64, s.Cols)
	for c := range spans {
		spans[c] = [2]int64{math.MaxInt64, -1}
	}
	kids := make([]int64, 0, s.Cols)
	for w := d.Walk(p, lo); w.Rank() < hi && !w.Done(); w.Next() {
		b, i := w.Board(), 0
		kids = w.Children(kids[:0])
		for cell := range s.Cells() { // the legal moves in cell order, as Children gives them
			below := cell + s.Cols
			if (b.X|b.O)>>cell&1 == 1 || below < s.Cells() && (b.X|b.O)>>below&1 == 0 {
				continue
			}
			if r, c := kids[i], cell%s.Cols; r >= 0 {
				spans[c] = [2]int64{min(spans[c][0], r), max(spans[c][1], r)}
			}
			i++
		}
	}
	slices.SortFunc(spans, func(a, b [2]int64) int { return cmp.Compare(a[0], b[0]) })
	var union, end int64 = 0, -1
	for _, sp := range spans {
		if sp[1] > end {
			union += sp[1] - max(sp[0], end+1) + 1
			end = sp[1]
		}
	}
	return union
}
