// Package tier owns the solve of a whole game tier by tier on disk: a tier
// is one ply's placements, ranked densely by index.Placements (the cells of
// each side under free placement, the column heights and colours under
// gravity), a byte each. A forward pass marks the placements play can reach,
// ply by ply from the empty board; a backward pass solves each ply from the
// one after it, from the last ply to the empty board, and writes it as a
// tier file of a database (package db). Memory holds two plies at a time.
// Every file is written then renamed, so a run that is interrupted or killed
// resumes from the files it finished; the database's manifest is written
// last, so a folder without one is never read as finished.
//
// Each ply's work is cut into tasks, fixed ranges of the ply's ranks that
// do not depend on the number of workers, each writing only its own range:
// in the backward pass a task's range is a part file of its own (package
// db), written then renamed, and the tier file is its parts assembled. The
// bytes written are the same whoever ran the tasks and in whatever order,
// and a rerun does again only the tasks whose part is missing. A Job is
// the tasks' work, which Solve schedules on the local cores and the Beam
// pipeline (beam/) on an engine's workers. Package plan chooses between
// this solve and an enumeration in memory for a whole game.
package tier

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/bits"
	"path/filepath"
	"sync/atomic"
	"unsafe"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/db/dbwrite"
	"github.com/tateti-lab/tateti-lab/index"
	"github.com/tateti-lab/tateti-lab/internal/atomicfile"
	"github.com/tateti-lab/tateti-lab/internal/crc32c"
	"github.com/tateti-lab/tateti-lab/internal/lazyregexp"
	"github.com/tateti-lab/tateti-lab/internal/par"
	"github.com/tateti-lab/tateti-lab/internal/progress"
	"github.com/tateti-lab/tateti-lab/rules"
)

// A run solves the game of a Job into the folder dir on the local cores.
type run struct {
	*Job
	dir     string
	workers int
	// total and largest are the placements of every ply, the measure of a
	// pass's progress (each costs about alike), and of the largest ply.
	total, largest int64
}

// Solve solves the game of rl into the database folder dir, with up to
// workers goroutines, and gives its manifest. A finished database of the
// same game in dir is given as it is; an unfinished one of ours is
// resumed. A folder that holds anything else is refused (see Claim).
func Solve(ctx context.Context, rl rules.Rules, dir string, workers int) (db.Manifest, error) {
	job, err := NewJob(rl)
	if err != nil {
		return db.Manifest{}, err
	}
	return build(ctx, job, dir, workers)
}

// SolveBook is Solve of the opening book of rl's game to ply maxPly
// (NewBook): its last ply valued by search, the plies before it from the
// ones after.
func SolveBook(ctx context.Context, rl rules.Rules, maxPly int, dir string, workers int) (db.Manifest, error) {
	job, err := NewBook(rl, maxPly)
	if err != nil {
		return db.Manifest{}, err
	}
	return build(ctx, job, dir, workers)
}

// build runs job into dir, or gives the manifest of the finished database
// there.
func build(ctx context.Context, job *Job, dir string, workers int) (db.Manifest, error) {
	m, r, unlock, err := begin(job, dir, workers)
	if err != nil || r == nil {
		return m, err
	}
	defer unlock()
	if _, err := r.reachAll(ctx, r.last); err != nil {
		return db.Manifest{}, err
	}
	counts, root, err := r.solveAll(ctx)
	if err != nil {
		return db.Manifest{}, err
	}
	return r.finish(ctx, counts, root)
}

// begin checks the folder dir for job's database (CheckFolder) and gives
// the manifest of the finished database there, if there is one; otherwise
// a run of the job on the folder, claimed (Claim) to begin or resume, and
// the function that releases it.
func begin(job *Job, dir string, workers int) (m db.Manifest, r *run, unlock func(), err error) {
	if m, unlock, err = claimUnfinished(dir, job.marker()); err != nil || unlock == nil {
		return m, nil, nil, err
	}
	r = &run{Job: job, dir: dir, workers: workers}
	r.total, r.largest = sizes(job.layout, job.last)
	return db.Manifest{}, r, unlock, nil
}

// claimUnfinished checks the folder dir for the database want marks
// (CheckFolder) and gives the manifest of the finished one there, if there
// is one; otherwise it claims the folder (Claim) to begin or resume, and
// gives the function that releases it.
func claimUnfinished(dir string, want marker) (m db.Manifest, unlock func(), err error) {
	if err := checkFolder(dir, want); err != nil {
		return db.Manifest{}, nil, err
	}
	if m, err := db.ReadManifest(dir); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return m, nil, err
	}
	unlock, err = claim(dir, want)
	return db.Manifest{}, unlock, err
}

