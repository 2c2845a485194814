package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/tateti-lab/tateti-lab/book"
	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/db/dbwrite"
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
	register.DoFn4x1[context.Context, int, func(*string) bool, func(int), error](&reachBlockFn{})
	register.DoFn4x1[context.Context, int, func(*int) bool, func(string), error](&reachPlyFn{})
	register.DoFn3x1[context.Context, int, func(int, string), error](&solveFn{})
	register.DoFn3x1[context.Context, int, func(int, string), error](&wdlSolveFn{})
	register.DoFn4x1[context.Context, int, func(*string) bool, func(string), error](&assembleFn{})
	register.DoFn4x1[context.Context, int, func(*string) bool, func(string), error](&manifestFn{})
	register.DoFn3x1[context.Context, labelItem, func([]byte), error](&labelFn{})
	register.DoFn3x1[context.Context, int, func(*[]byte) bool, error](&writeFn{})
	register.DoFn3x1[context.Context, gamesChunk, func([]byte), error](&drawFn{})
	register.DoFn4x1[context.Context, int, func(*[]byte) bool, func(labelItem), error](&keepFn{})
	register.Emitter1[labelItem]()
	register.Emitter1[[]byte]()
	register.Iter1[[]byte]()
	register.Emitter1[int]()
	register.Emitter1[string]()
	register.Emitter2[int, string]()
	register.Iter1[string]()
	register.Iter1[int]()
}

// stage is what every DoFn carries: the game's spec, the store and the ply.
type stage struct {
	Spec   rules.Spec
	MaxPly int // an opening book's last ply; -1 for the whole game
	// TaskBlocks is the blocks a task takes where the local solve's take
	// 64 (tier.Job.WithTaskBlocks); 0 for those.
	TaskBlocks int
	Store      string
	Ply        int
	// WDL asks for the win/draw/loss solve (tier.WDLJob) in place of the
	// database of values and depths; its tasks then take TaskBlocks·4
	// blocks of positions (0 for tier.WDLTaskPositions).
	WDL bool
}

// job gives the tier job of the game, or of its opening book, cut in
// tasks of TaskBlocks.
func (g stage) job() (*tier.Job, error) {
	j, err := tier.JobOf(rules.New(g.Spec), g.MaxPly)
	if err != nil || g.TaskBlocks == 0 {
		return j, err
	}
	return j.WithTaskBlocks(g.TaskBlocks)
}

// store gives the stage's store.
func (g stage) store() store { return store(g.Store) }

// The pipeline's scratch files, beside the database's: the reach bits of a
// ply's task k, its range file (an empty file when none of its placements is
// reachable), and a piece of them, marked by task from of the ply before.
// Every task reads and writes the bits of its own range alone, never a
// whole ply's.
func rangeName(p, k int) string { return tier.TaskReachName(p, k) }

func pieceName(p, k, from int) string { return fmt.Sprintf("%s.from-%06d", rangeName(p, k), from) }

// have reads the reachable placements of task k of ply p, as tier.Job's
// Reach and SolveRange take them: ply 0's one placement, the empty board,
// needs no file.
func (g stage) have(ctx context.Context, j *tier.Job, p, k int) ([]uint64, error) {
	if p == 0 {
		return []uint64{1}, nil
	}
	lo, hi := j.Range(p, k)
	buf, err := g.store().read(ctx, rangeName(p, k))
	switch {
	case err != nil:
		return nil, err
	case len(buf) == 0:
		return make([]uint64, (hi-lo+63)/64), nil
	}
	w, err := tier.DecodeBits(buf, hi-lo)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rangeName(p, k), err)
	}
	return w, nil
}

// tasksFn emits the task numbers of its ply once the signal before it, the
// ply it depends on being finished, arrives.
type tasksFn struct {
	stage
	wdl *tier.WDLJob // the win/draw/loss solve's job, made once a DoFn
}

// ProcessElement emits the ply's tasks, whatever the signal says.
func (f *tasksFn) ProcessElement(_ string, emit func(int)) error {
	n, err := f.tasks(&f.wdl, f.Ply)
	if err != nil {
		return err
	}
	for k := range n {
		emit(k)
	}
	return nil
}

// tasks gives the number of tasks of ply p, of the win/draw/loss solve's
// job (kept in *wdl, made the first time) or of the job's.
func (g stage) tasks(wdl **tier.WDLJob, p int) (int, error) {
	if g.WDL {
		j, err := g.wdlJob(wdl)
		if err != nil {
			return 0, err
		}
		return j.Tasks(p), nil
	}
	j, err := g.job()
	if err != nil {
		return 0, err
	}
	return j.Tasks(p), nil
}

