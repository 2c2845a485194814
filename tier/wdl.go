package tier

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sync/atomic"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/db/dbwrite"
	"github.com/tateti-lab/tateti-lab/index"
	"github.com/tateti-lab/tateti-lab/internal/par"
	"github.com/tateti-lab/tateti-lab/internal/progress"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

// A WDLJob is the win/draw/loss solve of one game: every board of each
// ply with no line (index.Diagram), valued for its side to move from the
// next ply's, in two bits, four to a byte. Finished boards are not kept:
// the rules value them, and a move that makes a line is valued at once.
// The depth is not kept either: what a position's value is, not how soon
// the game ends, is what a two-bit code holds (docs/design/wdl-solve.md).
//
// The bytes of a ply are cut into tasks of WDLTaskPositions positions, each
// a fixed range of ranks that depends on the ply alone, as a Job's are.
type WDLJob struct {
	rl      rules.Rules
	d       *index.Diagram
	cells   int
	misere  bool
	taskLen int64 // WDLTaskPositions, or fewer in tests (a multiple of 4·db.BlockLen)
}

// wdlLayout is the layout of a win/draw/loss database: index.Diagram's
// Name.
const wdlLayout = "diagram"

// WDLTaskPositions is the positions a task of a WDLJob takes: 2^25, 8 MiB
// of codes, some seconds of work, a multiple of the positions a block
// holds (4 a code byte).
const WDLTaskPositions = 1 << 25

// NewWDLJob gives the win/draw/loss solve of rl's game, whose diagram it
// builds.
func NewWDLJob(rl rules.Rules) (*WDLJob, error) {
	spec := rl.Spec()
	d, err := index.NewDiagram(spec.Spec, spec.Gravity)
	if err != nil {
		return nil, err
	}
	return &WDLJob{rl: rl, d: d, cells: spec.Cells(), misere: spec.Misere, taskLen: WDLTaskPositions}, nil
}

// SolveWDL solves the game of rl into the win/draw/loss database folder
// dir (WDLJob), with up to workers goroutines, and gives its manifest. A
// finished database of the same kind in dir is given as it is; an
// unfinished one is resumed, from the plies and the tasks' parts a former
// run finished. A folder that holds anything else is refused (Claim).
func SolveWDL(ctx context.Context, rl rules.Rules, dir string, workers int) (db.Manifest, error) {
	j, err := NewWDLJob(rl)
	if err != nil {
		return db.Manifest{}, err
	}
	return j.solve(ctx, dir, workers)
}

// solve is SolveWDL of the job j, under the folder's lock.
func (j *WDLJob) solve(ctx context.Context, dir string, workers int) (db.Manifest, error) {
	m, unlock, err := claimUnfinished(dir, j.marker())
	switch {
	case err != nil || unlock == nil && len(m.Reached) > 0:
		return m, err
	case unlock == nil: // finished, not yet counted
		if unlock, err = lock(dir); err != nil {
			return db.Manifest{}, fmt.Errorf("folder %q: another run is counting in it (%v); wait for it to end, or name another folder", dir, err)
		}
		defer unlock()
	default:
		defer unlock()
		counts, root, err := j.solveAll(ctx, dir, workers)
		if err != nil {
			return db.Manifest{}, err
		}
		m, err = finishIn(ctx, dir, counts, func(counts []db.Ply) db.Manifest { return j.Manifest(counts, root) })
		if err != nil {
			return db.Manifest{}, err
		}
	}
	return j.reached(ctx, dir, m, workers)
}

// reached counts the positions play reaches in the finished database m in
// dir (ReachValues) into its manifest, written again with them. A run
// stopped before leaves the database finished without them, and where the
// count stood, to count on from.
func (j *WDLJob) reached(ctx context.Context, dir string, m db.Manifest, workers int) (db.Manifest, error) {
	r, err := j.ReachValues(ctx, dir, workers)
	if err != nil {
		return db.Manifest{}, err
	}
	m.Reached = r
	if err := dbwrite.WriteManifest(dir, m); err != nil {
		return db.Manifest{}, err
	}
	return m, Tidy(dir)
}