// tasks runs fn on each task of ply p, with its ranks [lo, hi), from up to
// r.workers goroutines, and reports the progress after each, as at says.
func (r *run) tasks(ctx context.Context, p int, at progressAt, fn func(k int, lo, hi int64) error) error {
	var n atomic.Int64 // the ply's placements done
	return par.Tasks(ctx, r.Tasks(p), r.workers, func(_ context.Context, k int) error {
		lo, hi := r.Range(p, k)
		if err := fn(k, lo, hi); err != nil {
			return err
		}
		progress.Report(ctx, at.phase, at.ply, at.done+n.Add(hi-lo), r.total)
		return nil
	})
}

// progressAt is what the tasks of a ply report: the phase, the ply shown,
// and the placements done before the ply's tasks.
type progressAt struct {
	phase string
	ply   int
	done  int64
}

// ReachName is the scratch file of ply p's reachable placements.
func ReachName(p int) string { return fmt.Sprintf("reach-%02d.bits", p) }

// TaskReachName is the scratch file of the reach bits of task k of ply p
// that the Beam pipeline writes (its pieces add ".from-KKKKKK", the task of
// the ply before that marked them). A local build that finishes a folder
// such a run left removes them with its own (Tidy).
func TaskReachName(p, k int) string { return fmt.Sprintf("reach-%02d.range-%06d", p, k) }

// taskReach matches the names TaskReachName gives, and their pieces'.
var taskReach = lazyregexp.New(`^reach-[0-9]{2}\.range-[0-9]{6}(\.from-[0-9]{6})?$`)

// reachAll marks, ply by ply up to ply last, the placements play can
// reach, and keeps each ply's bits in a scratch file; plies whose file a
// former run finished are read back instead. It gives the positions
// reached at each ply: the marks of its bits. Two buffers as large as the
// largest ply take turns, the one the ply before last held taking the next
// ply's bits, whether marked or read back: memory holds two plies, never a
// third that the collector has not yet given back.
func (r *run) reachAll(ctx context.Context, last int) ([]int64, error) {
	prev := []uint64{1} // the empty board
	var spare []uint64
	largest := int64(0)
	for p := 1; p <= last; p++ {
		largest = max(largest, words(r.layout.Size(p)))
	}
	reached := []int64{1}
	done := int64(0)
	for p := 1; p <= last; p++ {
		if spare == nil {
			spare = make([]uint64, largest)
		}
		next := spare[:words(r.layout.Size(p))]
		err := r.readBitsInto(p, next)
		if errors.Is(err, fs.ErrNotExist) {
			clear(next)
			err = r.tasks(ctx, p-1, progressAt{"reachable placements", p, done}, func(_ int, lo, hi int64) error {
				r.Reach(p-1, lo, hi, prev[lo>>6:], func(c int64) { mark(next, c) })
				return nil
			})
			if err == nil {
				err = WriteBits(r.dir, p, next)
			}
		}
		if err != nil {
			return nil, err
		}
		if p == 1 {
			prev = nil // the empty board's word is no buffer to reuse
		}
		spare, prev = prev, next
		reached = append(reached, marked(next))
		done += r.layout.Size(p - 1)
		progress.Report(ctx, "reachable placements", p, done, r.total)
	}
	return reached, nil
}

// marked counts the set bits of w.
func marked(w []uint64) int64 {
	n := 0
	for _, x := range w {
		n += bits.OnesCount64(x)
	}
	return int64(n)
}

// sizes gives the placements of every ply of l's board of cells, and of
// the largest ply.
func sizes(l index.Placements, cells int) (total, largest int64) {
	for p := 0; p <= cells; p++ {
		total, largest = total+l.Size(p), max(largest, l.Size(p))
	}
	return total, largest
}

// words gives the 64-bit words of a bitset of n bits.
func words(n int64) int64 { return (n + 63) / 64 }

// A bits file holds a bitset of placements, a ply's reachable ones
// (ReachName) or a task's range of them (TaskReachName): bit r of word
// r/64, each word little-endian, then a trailer that vouches for them, since
// a resume trusts what it reads back:
//
//	magic "TTDBBITS", version u32 (scratchVersion), CRC-32C u32 of the words
const (
	bitsMagic      = "TTDBBITS"
	bitsTrailerLen = 8 + 4 + 4
	// scratchVersion is the format version of a build's scratch files,
	// bits and searched codes: theirs, which the tier files' (db.Version)
	// does not change.
	scratchVersion = 1
)

// bitsTrailer gives the trailer of a bits file whose words are b.
func bitsTrailer(b []byte) []byte {
	t := binary.LittleEndian.AppendUint32([]byte(bitsMagic), scratchVersion)
	return binary.LittleEndian.AppendUint32(t, crc32c.Checksum(b))
}