// reachFn runs task k of the forward pass from its ply: it marks the
// children of the task's reachable placements in the ranges of the next
// ply they fall in, writes each range's bits as a piece file of its own,
// and emits the piece's name under the range's task for the GroupByKey
// that gathers them. Every task also emits an empty name under task -1, so
// that the ply's stage goes on when no placement of the next ply is
// reachable (when every game is over sooner).
type reachFn struct{ stage }

// ProcessElement runs forward task k and emits its pieces' names.
func (f *reachFn) ProcessElement(ctx context.Context, k int, emit func(int, string)) error {
	j, err := f.job()
	if err != nil {
		return err
	}
	have, err := f.have(ctx, j, f.Ply, k)
	if err != nil {
		return err
	}
	pieces := map[int][]uint64{}
	lo, hi := j.Range(f.Ply, k)
	j.Reach(f.Ply, lo, hi, have, func(c int64) {
		t := j.TaskOf(f.Ply+1, c)
		tlo, thi := j.Range(f.Ply+1, t)
		w := pieces[t]
		if w == nil {
			w = make([]uint64, (thi-tlo+63)/64)
			pieces[t] = w
		}
		r := c - tlo
		w[r>>6] |= 1 << (r & 63)
	})
	for _, t := range slices.Sorted(maps.Keys(pieces)) {
		name := pieceName(f.Ply+1, t, k)
		if err := f.store().write(ctx, name, tier.EncodeBits(pieces[t])); err != nil {
			return err
		}
		emit(t, name)
	}
	emit(-1, "")
	return nil
}

// reachBlockFn ORs the pieces of task t of its ply into the task's reach
// bits, the range file the ply's tasks read, and emits t; task -1's empty
// names it passes on as they are.
type reachBlockFn struct{ stage }

// ProcessElement writes the range file of task t of the ply from its pieces.
func (f *reachBlockFn) ProcessElement(ctx context.Context, t int, pieces func(*string) bool, emit func(int)) error {
	if t < 0 {
		emit(t)
		return nil
	}
	j, err := f.job()
	if err != nil {
		return err
	}
	lo, hi := j.Range(f.Ply, t)
	bits := make([]uint64, (hi-lo+63)/64)
	names := gather(pieces)
	for _, name := range names {
		buf, err := f.store().read(ctx, name)
		if err != nil {
			return err
		}
		w, err := tier.DecodeBits(buf, hi-lo)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		for i := range bits {
			bits[i] |= w[i]
		}
	}
	if err := f.store().write(ctx, rangeName(f.Ply, t), tier.EncodeBits(bits)); err != nil {
		return err
	}
	for _, name := range names {
		if err := f.store().remove(ctx, name); err != nil {
			return err
		}
	}
	emit(t)
	return nil
}

// gather gives the distinct strings of an iterator, sorted: a task run
// twice emits its names twice.
func gather(it func(*string) bool) []string {
	var all []string
	for s := ""; it(&s); {
		all = append(all, s)
	}
	slices.Sort(all)
	return slices.Compact(all)
}

// reachPlyFn finishes its ply's reach bits once every range with a piece
// is written: it writes an empty range file for each task none of whose
// placements is reachable, and emits the ply as the signal.
type reachPlyFn struct{ stage }

// ProcessElement writes the ply's empty range files and emits the signal.
func (f *reachPlyFn) ProcessElement(ctx context.Context, _ int, written func(*int) bool, emit func(string)) error {
	j, err := f.job()
	if err != nil {
		return err
	}
	done := make([]bool, j.Tasks(f.Ply))
	for t := 0; written(&t); {
		if t >= 0 {
			done[t] = true
		}
	}
	for t, ok := range done {
		if !ok {
			if err := f.store().write(ctx, rangeName(f.Ply, t)); err != nil {
				return err
			}
		}
	}
	emit(fmt.Sprintf("reach %d", f.Ply))
	return nil
}

// solveFn runs task k of the backward pass at its ply: the codes of its
// range from the parts of the next ply that hold its children (the next
// ply's tasks that tier.Job's NextTasks names), written as the task's part
// file, and emits under its ply's key the task's entry.
type solveFn struct {
	stage
	next map[int][]byte // the next ply's codes read, by task, kept for the DoFn's next task
}

// entry is what solveFn emits of its task: its counts for the manifest,
// and for the empty board's task the root's code.
type entry struct {
	Task int    `json:"task"`
	Ply  db.Ply `json:"ply"`
	Root byte   `json:"root"`
}