// BuildWDL solves j's game into the win/draw/loss database folder dir
// (SolveWDL) and gives its summary from the manifest: values alone.
func BuildWDL(ctx context.Context, j *WDLJob, dir string, workers int) (perfect.Summary, error) {
	m, err := j.solve(ctx, dir, workers)
	if err != nil {
		return perfect.Summary{}, err
	}
	s := Summarize(m, nil)
	s.ValuesOnly = true
	return s, nil
}

// marker gives the marker of the job's database.
func (j *WDLJob) marker() marker { return marker{Spec: j.rl.Spec(), Layout: wdlLayout} }

// Diagram gives the ranks of the job's positions.
func (j *WDLJob) Diagram() *index.Diagram { return j.d }

// Size gives the positions of ply p.
func (j *WDLJob) Size(p int) int64 { return j.d.Size(p) }

// CodeBytes gives the bytes of the codes of ply p.
func (j *WDLJob) CodeBytes(p int) int64 { return db.CodeBytes(wdlLayout, j.d.Size(p)) }

// EstimateWDL gives what the win/draw/loss solve j needs with workers
// goroutines: memory for the diagram, two plies' codes, each worker's
// task and the ply's compressed blocks, kept until its tier is written
// (at most its codes: Connect Four 6x6 peaked at 4,889,488 KB, where two
// plies' codes and the diagram are 3.6 GB) (the forward pass that counts the
// positions play reaches holds less: a ply's codes and two plies' bits);
// disk for every ply's codes before compression (the tier files take
// less) and the parts of the ply being assembled beside its tier; time for
// the solve and the forward pass.
func EstimateWDL(j *WDLJob, workers int) Estimate {
	total, most := sizes(j.d, j.cells)
	e := Estimate{Layout: wdlLayout, Placements: total}
	for p := 0; p <= j.cells; p++ {
		e.Tasks += int64(j.Tasks(p))
		e.Disk += uint64(j.CodeBytes(p))
	}
	largest := uint64(db.CodeBytes(wdlLayout, most))
	task := min(uint64(WDLTaskPositions/4), largest) // a task's codes, compressed into the ply's blocks
	e.Disk += largest
	e.Memory = j.d.Bytes() + 3*largest + uint64(max(workers, 1))*task + overhead
	e.BeamTask = j.d.Bytes() + largest + 2*task + overhead           // the next ply, its own codes and their blocks
	e.ReachMemory = j.d.Bytes() + 2*8*uint64(words(most)) + overhead // Reach: two plies' bits, nothing on disk
	// The forward pass that counts the positions play reaches, once the
	// tiers are written:
	count := float64(e.Placements) / countRate
	e.WorkerSeconds = float64(e.Placements)/rates[wdlLayout] + count
	e.Seconds, e.CountSeconds = e.WorkerSeconds/speedup(workers), count/speedup(workers)
	return e
}

// Tasks gives the number of tasks of ply p.
func (j *WDLJob) Tasks(p int) int {
	return int((j.Size(p) + j.taskLen - 1) / j.taskLen)
}

// Range gives the ranks [lo, hi) of task k of ply p.
func (j *WDLJob) Range(p, k int) (lo, hi int64) {
	lo = int64(k) * j.taskLen
	return lo, min(lo+j.taskLen, j.Size(p))
}

// SolveRange values the positions of ranks [lo, hi) of ply p, lo a
// multiple of 4, from next, the codes of ply p+1 (nil after the last
// ply), into dst, their codes from rank lo.
func (j *WDLJob) SolveRange(p int, lo, hi int64, next, dst []byte) {
	clear(dst)
	w := j.d.Walk(p, lo)
	kids := make([]int64, 0, 64)
	for r := lo; r < hi; r++ {
		kids = w.Children(kids[:0])
		dst[(r-lo)>>2] |= j.value(kids, next) << (2 * (r & 3))
		w.Next()
	}
}

