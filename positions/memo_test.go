package positions

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
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

// A draw resumed from its journal of games asks no question its games
// read back asked when they were played: it asks what the whole draw
// uninterrupted asks, less what the first part asked.
func TestDrawResumedAsksNothingTwice(t *testing.T) {
	s := Sample{N: 300, Seed: 3, Plies: Plies{4, 16}}
	if err := s.WithEpsilon(0.25); err != nil {
		t.Fatal(err)
	}
	asks := 0
	best := func(_ context.Context, b game.Board, cell int) (bool, error) {
		asks++
		return centremost(connectFour, b)>>cell&1 == 1, nil
	}
	draw := func(n int, path string) int {
		t.Helper()
		asks = 0
		s := s
		s.N = n
		if _, _, err := s.DrawKept(context.Background(), connectFour, []BestMove{best}, path); err != nil {
			t.Fatal(err)
		}
		return asks
	}
	whole := draw(s.N, "")
	path := filepath.Join(t.TempDir(), ".out.games")
	first := draw(s.N/3, path)
	rest := draw(s.N, path)
	if first == 0 || rest != whole-first {
		t.Errorf("resumed after a draw that asked %d questions, the draw asked %d more; want %d, the whole draw's %d less those", first, rest, whole-first, whole)
	}
}

// A journal of games holding a game this draw does not play is refused:
// a game read back is played again, to relearn its answers, and must end
// where the journal says it did.
func TestDrawRefusesAnotherDrawsGames(t *testing.T) {
	s := Sample{N: 40, Seed: 3, Plies: Plies{4, 10}}
	if err := s.WithEpsilon(0.25); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), ".out.games")
	j, err := openGames(path, gamesKey(s, connectFour))
	if err != nil {
		t.Fatal(err)
	}
	var b game.Board // game 0 plays to ply 4 at least; this one stops at 1
	if err := errors.Join(j.add(0, Drawn{Board: b.Play(3, game.X), Kept: true, History: History{3}}), j.close()); err != nil {
		t.Fatal(err)
	}
	centre := func(_ context.Context, b game.Board, cell int) (bool, error) {
		return centremost(connectFour, b)>>cell&1 == 1, nil
	}
	_, _, err = s.DrawKept(context.Background(), connectFour, []BestMove{centre}, path)
	if err == nil || !strings.Contains(err.Error(), "is not the game this draw plays") {
		t.Errorf("a draw over a journal whose game 0 is not its own: %v, want it refused", err)
	}
}

// Games read back are relearnt only once a game is to be played: a draw
// whose games are all in its journal (a run resumed while labelling)
// spends nothing on them.
func TestDrawRelearnsBeforePlaying(t *testing.T) {
	s := Sample{N: 60, Seed: 3, Plies: Plies{4, 12}}
	if err := s.WithEpsilon(0.25); err != nil {
		t.Fatal(err)
	}
	best := func(_ context.Context, b game.Board, cell int) (bool, error) {
		return centremost(connectFour, b)>>cell&1 == 1, nil
	}
	path := filepath.Join(t.TempDir(), ".out.games")
	if _, _, err := s.DrawKept(context.Background(), connectFour, []BestMove{best}, path); err != nil {
		t.Fatal(err)
	}
	j, err := openGames(path, gamesKey(s, connectFour))
	if err != nil {
		t.Fatal(err)
	}
	defer j.close()
	p, err := s.Player(connectFour, best)
	if err != nil {
		t.Fatal(err)
	}
	games := len(j.have)
	for g := range games {
		if _, back, err := j.play(context.Background(), p, g); err != nil || !back {
			t.Fatalf("game %d: %v, read back %t; want it read back", g, err, back)
		}
	}
	if p.memo.n != 0 {
		t.Errorf("%d games read back and none played taught the memo %d positions; want none yet", games, p.memo.n)
	}
	if _, back, err := j.play(context.Background(), p, games); err != nil || back {
		t.Fatalf("game %d: %v, read back %t; want it played", games, err, back)
	}
	if p.memo.n == 0 {
		t.Errorf("a game played after %d read back: the memo is empty, want them relearnt first", games)
	}
}
