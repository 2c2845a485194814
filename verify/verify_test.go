package verify

import (
	"context"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/tateti-lab/tateti-lab/checker"
	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/fakeprog"
	"github.com/tateti-lab/tateti-lab/internal/longtest"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
)

func TestMain(m *testing.M) { os.Exit(fakeprog.TestMain(m)) }

func setup(t testing.TB, s game.Spec) (*enumerate.Result, []checker.Checker) {
	t.Helper()
	return setupUnder(t, rules.Classic(s))
}

func setupUnder(t testing.TB, rl rules.Rules) (*enumerate.Result, []checker.Checker) {
	t.Helper()
	e, err := enumerate.Game(context.Background(), rl, 2)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := checker.All(rl.Spec().Spec)
	if err != nil {
		t.Fatal(err)
	}
	return e, cs
}

func variant(rows, cols, k int, gravity, misere bool) rules.Rules {
	return rules.New(rules.Spec{Spec: game.Spec{Rows: rows, Cols: cols, K: k}, Gravity: gravity, Misere: misere})
}

// The rule sets of the public figures, and smaller ones.
var variants = []rules.Rules{
	variant(3, 3, 3, false, false),
	variant(4, 4, 4, false, false),
	variant(4, 4, 3, false, false),
	variant(3, 4, 3, false, false),
	variant(2, 5, 2, false, false),
	variant(3, 3, 3, false, true),
	variant(4, 4, 4, true, false),
	variant(3, 4, 4, true, false),
	variant(4, 3, 4, true, false),
	variant(4, 3, 3, true, true),
	// Past 16 cells, on the sparse index.
	variant(6, 3, 3, true, false),
	variant(2, 9, 2, false, false),
}

// heavy runs free 4x4, millions of positions, only with the long checks;
// and under -short, the race detector's run, none past 12 cells.
func heavy(t *testing.T, rl rules.Rules) {
	s := rl.Spec()
	if s.Cells() == 16 && !s.Gravity {
		longtest.Skip(t, s.String()+" whole, millions of positions")
	}
	if testing.Short() && s.Cells() > 12 {
		t.Skip("past 12 cells: heavy under -race, runs without -short")
	}
}

// All five voices agree on every reachable position of every variant.
func TestPositionsAgree(t *testing.T) {
	for _, rl := range variants {
		s := rl.Spec()
		t.Run(s.String(), func(t *testing.T) {
			heavy(t, rl)
			e, cs := setupUnder(t, rl)
			r, err := Positions(context.Background(), e, cs, 2)
			if err != nil {
				t.Fatal(err)
			}
			if r.Boards != int64(e.Len()) || r.Agree != r.Boards || r.Disagree != 0 {
				t.Fatalf("%v: %d boards, %d agree, %d disagree (first %v); want all %d to agree", s, r.Boards, r.Agree, r.Disagree, r.First, e.Len())
			}
			for _, tl := range r.Tallies {
				if tl.Agree != r.Boards {
					t.Errorf("voice %s agrees on %d of %d", tl.Voice, tl.Agree, r.Boards)
				}
			}
		})
	}
}

// brokenLines forgets the anti-diagonal: it scans rows, columns and the main
// diagonal only.
type brokenLines struct{ s game.Spec }

func (brokenLines) Name() string { return "broken" }

func (b brokenLines) Status(cells []game.Cell) game.Status {
	s := b.s
	won := func(p game.Cell) bool {
		for r := range s.Rows {
			for c := range s.Cols {
				for _, d := range [][2]int{{0, 1}, {1, 0}, {1, 1}} {
					j := 0
					for ; j < s.K; j++ {
						rr, cc := r+j*d[0], c+j*d[1]
						if rr >= s.Rows || cc >= s.Cols || cells[rr*s.Cols+cc] != p {
							break
						}
					}
					if j == s.K {
						return true
					}
				}
			}
		}
		return false
	}
	switch {
	case won(game.X):
		return game.XWon
	case won(game.O):
		return game.OWon
	}
	for _, c := range cells {
		if c == game.Empty {
			return game.InProgress
		}
	}
	return game.Draw
}

