package book

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/longtest"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/search"
	"github.com/tateti-lab/tateti-lab/tier"
)

var connectFour = rules.Spec{Spec: game.Spec{Rows: 6, Cols: 7, K: 4}, Gravity: true}

// builtIn gives the book built in for Connect Four.
func builtIn(t *testing.T) Book {
	t.Helper()
	b, ok, err := For(connectFour)
	if !ok || err != nil {
		t.Fatalf("no book for %s: %v", connectFour, err)
	}
	return b
}

// open opens the book built in for Connect Four.
func open(t *testing.T) (Book, *db.DB) {
	t.Helper()
	b := builtIn(t)
	d, err := db.OpenFS(b.Files, b.Where(), rules.New(connectFour))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return b, d
}

// The book says what Allis and Tromp found: X wins Connect Four in 41
// plies, and the centre column is X's only winning first move; no other
// game has a book.
func TestConnectFour(t *testing.T) {
	b, d := open(t)
	if b.Last() < 1 {
		t.Fatalf("the book ends at ply %d, want the first moves in it", b.Last())
	}
	root, ok, err := d.Probe(game.Board{})
	if err != nil || !ok || root.Value != perfect.XWins || root.Depth != 41 {
		t.Fatalf("the empty board: %+v, %t, %v; want X wins in 41", root, ok, err)
	}
	var wins []int
	for c := range 7 {
		after := game.Board{}.Play(5*7+c, game.X) // column c's bottom cell
		o, ok, err := d.Probe(after)
		if err != nil || !ok {
			t.Fatalf("column %d: %v", c+1, err)
		}
		if o.Value == perfect.XWins {
			wins = append(wins, c+1)
		}
	}
	if len(wins) != 1 || wins[0] != 4 {
		t.Errorf("X's winning first moves are the columns %v, want only 4", wins)
	}
}

// A game without a book built in, named or not, has no book and no error:
// its positions go to the other engines.
func TestNoBook(t *testing.T) {
	tests := []struct {
		name string
		spec rules.Spec
	}{
		{"tic-tac-toe, a named game", rules.Spec{Spec: game.Spec{Rows: 3, Cols: 3, K: 3}}},
		{"misère tic-tac-toe", rules.Spec{Spec: game.Spec{Rows: 3, Cols: 3, K: 3}, Misere: true}},
		{"misère Connect Four", rules.Spec{Spec: game.Spec{Rows: 6, Cols: 7, K: 4}, Gravity: true, Misere: true}},
		{"4x4", rules.Spec{Spec: game.Spec{Rows: 4, Cols: 4, K: 4}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, ok, err := For(tt.spec); ok || err != nil {
				t.Errorf("For(%s) = %t, %v; want no book and no error", tt.spec, ok, err)
			}
		})
	}
}

// shortPlies is the last ply TestConsistent reads under -short, the race
// detector's run, where reading and checking all of a deep book takes
// minutes: plies 0 to 8, 291,271 placements.
const shortPlies = 8

// longPlies is the last ply TestConsistent checks without the long checks.
const longPlies = 10

// Every position of the book before its last ply has the value and depth
// its children give by the backward rule, and each ply holds as many
// positions as the manifest says: a stale or damaged book fails here. A
// code changed on purpose is caught. Under -short, plies 0 to shortPlies;
// without the long checks, to longPlies (the last two plies hold four
// fifths of the book).
func TestConsistent(t *testing.T) {
	b, d := open(t)
	j, err := tier.NewBook(rules.New(connectFour), b.Last())
	if err != nil {
		t.Fatal(err)
	}
	last := b.Last()
	switch {
	case testing.Short():
		last = min(last, shortPlies)
	case !longtest.Enabled():
		last = min(last, longPlies)
	}
	codes := make([][]byte, last+1)
	for p := range codes {
		if codes[p], err = d.Codes(context.Background(), p, 2); err != nil {
			t.Fatal(err)
		}
		if got, want := inBook(codes[p]), b.Manifest.Plies[p].Positions; got != want {
			t.Errorf("ply %d holds %d positions, the manifest says %d", p, got, want)
		}
	}
	for p := 0; p < last; p++ {
		if r, bad, _ := j.Disagrees(context.Background(), p, codes[p], codes[p+1], 2); bad {
			t.Errorf("ply %d, rank %d: its code %#x is not its children's", p, r, codes[p][r])
		}
	}
	p := last - 1
	changed := append([]byte{}, codes[p]...)
	for r, c := range changed {
		if c != 0 {
			v, depth, _ := db.Unpack(c)
			changed[r] = db.Pack(v, depth+2)
			break
		}
	}
	if _, bad, _ := j.Disagrees(context.Background(), p, changed, codes[p+1], 1); !bad {
		t.Error("a depth changed by two went unseen")
	}
}

// inBook counts the reachable placements of a ply's codes.
func inBook(codes []byte) int64 {
	n := int64(0)
	for _, c := range codes {
		if c != 0 {
			n++
		}
	}
	return n
}

// Positions of the book's last ply drawn at random, ones it took from
// search, are searched again and must have the book's value and depth: a
// book built by a wrong search fails here. A search of ply 13 takes about
// 7 to 8 ms by the mean (docs/performance.md), so every run checks 40 (4
// under -short, the race detector's run); the long checks, 400.
func TestAgainstSearch(t *testing.T) {
	b, d := open(t)
	n := 40
	switch {
	case longtest.Enabled():
		n = 400
	case testing.Short(): // the race detector's run, where a search takes ten times as long
		n = 4
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	p := b.Last()
	codes, err := d.Codes(context.Background(), p, 2)
	if err != nil {
		t.Fatal(err)
	}
	s, err := search.New(connectFour, search.Options{TableBits: search.TableBitsFor(tier.SearchMemory), Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; {
		r := rng.IntN(len(codes))
		if codes[r] == 0 {
			continue
		}
		i++
		pos := d.Layout().Unrank(p, int64(r))
		got, err := s.Solve(context.Background(), uint64(pos.X), uint64(pos.O))
		if err != nil {
			t.Fatal(err)
		}
		v, depth, _ := db.Unpack(codes[r])
		if got.Value != v || got.Depth != depth {
			t.Errorf("%s: search says %v in %d, the book %v in %d", connectFour.Format(pos), got.Value, got.Depth, v, depth)
		}
	}
}
