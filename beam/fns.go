package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/tier"
)

// registerFns registers the transforms of the pipeline with Beam, before
// beam.Init: each a DoFn that carries the game and the store (a folder or
// an object store's path) and does one kind of tier task through tier.Job,
// the very code the local tier solve runs. Every DoFn writes only files of
// its own task, each as a unit, and the same bytes however often it runs.
func registerFns() {
	register.DoFn2x1[string, func(int), error](&tasksFn{})
	register.DoFn3x1[context.Context, int, func(int, string), error](&reachFn{})
	register.DoFn4x1[context.Context, int, func(*string) bool, func(string), error](&reachPlyFn{})
	register.DoFn3x1[context.Context, int, func(int, int), error](&solveFn{})
	register.DoFn4x1[context.Context, int, func(*int) bool, func(string), error](&assembleFn{})
	register.DoFn4x1[context.Context, int, func(*string) bool, func(string), error](&manifestFn{})
	register.Emitter1[int]()
	register.Emitter1[string]()
	register.Emitter2[int, string]()
	register.Emitter2[int, int]()
	register.Iter1[string]()
	register.Iter1[int]()
}

// stage is what every DoFn carries: the game's spec, the store and the ply.
type stage struct {
	Spec  rules.Spec
	Store string
	Ply   int
}

// job gives the tier job of the game.
func (g stage) job() (*tier.Job, error) { return tier.NewJob(rules.New(g.Spec)) }

// store gives the stage's store.
func (g stage) store() store { return store(g.Store) }

// reach reads the reachable placements of ply p.
func (g stage) reach(ctx context.Context, j *tier.Job, p int) ([]uint64, error) {
	return j.Reached(p, func() ([]byte, error) { return g.store().read(ctx, tier.ReachName(p)) })
}

// tasksFn emits the task numbers of its ply once the signal before it, the
// ply it depends on being finished, arrives.
type tasksFn struct{ stage }

// ProcessElement emits the ply's tasks, whatever the signal says.
func (f *tasksFn) ProcessElement(_ string, emit func(int)) error {
	j, err := f.job()
	if err != nil {
		return err
	}
	for k := range j.Tasks(f.Ply) {
		emit(k)
	}
	return nil
}

// reachFn runs task k of the forward pass from its ply: it marks the
// children of the task's reachable placements in a bitset of the next ply,
// written as a piece file of its own, and emits the piece's name under the
// next ply's key for the GroupByKey that gathers them.
type reachFn struct{ stage }

// ProcessElement runs forward task k and emits its piece's name.
func (f *reachFn) ProcessElement(ctx context.Context, k int, emit func(int, string)) error {
	j, err := f.job()
	if err != nil {
		return err
	}
	have, err := f.reach(ctx, j, f.Ply)
	if err != nil {
		return err
	}
	next := j.Bits(f.Ply + 1)
	lo, hi := j.Range(f.Ply, k)
	j.Reach(f.Ply, lo, hi, have, func(c int64) { next[c>>6] |= 1 << (c & 63) })
	piece := fmt.Sprintf("reach-%02d.from-%06d", f.Ply+1, k)
	if err := f.store().write(ctx, piece, tier.EncodeBits(next)); err != nil {
		return err
	}
	emit(f.Ply+1, piece)
	return nil
}

// reachPlyFn ORs the pieces of its ply into the ply's reach bits, written
// as the file the backward pass reads, and emits the ply as the signal.
type reachPlyFn struct{ stage }

// ProcessElement writes ply p's reach bits from its pieces.
func (f *reachPlyFn) ProcessElement(ctx context.Context, p int, pieces func(*string) bool, emit func(string)) error {
	j, err := f.job()
	if err != nil {
		return err
	}
	bits := j.Bits(p)
	var names []string
	for name := ""; pieces(&name); {
		names = append(names, name)
	}
	for _, name := range names {
		buf, err := f.store().read(ctx, name)
		if err != nil {
			return err
		}
		w, err := tier.DecodeBits(buf, j.Size(p))
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		for i := range bits {
			bits[i] |= w[i]
		}
	}
	if err := f.store().write(ctx, tier.ReachName(p), tier.EncodeBits(bits)); err != nil {
		return err
	}
	for _, name := range names {
		if err := f.store().remove(ctx, name); err != nil {
			return err
		}
	}
	emit(fmt.Sprintf("reach %d", p))
	return nil
}

