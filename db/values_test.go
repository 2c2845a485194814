package db_test

import (
	"flag"
	"math/rand/v2"
	"testing"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
)

var valuesDB = flag.String("values-db", "", "the folder of a win/draw/loss database for BenchmarkValues")

// BenchmarkValues gives the value of a position of a random game and of
// each of its moves from a win/draw/loss database, opened once (go test
// ./db -run '^$' -bench Values -args -values-db=DIR): what solve --db will
// ask of it.
func BenchmarkValues(b *testing.B) {
	if *valuesDB == "" {
		b.Skip("no -values-db=DIR")
	}
	m, err := db.ReadManifest(*valuesDB)
	if err != nil {
		b.Fatal(err)
	}
	rl, cells := rules.New(m.Game), m.Game.Cells()
	v, err := db.OpenValues(*valuesDB, rl)
	if err != nil {
		b.Fatal(err)
	}
	defer v.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	for b.Loop() {
		pos := game.Board{}
		for range rng.IntN(cells - 5) {
			moves := rl.Playable(pos)
			if over, _ := rl.Outcome(pos); over || moves == 0 {
				break
			}
			var legal []int
			for c := range cells {
				if moves>>c&1 != 0 {
					legal = append(legal, c)
				}
			}
			pos = pos.Play(legal[rng.IntN(len(legal))], pos.ToMove())
		}
		if _, _, err := v.Value(pos); err != nil {
			b.Fatal(err)
		}
		for c := range cells {
			if rl.Playable(pos)>>c&1 != 0 {
				if _, _, err := v.Value(pos.Play(c, pos.ToMove())); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}