func TestBrokenCheckerIsCaught(t *testing.T) {
	e, cs := setup(t, game.Default)
	r, err := Positions(context.Background(), e, append(cs, brokenLines{game.Default}), 2)
	if err != nil {
		t.Fatal(err)
	}
	if r.Disagree == 0 || len(r.First) == 0 {
		t.Fatal("a checker that forgets the anti-diagonal was not caught")
	}
	d := r.First[0]
	b, err := game.Default.Parse(d.Board)
	if err != nil {
		t.Fatal(err)
	}
	anti := game.Mask(1<<2 | 1<<4 | 1<<6)
	if b.X&anti != anti && b.O&anti != anti {
		t.Errorf("first disagreement %s has no anti-diagonal line", d.Board)
	}
	if got := d.Statuses[len(d.Statuses)-1]; got != "in_progress" {
		t.Errorf("broken checker said %s on %s, want in_progress", got, d.Board)
	}
	if r.Tallies[5].Disagree != r.Disagree || r.Tallies[1].Disagree != 0 {
		t.Errorf("disagreements are blamed on the wrong voice: %+v", r.Tallies)
	}
}

// horizontalOnly scans rows alone, as a Connect-Four checker with the
// classic bug does.
type horizontalOnly struct{ s game.Spec }

func (horizontalOnly) Name() string { return "horizontal" }

func (h horizontalOnly) Status(cells []game.Cell) game.Status {
	s := h.s
	full := true
	for r := range s.Rows {
		run, last := 0, game.Empty
		for c := range s.Cols {
			v := cells[r*s.Cols+c]
			full = full && v != game.Empty
			if v != last {
				run, last = 0, v
			}
			if run++; v != game.Empty && run == s.K {
				return map[game.Cell]game.Status{game.X: game.XWon, game.O: game.OWon}[v]
			}
		}
	}
	if full {
		return game.Draw
	}
	return game.InProgress
}

func TestHorizontalOnlyIsCaughtUnderGravity(t *testing.T) {
	rl := variant(4, 4, 4, true, false)
	e, cs := setupUnder(t, rl)
	r, err := Positions(context.Background(), e, append(cs, horizontalOnly{rl.Spec().Spec}), 2)
	if err != nil {
		t.Fatal(err)
	}
	if r.Disagree == 0 || r.Tallies[5].Disagree != r.Disagree || r.Tallies[1].Disagree != 0 {
		t.Fatalf("a checker that scans rows only: %d disagreements, tallies %+v; want it caught and blamed", r.Disagree, r.Tallies)
	}
	if got := r.First[0].Statuses[5]; got != "in_progress" {
		t.Errorf("horizontal checker said %s on %s, want in_progress", got, r.First[0].Board)
	}
}

func TestWorkersAgree(t *testing.T) {
	e, cs := setup(t, game.Spec{Rows: 3, Cols: 4, K: 3})
	cs = append(cs, brokenLines{game.Spec{Rows: 3, Cols: 4, K: 3}})
	one, err := Positions(context.Background(), e, cs, 1)
	if err != nil {
		t.Fatal(err)
	}
	many, err := Positions(context.Background(), e, cs, 6)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one, many) {
		t.Fatal("1 worker and 6 workers give different reports")
	}
}

func TestAllBoards3x3(t *testing.T) {
	e, cs := setup(t, game.Default)
	r, err := AllBoards(context.Background(), e, cs, 2)
	if err != nil {
		t.Fatal(err)
	}
	var sum int64
	for _, rc := range r.ByReason {
		sum += rc.Boards
	}
	if r.Boards != 19683 || sum != 19683 || r.ByReason[0].Boards != 5478 {
		t.Fatalf("%d boards, reasons sum to %d, %d reachable; want 19683, 19683, 5478", r.Boards, sum, r.ByReason[0].Boards)
	}
	if r.Mismatches != 0 {
		t.Fatalf("reachability and enumeration disagree on %d boards: %v", r.Mismatches, r.FirstMismatch)
	}
	if r.Reachable.Disagree != 0 {
		t.Fatalf("voices disagree on %d reachable boards: %v", r.Reachable.Disagree, r.Reachable.First)
	}
	// Where both have a line, the checkers look in different orders.
	both := false
	for _, p := range r.Patterns {
		if p.Reason == rules.BothWon.String() {
			both = true
		}
		if p.Reason == rules.Reachable.String() {
			t.Errorf("a pattern on reachable boards: %+v", p)
		}
	}
	if !both {
		t.Errorf("no difference among voices on boards where both have a line: %+v", r.Patterns)
	}
}