// checkBits says why t, the trailer of a bits file, does not vouch for b,
// the words before it, if it does not.
func checkBits(b, t []byte) error {
	switch {
	case string(t[:8]) != bitsMagic || binary.LittleEndian.Uint32(t[8:]) != scratchVersion:
		return errors.New("not a bits file of this version")
	case binary.LittleEndian.Uint32(t[12:]) != crc32c.Checksum(b):
		return errors.New("fails its checksum")
	}
	return nil
}

// WriteBits keeps w, the reachable placements of ply p, in its scratch
// file in dir, as a unit (EncodeBits).
func WriteBits(dir string, p int, w []uint64) error {
	b := wordBytes(w)
	return atomicfile.WriteParts(filepath.Join(dir, ReachName(p)), b, bitsTrailer(b))
}

// littleEndian says whether the machine keeps a word's bytes as the bits'
// files do, as amd64 and arm64 do.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// wordBytes gives the bytes of w as a bits file holds them, but on a
// little-endian machine w's own memory, not a copy: a ply's bits are
// gigabytes, and a copy beside the two plies in hand would be a third.
func wordBytes(w []uint64) []byte {
	if !littleEndian || len(w) == 0 {
		return EncodeBits(w)[:8*len(w)]
	}
	return memoryOf(w)
}

// memoryOf gives the bytes of w's own memory, w not empty.
func memoryOf(w []uint64) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), 8*len(w))
}

// readBitsFile reads the bits of the file name, which WriteBits wrote,
// into w, the words of its placements, with no buffer of the file beside
// them, and checks them against the file's trailer.
func readBitsFile(name string, w []uint64) error {
	f, err := db.OpenRegular(name)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if want := 8*int64(len(w)) + bitsTrailerLen; st.Size() != want {
		return fmt.Errorf("%d bytes, want %d", st.Size(), want)
	}
	b, t := memoryOf(w), make([]byte, bitsTrailerLen)
	if _, err := io.ReadFull(f, b); err != nil {
		return err
	}
	if _, err := io.ReadFull(f, t); err != nil {
		return err
	}
	if err := checkBits(b, t); err != nil {
		return fmt.Errorf("it %w", err)
	}
	if littleEndian {
		return nil
	}
	for i := range w { // each word from its own bytes
		w[i] = binary.LittleEndian.Uint64(b[8*i:])
	}
	return nil
}

// EncodeBits gives the bytes of the bitset w as its bits file holds them,
// its trailer last.
func EncodeBits(w []uint64) []byte {
	buf := make([]byte, 0, 8*len(w)+bitsTrailerLen)
	for _, x := range w {
		buf = binary.LittleEndian.AppendUint64(buf, x)
	}
	return append(buf, bitsTrailer(buf)...)
}

// readBits reads back the reachable placements of ply p from the scratch
// file in dir (readBitsFile); ply 0's one placement, the empty board,
// needs none. The error is fs.ErrNotExist when there is none.
func (r *run) readBits(p int) ([]uint64, error) {
	if p == 0 {
		return []uint64{1}, nil
	}
	w := r.Bits(p)
	if err := r.readBitsInto(p, w); err != nil {
		return nil, err
	}
	return w, nil
}

// readBitsInto is readBits into w, the words of ply p, past ply 0.
func (r *run) readBitsInto(p int, w []uint64) error {
	err := readBitsFile(filepath.Join(r.dir, ReachName(p)), w)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return db.Damaged(filepath.Join(r.dir, ReachName(p)), err, "remove it to mark the ply again")
	}
	return err
}

// DecodeBits gives the bitset of n bits whose bytes EncodeBits gave,
// checked against their trailer.
func DecodeBits(buf []byte, n int64) ([]uint64, error) {
	w := make([]uint64, words(n))
	if len(buf) != 8*len(w)+bitsTrailerLen {
		return nil, fmt.Errorf("%d bytes, want %d", len(buf), 8*len(w)+bitsTrailerLen)
	}
	if err := checkBits(buf[:8*len(w)], buf[8*len(w):]); err != nil {
		return nil, err
	}
	for i := range w {
		w[i] = binary.LittleEndian.Uint64(buf[8*i:])
	}
	return w, nil
}

