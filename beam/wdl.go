package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/db/dbwrite"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/tier"
)

// buildWDL adds to s the win/draw/loss solve of the game of g (g.WDL set)
// into the database folder g.Store, as tier.SolveWDL does it on one
// machine: a ply at a time from the last, each ply one stage. Each task
// reads the next ply's tier file whole (kept by its DoFn for the ply's
// next task: a task's children lie all over the next ply), solves its
// range and writes it as its part file; the ply's tier file is written
// from its parts, and the manifest from every ply's counts. The positions
// play reaches are not counted here: db build on the finished folder
// counts them, a forward pass on one machine (tier.WDLJob.ReachValues).
// With twice, every task runs two times, as a retried task may.
func buildWDL(s beam.Scope, g stage, twice bool) error {
	var j *tier.WDLJob
	if _, err := g.wdlJob(&j); err != nil {
		return err
	}
	signal := beam.Create(s, "solve")
	var entries []beam.PCollection
	for p := j.Plies(); p >= 0; p-- {
		g.Ply = p
		sp := s.Scope(fmt.Sprintf("solve ply %d", p))
		ks := beam.ParDo(sp, &tasksFn{stage: g}, signal)
		if twice {
			ks = beam.Flatten(sp, ks, beam.ParDo(sp, &tasksFn{stage: g}, signal))
		}
		parts := beam.ParDo(sp, &wdlSolveFn{stage: g}, beam.Reshuffle(sp, ks))
		signal = beam.ParDo(sp, &assembleFn{stage: g}, beam.GroupByKey(sp, parts))
		entries = append(entries, signal)
	}
	g.Ply = 0
	sm := s.Scope("manifest")
	beam.ParDo(sm, &manifestFn{stage: g}, beam.GroupByKey(sm, beam.AddFixedKey(sm, beam.Flatten(sm, entries...))))
	return nil
}

// wdlJob gives the win/draw/loss solve's job of the stage's game, cut in
// tasks of TaskBlocks·4 blocks of positions: *j, made the first time (its
// diagram takes seconds on a large board, so a DoFn makes it once).
func (g stage) wdlJob(j **tier.WDLJob) (*tier.WDLJob, error) {
	if *j != nil {
		return *j, nil
	}
	job, err := tier.NewWDLJob(rules.New(g.Spec))
	if err == nil && g.TaskBlocks > 0 {
		job, err = job.WithTaskPositions(int64(g.TaskBlocks) * 4 * db.BlockLen)
	}
	*j = job
	return job, err
}

// wdlSolveFn runs task k of the win/draw/loss solve at its ply: the codes
// of its range from the next ply's tier file, written as the task's part
// file, and emits under its ply's key the task's entry (as solveFn's).
type wdlSolveFn struct {
	stage
	j    *tier.WDLJob
	next []byte // the next ply's codes, read by an earlier task of the ply
}

// ProcessElement runs task k and emits its entry under its ply.
func (f *wdlSolveFn) ProcessElement(ctx context.Context, k int, emit func(int, string)) error {
	j, err := f.wdlJob(&f.j)
	if err != nil {
		return err
	}
	if f.Ply < j.Plies() && f.next == nil {
		data, err := f.store().read(ctx, db.TierName(f.Ply+1))
		if err == nil {
			f.next, err = db.DecodeTier(ctx, data, f.Spec, f.Ply+1, j.CodeBytes(f.Ply+1))
		}
		if err != nil {
			return fmt.Errorf("%s: %w", db.TierName(f.Ply+1), err)
		}
	}
	lo, hi := j.Range(f.Ply, k)
	codes := make([]byte, (hi-lo+3)/4)
	j.SolveRange(f.Ply, lo, hi, f.next, codes)
	_, data, err := dbwrite.EncodePart(f.Ply, lo/4, codes)
	if err == nil {
		err = f.store().write(ctx, dbwrite.PartName(f.Ply, k), data...)
	}
	if err != nil {
		return err
	}
	e := entry{Task: k, Ply: tier.CountCodes(f.Ply, hi-lo, codes), Root: db.PackedAt(codes, 0)}
	b, _ := json.Marshal(e) // an entry always marshals
	emit(f.Ply, string(b))
	return nil
}