func solved(t testing.TB, s game.Spec) *solve.Result {
	t.Helper()
	e, _ := setup(t, s)
	r, err := solve.Enumeration(context.Background(), e, 2)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func solvedUnder(t testing.TB, rl rules.Rules) *solve.Result {
	t.Helper()
	e, _ := setupUnder(t, rl)
	r, err := solve.Enumeration(context.Background(), e, 2)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRecurrence(t *testing.T) {
	for _, rl := range variants {
		t.Run(rl.Spec().String(), func(t *testing.T) {
			heavy(t, rl)
			r := solvedUnder(t, rl)
			rep, err := Recurrence(context.Background(), r, 2)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Fail != 0 || rep.Hold != int64(r.Enum.Len()) {
				t.Fatalf("recurrence holds on %d of %d positions: %v", rep.Hold, r.Enum.Len(), rep.First)
			}
		})
	}
}

func TestNaive(t *testing.T) {
	r := solved(t, game.Default)
	rep, err := Naive(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Ran || rep.Nodes != 549946 || rep.Positions != 5478 || rep.Agree != 5478 {
		t.Fatalf("naive: ran %v, %d nodes, %d positions, %d agree (%v); want 549946 nodes and 5478 agreeing", rep.Ran, rep.Nodes, rep.Positions, rep.Agree, rep.First)
	}
	if testing.Short() {
		return // the 4x4 half below is heavy
	}
	big := solved(t, game.Spec{Rows: 4, Cols: 4, K: 4})
	rep, err = Naive(context.Background(), big)
	if err != nil || rep.Ran || !strings.Contains(rep.Why, "move sequences") {
		t.Fatalf("naive on 4x4: ran %v, why %q, %v; want it to decline and say why", rep.Ran, rep.Why, err)
	}
}

// The naive solver follows the rules: it agrees on every position of misère
// 3x3 and of small gravity boards, visiting every move sequence.
func TestNaiveVariants(t *testing.T) {
	for _, rl := range []rules.Rules{variant(3, 3, 3, false, true), variant(4, 3, 3, true, false), variant(4, 3, 4, true, true)} {
		t.Run(rl.Spec().String(), func(t *testing.T) {
			r := solvedUnder(t, rl)
			rep, err := Naive(context.Background(), r)
			if err != nil {
				t.Fatal(err)
			}
			var sequences int64
			for _, p := range r.Enum.Paths {
				sequences += p
			}
			if !rep.Ran || rep.Nodes != sequences || rep.Agree != int64(r.Enum.Len()) || rep.Disagree != 0 {
				t.Fatalf("naive: ran %v, %d nodes, %d of %d positions agree (%v); want %d nodes and all agreeing",
					rep.Ran, rep.Nodes, rep.Agree, r.Enum.Len(), rep.First, sequences)
			}
		})
	}
}

// Under gravity the raw boards have the new reasons, the reachability test
// agrees with the enumeration, and the voices agree on the reachable ones.
func TestAllBoardsGravity(t *testing.T) {
	e, cs := setupUnder(t, variant(3, 4, 4, true, false))
	r, err := AllBoards(context.Background(), e, cs, 2)
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]int64{}
	for _, rc := range r.ByReason {
		by[rc.Reason] = rc.Boards
	}
	if by["reachable"] != 12031 || by["floating"] == 0 || by["no_move_order"] == 0 || r.Mismatches != 0 || r.Reachable.Disagree != 0 {
		t.Fatalf("by reason %v, %d mismatches (%v), %d reachable disagreements; want 12031 reachable, floating and no_move_order boards, no mismatch",
			by, r.Mismatches, r.FirstMismatch, r.Reachable.Disagree)
	}
}

// A corrupted solution fails both cross-checks: they can fail.
func TestCrossChecksCatchCorruption(t *testing.T) {
	r := solved(t, game.Default)
	i, _ := r.Enum.Lookup(game.ID(game.Board{X: 1 << 4}))
	r.Depth[i]++ // X in the centre: claim one ply more than perfect play takes
	rec, err := Recurrence(context.Background(), r, 2)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Fail == 0 {
		t.Error("recurrence missed a wrong depth")
	}
	nv, err := Naive(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	if nv.Disagree == 0 || !strings.Contains(nv.First[0], ".../.X./...") {
		t.Errorf("naive solver missed a wrong depth: %+v", nv)
	}
}

func BenchmarkVerify4x4(b *testing.B) {
	e, cs := setup(b, game.Spec{Rows: 4, Cols: 4, K: 4})
	for b.Loop() {
		if _, err := Positions(context.Background(), e, cs, 2); err != nil {
			b.Fatal(err)
		}
	}
}

// The raw-board report is the same, patterns in the same order, whatever the
// worker count.
func TestAllBoardsWorkersAgree(t *testing.T) {
	s := game.Spec{Rows: 3, Cols: 4, K: 3}
	if testing.Short() {
		s = game.Default // 3^9 boards, not 3^12: the race detector's run
	}
	e, cs := setup(t, s)
	var first *RawReport
	for _, workers := range []int{1, 2, 3, 8} {
		r, err := AllBoards(context.Background(), e, cs, workers)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = r
			continue
		}
		if !reflect.DeepEqual(first, r) {
			t.Fatalf("%d workers give a different report from 1 worker", workers)
		}
	}
}