// solveFn runs task k of the backward pass at its ply: the codes of its
// range from the next ply's tier file, written as the task's part file,
// and emits the task under its ply's key.
type solveFn struct {
	stage
	next []byte // the next ply's codes, read once a DoFn
}

// ProcessElement runs backward task k and emits it under its ply.
func (f *solveFn) ProcessElement(ctx context.Context, k int, emit func(int, int)) error {
	j, err := f.job()
	if err != nil {
		return err
	}
	if f.Ply < j.Plies() && f.next == nil {
		data, err := f.store().read(ctx, db.TierName(f.Ply+1))
		if err != nil {
			return err
		}
		if f.next, err = db.DecodeTier(ctx, data, f.Ply+1, j.Size(f.Ply+1)); err != nil {
			return err
		}
	}
	have, err := f.reach(ctx, j, f.Ply)
	if err != nil {
		return err
	}
	lo, hi := j.Range(f.Ply, k)
	codes := make([]byte, hi-lo)
	j.SolveRange(f.Ply, lo, hi, have, f.next, codes)
	_, data, err := db.EncodePart(f.Ply, lo, codes)
	if err == nil {
		err = f.store().write(ctx, db.PartName(f.Ply, k), data...)
	}
	if err != nil {
		return err
	}
	emit(f.Ply, k)
	return nil
}

// done is what assembleFn emits of its ply: its manifest entry, and for
// the empty board's ply the root's code.
type done struct {
	Ply  db.Ply `json:"ply"`
	Root byte   `json:"root"`
}

// assembleFn writes its ply's tier file from the parts of all its tasks,
// and emits the ply's manifest entry as JSON: the signal the ply before it
// waits for.
type assembleFn struct{ stage }

// ProcessElement writes ply p's tier file from its parts.
func (f *assembleFn) ProcessElement(ctx context.Context, p int, _ func(*int) bool, emit func(string)) error {
	j, err := f.job()
	if err != nil {
		return err
	}
	codes := make([]byte, j.Size(p))
	parts := make([]db.Part, j.Tasks(p))
	for k := range parts {
		lo, hi := j.Range(p, k)
		data, err := f.store().read(ctx, db.PartName(p, k))
		if err != nil {
			return err
		}
		if parts[k], err = db.DecodePart(data, p, lo, codes[lo:hi]); err != nil {
			return fmt.Errorf("%s: %w", db.PartName(p, k), err)
		}
	}
	file, err := db.TierBytes(p, int64(len(codes)), parts)
	if err == nil {
		err = f.store().write(ctx, db.TierName(p), file...)
	}
	for k := range parts {
		if err == nil {
			err = f.store().remove(ctx, db.PartName(p, k))
		}
	}
	if err != nil {
		return err
	}
	d := done{Ply: j.Count(p, codes), Root: codes[0]}
	d.Ply.Bytes, d.Ply.SHA256 = db.Sum(file)
	b, _ := json.Marshal(d) // a done always marshals
	emit(string(b))
	return nil
}

// manifestFn writes the manifest from every ply's entry, last, and removes
// the reach bits: the database is finished.
type manifestFn struct{ stage }

// ProcessElement writes the manifest from the plies' entries.
func (f *manifestFn) ProcessElement(ctx context.Context, _ int, entries func(*string) bool, emit func(string)) error {
	j, err := f.job()
	if err != nil {
		return err
	}
	var all []done
	for e := ""; entries(&e); {
		var d done
		if err := json.Unmarshal([]byte(e), &d); err != nil {
			return err
		}
		all = append(all, d)
	}
	sort.Slice(all, func(a, b int) bool { return all[a].Ply.Ply < all[b].Ply.Ply })
	if len(all) != j.Plies()+1 {
		return fmt.Errorf("%d plies solved, want %d", len(all), j.Plies()+1)
	}
	counts := make([]db.Ply, len(all))
	for p, d := range all {
		counts[p] = d.Ply
	}
	data, err := db.ManifestBytes(j.Manifest(counts, all[0].Root))
	if err == nil {
		err = f.store().write(ctx, db.ManifestName, data)
	}
	for p := 1; p <= j.Plies() && err == nil; p++ {
		err = f.store().remove(ctx, tier.ReachName(p))
	}
	if err != nil {
		return err
	}
	emit(f.Store)
	return nil
}
