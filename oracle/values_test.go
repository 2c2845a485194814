package oracle

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/tier"
	"golang.org/x/sync/errgroup"
)

// A win/draw/loss database answers through the seam as the game solved in
// memory does, on random positions of gravity games, normal and misère:
// value, depth (found by search guided by the database), every move's,
// the best moves and the best line, and the value alone; best moves asked
// one at a time as a game asks them. Only who answered and the move
// sequences counted differ. The search asks the database at each root
// here; search's TestGuided asks a guide at every node.
func TestValuesAgree(t *testing.T) {
	for _, spec := range []rules.Spec{
		{Spec: game.Spec{Rows: 4, Cols: 4, K: 4}, Gravity: true},
		{Spec: game.Spec{Rows: 4, Cols: 4, K: 3}, Gravity: true, Misere: true},
		{Spec: game.Spec{Rows: 3, Cols: 5, K: 3}, Gravity: true},
	} {
		t.Run(spec.String(), func(t *testing.T) {
			rl := rules.New(spec)
			dir := filepath.Join(t.TempDir(), "wdl")
			if _, err := tier.SolveWDL(context.Background(), rl, dir, 2); err != nil {
				t.Fatal(err)
			}
			tab, err := Solved(context.Background(), rl, Options{Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			for _, asked := range askedKinds {
				o := asked
				o.Workers, o.Memory = 1, 64<<20
				wdl, err := Database(rl, dir, o)
				if err != nil {
					t.Fatal(err)
				}
				defer wdl.Close()
				want := &solved{rl: rl, r: tab.(*solved).r, asked: asked}
				rng := rand.New(rand.NewPCG(5, uint64(spec.Cells())))
				for range 40 {
					agree(t, rl, wdl, want, randomPosition(rl, rng))
				}
			}
			wdl, err := Database(rl, dir, Options{Workers: 1, Memory: 64 << 20, NoLines: true})
			if err != nil {
				t.Fatal(err)
			}
			defer wdl.Close()
			rng := rand.New(rand.NewPCG(6, 7))
			for range 10 {
				checkBestLine(t, rl, wdl, tab, randomPosition(rl, rng))
			}
		})
	}
}

// Values without depths from a win/draw/loss database are read from its
// tables alone, so its answers are Instant and may come side by side, as a
// server asks them: four goroutines asking at once get the answers one
// asking alone gets (and the race detector sees no search shared).
func TestValuesSideBySide(t *testing.T) {
	rl := rules.New(rules.Spec{Spec: game.Spec{Rows: 4, Cols: 4, K: 4}, Gravity: true})
	dir := filepath.Join(t.TempDir(), "wdl")
	if _, err := tier.SolveWDL(context.Background(), rl, dir, 2); err != nil {
		t.Fatal(err)
	}
	o, err := Database(rl, dir, Options{Workers: 1, Memory: 64 << 20, NoDepths: true})
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	rng := rand.New(rand.NewPCG(9, 10))
	boards := make([]game.Board, 40)
	want := make([]perfect.Analysis, len(boards))
	for i := range boards {
		boards[i] = randomPosition(rl, rng)
		if !o.Instant(boards[i]) {
			t.Fatalf("%s is not answered at once without depths", rl.Spec().Format(boards[i]))
		}
		if want[i], err = o.Analyze(context.Background(), boards[i]); err != nil {
			t.Fatal(err)
		}
	}
	var g errgroup.Group
	for range 4 {
		g.Go(func() error {
			for i, b := range boards {
				got, err := o.Analyze(context.Background(), b)
				if err != nil {
					return err
				}
				if !reflect.DeepEqual(got, want[i]) {
					return fmt.Errorf("%s side by side:\n%+v\nalone:\n%+v", rl.Spec().Format(b), got, want[i])
				}
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
}

// agree holds the answer of the win/draw/loss database wdl about b to
// want's, the game in memory's.
func agree(t *testing.T, rl rules.Rules, wdl, want Oracle, b game.Board) {
	t.Helper()
	w, err := want.Analyze(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	got, err := wdl.Analyze(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	if got.Engine != "db" || got.AnsweredBy != "db" {
		t.Fatalf("engine %q answered by %q; want db and db", got.Engine, got.AnsweredBy)
	}
	got.Engine, got.AnsweredBy, got.Paths = w.Engine, w.AnsweredBy, w.Paths
	if !reflect.DeepEqual(got, w) {
		t.Fatalf("%s: the win/draw/loss database gives\n%+v\nthe game in memory\n%+v", rl.Spec().Format(b), got, w)
	}
}

// valuesDB names the database BenchmarkValuesOracle reads.
var valuesDB = flag.String("values-db", "", "the folder of a win/draw/loss database for BenchmarkValuesOracle")

// BenchmarkValuesOracle answers positions of random games of the
// database's game, from the empty board to 6 empty cells, opened once (go
// test ./oracle -run '^$' -bench ValuesOracle -args -values-db=DIR): with
// every move's value and depth (moves), and the value and depth alone
// (value), and every move's value without depths (values). What solve --db, serve --db and export --db ask of it.
func BenchmarkValuesOracle(b *testing.B) {
	if *valuesDB == "" {
		b.Skip("no -values-db=DIR")
	}
	m, err := db.ReadManifest(*valuesDB)
	if err != nil {
		b.Fatal(err)
	}
	rl := rules.New(m.Game)
	for _, bench := range []struct {
		name string
		o    Options
	}{
		{"moves", Options{Workers: 1, NoLines: true}},
		{"value", Options{Workers: 1, ValueOnly: true}},
		{"values", Options{Workers: 1, NoDepths: true}},
	} {
		b.Run(bench.name, func(b *testing.B) {
			o, err := Database(rl, *valuesDB, bench.o)
			if err != nil {
				b.Fatal(err)
			}
			defer o.Close()
			rng := rand.New(rand.NewPCG(1, 2))
			for b.Loop() {
				if _, err := o.Analyze(context.Background(), randomGame(rl, rng, 6)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// randomGame plays random moves from the empty board to a random ply, of
// at least empty empty cells, or to the end of the game.
func randomGame(rl rules.Rules, rng *rand.Rand, empty int) game.Board {
	return randomTo(rl, rng, rng.IntN(rl.Spec().Cells()-empty+1))
}