// solveAll solves the plies from the last to the empty board, each from
// the one after it, writing each as a tier file; a ply whose tier file a
// former run finished is read back instead. It gives each ply's positions
// by value for the side to move, and the empty board's code. Two buffers
// of the largest ply's size take turns, the one the ply after next held
// taking the next ply's codes, whether solved or read back: memory holds
// two plies, never a third waiting for the collector.
func (r *run) solveAll(ctx context.Context) ([]db.Ply, byte, error) {
	counts := make([]db.Ply, r.last+1)
	var next, spare []byte
	done := int64(0)
	for p := r.last; p >= 0; p-- {
		var file db.Ply // the file's size and SHA-256, when written here
		if spare == nil {
			spare = make([]byte, r.largest)
		}
		codes := spare[:r.layout.Size(p)]
		err := db.ReadTier(ctx, r.dir, r.rl.Spec(), p, codes, r.workers)
		if errors.Is(err, fs.ErrNotExist) {
			file.Bytes, file.SHA256, err = r.solvePly(ctx, p, next, codes, progressAt{"solve", p, done})
		}
		if err != nil {
			return nil, 0, err
		}
		counts[p] = r.Count(p, codes)
		counts[p].Bytes, counts[p].SHA256 = file.Bytes, file.SHA256
		spare, next = next, codes
		done += r.layout.Size(p)
		progress.Report(ctx, "solve", p, done, r.total)
	}
	return counts, next[0], nil
}

// solvePly solves the reachable placements of ply p from next, the codes of
// ply p+1, into codes, and writes its tier file, whose size and SHA-256 it
// gives. Each task writes its range as a part file; a rerun reads back the
// parts a former run finished first (readParts) instead of solving them
// again, and the tier file is the parts' blocks, assembled. Each task
// reports progress as at says.
func (r *run) solvePly(ctx context.Context, p int, next, codes []byte, at progressAt) (int64, string, error) {
	have, err := r.readBits(p)
	if err != nil {
		return 0, "", err
	}
	var nextCodes Codes // none after the last ply, where every game is over
	if next != nil {
		nextCodes = r.CodesOf(p+1, next)
	}
	parts, finished, err := r.readParts(p, codes)
	if err != nil {
		return 0, "", err
	}
	var kept *searched
	if r.Searched(p) {
		if kept, err = openSearched(r.dir, r.rl.Spec(), p, r.layout.Size(p)); err != nil {
			return 0, "", err
		}
		defer kept.close()
		kept.done = func(rank int64) (byte, bool) {
			if !finished[r.TaskOf(p, rank)].Load() {
				return 0, false
			}
			return codes[rank], codes[rank] != 0
		}
	}
	err = r.tasks(ctx, p, at, func(k int, lo, hi int64) error {
		if finished[k].Load() {
			return nil
		}
		err := r.rangeCodes(ctx, p, lo, hi, have[lo>>6:], nextCodes, codes[lo:hi], kept)
		if err == nil {
			parts[k], err = dbwrite.WritePart(r.dir, p, k, lo, codes[lo:hi])
		}
		finished[k].Store(err == nil)
		return err
	})
	if err != nil {
		return 0, "", err
	}
	size, sum, err := dbwrite.AssembleTier(r.dir, r.rl.Spec(), p, int64(len(codes)), parts)
	if err == nil {
		err = errors.Join(dbwrite.RemoveParts(r.dir, p), removeSearched(r.dir, p))
	}
	return size, sum, err
}

// readParts reads back into codes the part files of ply p's tasks a former
// run finished, and says which those are: before any task runs, so that a
// book's searches find the codes of every finished task's range, whatever
// its place in the ply (searched.done).
func (r *run) readParts(p int, codes []byte) ([]dbwrite.Part, []atomic.Bool, error) {
	parts := make([]dbwrite.Part, r.Tasks(p))
	finished := make([]atomic.Bool, len(parts)) // a task's codes are all in codes
	for k := range parts {
		lo, hi := r.Range(p, k)
		part, err := dbwrite.ReadPart(r.dir, p, k, lo, codes[lo:hi])
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return nil, nil, err
		}
		parts[k] = part
		finished[k].Store(true)
	}
	return parts, finished, nil
}

// rangeCodes gives the codes of the ranks [lo, hi) of ply p into dst: by
// search at a book's last ply (SearchRange), else from the next ply's
// (SolveRange). kept holds the codes searched before at a book's last ply.
// A ply of fewer tasks than workers gives each task's search a share of
// them.
func (r *run) rangeCodes(ctx context.Context, p int, lo, hi int64, have []uint64, next Codes, dst []byte, kept *searched) error {
	if r.Searched(p) {
		return r.searchRange(ctx, p, lo, hi, have, dst, kept, max(1, r.workers/r.Tasks(p)))
	}
	r.SolveRange(p, lo, hi, have, next, dst)
	return nil
}

// mark sets bit c of w, shared by the tasks of a ply: with a plain load
// first, since most children are reached from several parents and their
// bit is set already, and a locked write keeps the loads around it from
// overlapping (a cache miss each in a ply's bits of gigabytes).
func mark(w []uint64, c int64) {
	word, bit := &w[c>>6], uint64(1)<<(c&63)
	if atomic.LoadUint64(word)&bit == 0 {
		atomic.OrUint64(word, bit)
	}
}
