package main

import (
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
)

// build adds to s the tier solve of the game of g (its spec, maxPly and
// task blocks; its ply is not read), or of its opening book to ply
// g.MaxPly (not below 0), into the database folder g.Store, as
// tier.Solve does it on one machine: the forward pass a
// ply at a time from the empty board, then the backward pass a ply at a
// time from the last, each ply one stage. A stage starts when the signal of
// the stage before it arrives, a PCollection of one element: its tasks
// spread over the workers (Reshuffle), each reads and writes files of its
// own task's block and emits their names under a key, and the engine's
// GroupByKey gathers them. In the forward pass the key is the block of the
// next ply a piece of reach bits falls in, and each block is written from
// its pieces; in the backward pass it is the ply, whose tier file is
// written from its tasks' parts. Only names and counts pass through the
// engine, never a tier's bytes, and no task reads or writes a whole ply
// but the one that writes the ply's tier file. With twice, every task runs
// two times, as a retried task may: nothing changes.
func build(s beam.Scope, g stage, twice bool) error {
	job, err := g.job()
	if err != nil {
		return err
	}
	n := job.Plies()
	at := func(p int) stage { g.Ply = p; return g }
	tasks := func(s beam.Scope, p int, signal beam.PCollection) beam.PCollection {
		ks := beam.ParDo(s, &tasksFn{stage: at(p)}, signal)
		if twice {
			ks = beam.Flatten(s, ks, beam.ParDo(s, &tasksFn{stage: at(p)}, signal))
		}
		return beam.Reshuffle(s, ks)
	}
	signal := beam.Create(s, "reach 0")
	for p := 1; p <= n; p++ {
		sp := s.Scope(fmt.Sprintf("reach ply %d", p))
		pieces := beam.ParDo(sp, &reachFn{at(p - 1)}, tasks(sp, p-1, signal))
		blocks := beam.ParDo(sp, &reachBlockFn{at(p)}, beam.GroupByKey(sp, pieces))
		signal = beam.ParDo(sp, &reachPlyFn{at(p)}, beam.GroupByKey(sp, beam.AddFixedKey(sp, blocks)))
	}
	var entries []beam.PCollection
	for p := n; p >= 0; p-- {
		sp := s.Scope(fmt.Sprintf("solve ply %d", p))
		parts := beam.ParDo(sp, &solveFn{stage: at(p)}, tasks(sp, p, signal))
		signal = beam.ParDo(sp, &assembleFn{stage: at(p)}, beam.GroupByKey(sp, parts))
		entries = append(entries, signal)
	}
	sm := s.Scope("manifest")
	all := beam.AddFixedKey(sm, beam.Flatten(sm, entries...))
	beam.ParDo(sm, &manifestFn{stage: at(0)}, beam.GroupByKey(sm, all))
	return nil
}