// value gives the code of a position whose children have the ranks kids
// in next (-1 for a move that makes a line): the best of its moves for
// its side to move, a line winning at once (losing under misère), and a
// board with no move drawn.
func (j *WDLJob) value(kids []int64, next []byte) byte {
	if len(kids) == 0 {
		return db.PackedDrawn
	}
	best := db.PackedLost
	for _, k := range kids {
		move := db.PackedWon
		switch {
		case k < 0 && j.misere:
			move = db.PackedLost
		case k >= 0:
			move = 4 - db.PackedAt(next, k) // the child's side to move is the other
		}
		if move > best {
			if best = move; best == db.PackedWon {
				break
			}
		}
	}
	return best
}

// Layout names the ranks of the job's tiers: "diagram".
func (j *WDLJob) Layout() string { return wdlLayout }

// Plies is the last ply: the number of cells.
func (j *WDLJob) Plies() int { return j.cells }

// Disagrees gives the rank of the first position of ply p whose code in
// codes is not what SolveRange makes of next, ply p+1's codes (nil at the
// last ply, whose full boards are drawn), and false when every one agrees:
// db.Check's hold of a tier to the rules. Up to workers goroutines solve
// a task each; the error is ctx's.
func (j *WDLJob) Disagrees(ctx context.Context, p int, codes, next []byte, workers int) (int64, bool, error) {
	first := make([]int64, j.Tasks(p))
	err := par.Tasks(ctx, len(first), workers, func(_ context.Context, k int) error {
		lo, hi := j.Range(p, k)
		first[k] = -1
		got := make([]byte, (hi-lo+3)/4)
		j.SolveRange(p, lo, hi, next, got)
		for r := lo; r < hi; r++ {
			if db.PackedAt(got, r-lo) != db.PackedAt(codes, r) {
				first[k] = r
				break
			}
		}
		return nil
	})
	for _, r := range first {
		if r >= 0 {
			return r, true, err
		}
	}
	return 0, false, err
}

// DisagreesAt is Disagrees of the positions of ranks alone.
func (j *WDLJob) DisagreesAt(p int, codes, next []byte, ranks []int64) (int64, bool) {
	kids := make([]int64, 0, 64)
	for _, r := range ranks {
		b := j.d.Unrank(p, r)
		if j.value(j.d.Children(kids[:0], b, j.rl.Playable(b)), next) != db.PackedAt(codes, r) {
			return r, true
		}
	}
	return 0, false
}

// Count gives ply p's entry in the manifest but its file: its positions by
// value for the side to move.
func (j *WDLJob) Count(p int, codes []byte) db.Ply { return CountCodes(p, j.Size(p), codes) }

// CountCodes gives the manifest's entry, but its file, of the first n
// codes of codes, positions of ply p: a ply's, or a task's share of it.
func CountCodes(p int, n int64, codes []byte) db.Ply {
	var by [4]int64
	for r := range n {
		by[db.PackedAt(codes, r)]++
	}
	return db.Ply{Ply: p, Placements: n, Positions: by[1] + by[2] + by[3], Lost: by[db.PackedLost], Drawn: by[db.PackedDrawn], Won: by[db.PackedWon]}
}

// WithTaskPositions gives the job cut into tasks of n positions, a
// multiple of 4·db.BlockLen (whole blocks of codes), where Beam's
// workers or a test want smaller ones than WDLTaskPositions.
func (j *WDLJob) WithTaskPositions(n int64) (*WDLJob, error) {
	if n <= 0 || n%(4*db.BlockLen) != 0 {
		return nil, fmt.Errorf("tasks of %d positions; want a multiple of %d, whole blocks of codes", n, 4*db.BlockLen)
	}
	c := *j
	c.taskLen = n
	return &c, nil
}

// Claim claims the folder dir for the job's database, as a build does:
// Beam's pipeline, whose workers write into it.
func (j *WDLJob) Claim(dir string) (unlock func(), err error) { return claim(dir, j.marker()) }

