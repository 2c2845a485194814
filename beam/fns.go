package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/tier"
)

// registerFns registers the transforms of the pipeline with Beam, before
// beam.Init: each a DoFn that carries the game and the store (a folder),
// and does one kind of tier task through tier.Job, the very code the local
// tier solve runs. Every DoFn writes only files of its own task, each as a
// unit, and the same bytes however often it runs.
func registerFns() {
	register.DoFn2x1[string, func(int), error](&tasksFn{})
	register.DoFn3x1[context.Context, int, func(int, string), error](&reachFn{})
	register.DoFn4x1[context.Context, int, func(*string) bool, func(string), error](&reachPlyFn{})
	register.DoFn3x1[context.Context, int, func(int, int), error](&solveFn{})
	register.DoFn4x1[context.Context, int, func(*int) bool, func(string), error](&assembleFn{})
	register.DoFn3x1[int, func(*string) bool, func(string), error](&manifestFn{})
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

// tasksFn emits the task numbers of its ply once the signal before it, the
// ply it depends on being finished, arrives.
type tasksFn struct{ stage }

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

func (f *reachFn) ProcessElement(_ context.Context, k int, emit func(int, string)) error {
	j, err := f.job()
	if err != nil {
		return err
	}
	have, err := tier.ReadBits(f.Store, f.Ply, j.Size(f.Ply))
	if err != nil {
		return err
	}
	next := make([]uint64, (j.Size(f.Ply+1)+63)/64)
	lo, hi := j.Range(f.Ply, k)
	j.Reach(f.Ply, lo, hi, have, func(c int64) { next[c>>6] |= 1 << (c & 63) })
	piece := filepath.Join(f.Store, fmt.Sprintf("reach-%02d.from-%06d", f.Ply+1, k))
	if err := tier.WriteBitsFile(piece, next); err != nil {
		return err
	}
	emit(f.Ply+1, filepath.Base(piece))
	return nil
}

// reachPlyFn ORs the pieces of its ply into the ply's reach bits, written
// as the file the backward pass reads, and emits the ply as the signal.
type reachPlyFn struct{ stage }

func (f *reachPlyFn) ProcessElement(_ context.Context, p int, pieces func(*string) bool, emit func(string)) error {
	j, err := f.job()
	if err != nil {
		return err
	}
	bits := make([]uint64, (j.Size(p)+63)/64)
	var names []string
	for name := ""; pieces(&name); {
		names = append(names, name)
	}
	for _, name := range names {
		w, err := tier.ReadBitsFile(filepath.Join(f.Store, name), j.Size(p))
		if err != nil {
			return err
		}
		for i := range bits {
			bits[i] |= w[i]
		}
	}
	if err := tier.WriteBits(f.Store, p, bits); err != nil {
		return err
	}
	for _, name := range names {
		os.Remove(filepath.Join(f.Store, name))
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

func (f *solveFn) ProcessElement(ctx context.Context, k int, emit func(int, int)) error {
	j, err := f.job()
	if err != nil {
		return err
	}
	if f.Ply < j.Plies() && f.next == nil {
		if f.next, err = db.ReadTier(ctx, f.Store, f.Ply+1, j.Size(f.Ply+1), 1); err != nil {
			return err
		}
	}
	have, err := tier.ReadBits(f.Store, f.Ply, j.Size(f.Ply))
	if err != nil {
		return err
	}
	lo, hi := j.Range(f.Ply, k)
	codes := make([]byte, hi-lo)
	j.SolveRange(f.Ply, lo, hi, have, f.next, codes)
	if _, err := db.WritePart(f.Store, f.Ply, k, lo, codes); err != nil {
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

func (f *assembleFn) ProcessElement(ctx context.Context, p int, _ func(*int) bool, emit func(string)) error {
	j, err := f.job()
	if err != nil {
		return err
	}
	codes := make([]byte, j.Size(p))
	parts := make([]db.Part, j.Tasks(p))
	for k := range parts {
		lo, hi := j.Range(p, k)
		if parts[k], err = db.ReadPart(f.Store, p, k, lo, codes[lo:hi]); err != nil {
			return err
		}
	}
	d := done{Ply: j.Count(p, codes), Root: codes[0]}
	if d.Ply.Bytes, d.Ply.SHA256, err = db.AssembleTier(f.Store, p, int64(len(codes)), parts); err != nil {
		return err
	}
	if err := db.RemoveParts(f.Store, p); err != nil {
		return err
	}
	b, err := json.Marshal(d)
	emit(string(b))
	return err
}

// manifestFn writes the manifest from every ply's entry, last, and removes
// the scratch files: the database is finished.
type manifestFn struct{ stage }

func (f *manifestFn) ProcessElement(_ int, entries func(*string) bool, emit func(string)) error {
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
	m := j.Manifest(counts, all[0].Root)
	if err := db.WriteManifest(f.Store, m); err != nil {
		return err
	}
	emit(f.Store)
	return tier.Tidy(f.Store, j.Plies())
}