// ProcessElement runs backward task k and emits its entry under its ply.
func (f *solveFn) ProcessElement(ctx context.Context, k int, emit func(int, string)) error {
	j, err := f.job()
	if err != nil {
		return err
	}
	have, err := f.have(ctx, j, f.Ply, k)
	if err != nil {
		return err
	}
	lo, hi := j.Range(f.Ply, k)
	codes := make([]byte, hi-lo)
	if err := f.codes(ctx, j, lo, hi, have, codes); err != nil {
		return err
	}
	_, data, err := dbwrite.EncodePart(f.Ply, lo, codes)
	if err == nil {
		err = f.store().write(ctx, dbwrite.PartName(f.Ply, k), data...)
	}
	if err != nil {
		return err
	}
	e := entry{Task: k, Ply: j.Count(f.Ply, codes), Root: codes[0]}
	b, _ := json.Marshal(e) // an entry always marshals
	emit(f.Ply, string(b))
	return nil
}

// codes gives the codes of the ranks [lo, hi) of the ply into dst: by
// search at an opening book's last ply, else from the next ply's parts.
func (f *solveFn) codes(ctx context.Context, j *tier.Job, lo, hi int64, have []uint64, dst []byte) error {
	if j.Searched(f.Ply) {
		return searchRange(ctx, j, rules.New(f.Spec), f.Ply, lo, hi, have, dst)
	}
	next, err := f.read(ctx, j, j.NextTasks(f.Ply, lo, hi, have))
	if err != nil {
		return err
	}
	j.SolveRange(f.Ply, lo, hi, have, next, dst)
	return nil
}

// searchRange values the ranks [lo, hi) of ply p, an opening book's last,
// into dst by search, as the local build does: each search bounded by the
// book built in where it holds the ply before (book.Bounds).
func searchRange(ctx context.Context, j *tier.Job, rl rules.Rules, p int, lo, hi int64, have []uint64, dst []byte) error {
	prior, ok, err := book.Bounds(rl, p-1)
	if err != nil {
		return err
	}
	if ok {
		defer prior.Close()
		j = j.WithPrior(prior)
	}
	return j.SearchRange(ctx, p, lo, hi, have, dst)
}

// read gives the codes of the next ply's tasks named, in increasing
// order, from their part files or from those the DoFn read for its last
// task, and keeps only these for its next.
func (f *solveFn) read(ctx context.Context, j *tier.Job, named []int) (tier.Codes, error) {
	p := f.Ply + 1
	blocks, kept := make([][]byte, len(named)), map[int][]byte{}
	for i, t := range named {
		codes, ok := f.next[t]
		if !ok {
			lo, hi := j.Range(p, t)
			data, err := f.store().read(ctx, dbwrite.PartName(p, t))
			if err != nil {
				return tier.Codes{}, err
			}
			codes = make([]byte, hi-lo)
			if _, err := dbwrite.DecodePart(data, p, lo, codes); err != nil {
				return tier.Codes{}, fmt.Errorf("%s: %w", dbwrite.PartName(p, t), err)
			}
		}
		blocks[i], kept[t] = codes, codes
	}
	f.next = kept
	return j.SomeCodes(p, named, blocks), nil
}

// done is what assembleFn emits of its ply: its manifest entry, and for
// the empty board's ply the root's code.
type done struct {
	Ply  db.Ply `json:"ply"`
	Root byte   `json:"root"`
}

// assembleFn writes its ply's tier file from the parts of all its tasks,
// a part at a time (dbwrite.WriteTier), and emits the ply's manifest entry as
// JSON: the signal the ply before it waits for. The parts of the ply after
// it are then read by no task, nor are the ply's reach range files, and it
// removes them; its own parts the ply before it reads.
type assembleFn struct {
	stage
	wdl *tier.WDLJob // the win/draw/loss solve's job, made once a DoFn
}

// ProcessElement writes ply p's tier file from its parts.
func (f *assembleFn) ProcessElement(ctx context.Context, p int, entries func(*string) bool, emit func(string)) error {
	sh, err := f.shape(&f.wdl)
	if err != nil {
		return err
	}
	d, err := total(sh, p, gather(entries))
	if err != nil {
		return err
	}
	open := func(k int) (io.ReadCloser, error) { return f.store().open(ctx, dbwrite.PartName(p, k)) }
	err = f.store().writeFrom(ctx, db.TierName(p), func(w io.Writer) error {
		var err error
		d.Ply.Bytes, d.Ply.SHA256, err = dbwrite.WriteTier(w, f.Spec, p, sh.bytes(p), sh.tasks(p), open)
		return err
	})
	if err == nil {
		err = f.tidy(ctx, sh, p)
	}
	if err != nil {
		return err
	}
	b, _ := json.Marshal(d) // a done always marshals
	emit(string(b))
	return nil
}