// CheckFolder checks before any work that dir is new, empty, or a folder
// of the job's database, finished or not, as a build's claim will.
func (j *WDLJob) CheckFolder(dir string) error { return checkFolder(dir, j.marker()) }

// Root gives the value of the empty board, for X, from ply 0's codes.
func Root(codes []byte) perfect.Value { return db.PackedValue(db.PackedAt(codes, 0)) }

// solvePly solves ply p into codes from next, ply p+1's, task by task,
// each task's range kept in a part file in dir as it is done and read back
// by a rerun; then writes the ply's tier file from the parts and removes
// them, and gives its size and SHA-256. report hears each task's
// positions, and whether they were solved or read back.
func (j *WDLJob) solvePly(ctx context.Context, dir string, p int, next, codes []byte, workers int, report func(n int64, solved bool)) (int64, string, error) {
	parts := make([]dbwrite.Part, j.Tasks(p))
	err := par.Tasks(ctx, len(parts), workers, func(_ context.Context, k int) error {
		lo, hi := j.Range(p, k)
		dst := codes[lo/4 : (hi+3)/4]
		part, err := dbwrite.ReadPart(dir, p, k, lo/4, dst)
		solved := errors.Is(err, fs.ErrNotExist)
		if solved {
			j.SolveRange(p, lo, hi, next, dst)
			part, err = dbwrite.WritePart(dir, p, k, lo/4, dst)
		}
		parts[k] = part
		report(hi-lo, solved)
		return err
	})
	if err != nil {
		return 0, "", err
	}
	size, sum, err := dbwrite.AssembleTier(dir, j.rl.Spec(), p, int64(len(codes)), parts)
	if err == nil {
		err = dbwrite.RemoveParts(dir, p)
	}
	return size, sum, err
}

// solveAll solves every ply from the last into dir, a ply whose tier file
// a former run finished read back instead, and gives the plies' counts,
// sizes and SHA-256s, and the empty board's value for X. Two buffers of
// the largest ply's codes take turns, as a Job's solve's do.
func (j *WDLJob) solveAll(ctx context.Context, dir string, workers int) ([]db.Ply, perfect.Value, error) {
	total, most := sizes(j.d, j.cells)
	largest, done := db.CodeBytes(wdlLayout, most), int64(0)
	counts := make([]db.Ply, j.cells+1)
	var next, spare []byte
	for p := j.cells; p >= 0; p-- {
		if spare == nil {
			spare = make([]byte, largest)
		}
		codes := spare[:j.CodeBytes(p)]
		var size int64
		var sum string
		err := db.ReadTier(ctx, dir, j.rl.Spec(), p, codes, workers)
		if errors.Is(err, fs.ErrNotExist) {
			var n atomic.Int64
			size, sum, err = j.solvePly(ctx, dir, p, next, codes, workers, func(k int64, solved bool) {
				if n.Add(k); solved { // a part read back is no measure of the pace
					progress.Report(ctx, "solve", p, done+n.Load(), total)
				}
			})
		}
		if err != nil {
			return nil, 0, err
		}
		counts[p] = j.Count(p, codes)
		counts[p].Bytes, counts[p].SHA256 = size, sum
		spare, next = next, codes
		done += j.Size(p)
	}
	return counts, Root(next), nil
}

// Manifest gives the manifest of the game solved to counts, and of the
// empty board's value root for X. Its depth is none: 0.
func (j *WDLJob) Manifest(counts []db.Ply, root perfect.Value) db.Manifest {
	m := db.Manifest{Format: db.Format, Version: db.Version, Game: j.rl.Spec(), Layout: j.d.Name(), BlockLen: db.BlockLen, Value: root, Plies: counts}
	for p := range counts {
		counts[p].File = db.TierName(p)
		m.Positions += counts[p].Positions
	}
	return m
}

// String says what the job solves.
func (j *WDLJob) String() string {
	return fmt.Sprintf("the win/draw/loss solve of %s", j.rl.Spec())
}