// tidy removes the parts of the ply after p and the reach range files of p.
func (f *assembleFn) tidy(ctx context.Context, sh shape, p int) error {
	for k := 0; p < sh.plies && k < sh.tasks(p+1); k++ {
		if err := f.store().remove(ctx, dbwrite.PartName(p+1, k)); err != nil {
			return err
		}
	}
	for k := 0; sh.reach && p > 0 && k < sh.tasks(p); k++ {
		if err := f.store().remove(ctx, rangeName(p, k)); err != nil {
			return err
		}
	}
	return nil
}

// total adds up the entries of ply p's tasks, each once however often its
// task ran, into the ply's manifest entry but its file.
func total(sh shape, p int, entries []string) (done, error) {
	byTask := map[int]entry{}
	for _, s := range entries {
		var e entry
		if err := json.Unmarshal([]byte(s), &e); err != nil {
			return done{}, err
		}
		byTask[e.Task] = e
	}
	if len(byTask) != sh.tasks(p) {
		return done{}, fmt.Errorf("ply %d: %d tasks solved, want %d", p, len(byTask), sh.tasks(p))
	}
	d := done{Ply: db.Ply{Ply: p}, Root: byTask[0].Root}
	for _, e := range byTask {
		c := &d.Ply
		c.Placements += e.Ply.Placements
		c.Positions += e.Ply.Positions
		c.Lost, c.Drawn, c.Won = c.Lost+e.Ply.Lost, c.Drawn+e.Ply.Drawn, c.Won+e.Ply.Won
		c.Terminal.XWon += e.Ply.Terminal.XWon
		c.Terminal.OWon += e.Ply.Terminal.OWon
		c.Terminal.Draw += e.Ply.Terminal.Draw
	}
	return d, nil
}

// manifestFn writes the manifest from every ply's entry, last, and removes
// the parts of ply 0: the database is finished.
type manifestFn struct {
	stage
	wdl *tier.WDLJob // the win/draw/loss solve's job, made once a DoFn
}

// ProcessElement writes the manifest from the plies' entries.
func (f *manifestFn) ProcessElement(ctx context.Context, _ int, entries func(*string) bool, emit func(string)) error {
	sh, err := f.shape(&f.wdl)
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
	if len(all) != sh.plies+1 {
		return fmt.Errorf("%d plies solved, want %d", len(all), sh.plies+1)
	}
	counts := make([]db.Ply, len(all))
	for p, d := range all {
		counts[p] = d.Ply
	}
	data, err := db.ManifestBytes(sh.manifest(counts, all[0].Root))
	if err == nil {
		err = f.store().write(ctx, db.ManifestName, data)
	}
	for k := 0; k < sh.tasks(0) && err == nil; k++ {
		err = f.store().remove(ctx, dbwrite.PartName(0, k))
	}
	if err != nil {
		return err
	}
	emit(f.Store)
	return nil
}

// shape is what assembling a ply's tier and writing the manifest need of
// the stage's job, the tier solve's or the win/draw/loss solve's.
type shape struct {
	tasks    func(p int) int
	bytes    func(p int) int64 // a ply's codes, the bytes of its tier before compression
	plies    int               // the last ply
	reach    bool              // a ply has reach range files (the tier solve's forward pass)
	manifest func(counts []db.Ply, root byte) db.Manifest
}

// shape gives the shape of the stage's job: the win/draw/loss solve's
// (kept in *wdl, made the first time) or the tier solve's.
func (g stage) shape(wdl **tier.WDLJob) (shape, error) {
	if g.WDL {
		j, err := g.wdlJob(wdl)
		if err != nil {
			return shape{}, err
		}
		manifest := func(counts []db.Ply, root byte) db.Manifest { return j.Manifest(counts, db.PackedValue(root)) }
		return shape{tasks: j.Tasks, bytes: j.CodeBytes, plies: j.Plies(), manifest: manifest}, nil
	}
	j, err := g.job()
	if err != nil {
		return shape{}, err
	}
	return shape{tasks: j.Tasks, bytes: j.Size, plies: j.Plies(), reach: true, manifest: j.Manifest}, nil
}
