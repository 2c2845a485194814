package tier

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/index"
	"github.com/tateti-lab/tateti-lab/internal/par"
	"github.com/tateti-lab/tateti-lab/internal/progress"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/search"
)

// A Job is the tier solve of one game cut into tasks that any engine may
// run, in any order and as often as it likes: Solve runs them on the local
// cores, the Beam pipeline (beam/ in this repository) on a cluster. What a
// task computes depends on the task and its inputs alone.
type Job struct {
	rl     rules.Rules
	layout index.Placements
	cells  int
	last   int // the last ply: cells, or an opening book's
	// taskLen is the placements a task takes at a ply not valued by
	// search: TaskPlacements, or fewer (WithTaskBlocks).
	taskLen int64
	prior   perfect.Prober // a shorter book's values, which bound the last ply's searches (WithPrior); nil for none
}

// WithPrior gives a copy of j, an opening book's job, whose searches of
// its last ply start from what prior, which must hold the ply before,
// says of each position's parents (perfect.Floor). One null-window
// question settles a position that does no better (a best move's child of
// one of its parents); the others are searched from that bound up. The
// codes are the same with or without it, only found sooner.
func (j *Job) WithPrior(prior perfect.Prober) *Job {
	c := *j
	c.prior = prior
	return &c
}

// NewJob gives the job of the game of rl, laid out by index.NewPlacements.
func NewJob(rl rules.Rules) (*Job, error) {
	layout, err := index.NewPlacements(rl.Spec().Spec, rl.Spec().Gravity)
	if err != nil {
		return nil, err
	}
	return &Job{rl: rl, layout: layout, cells: rl.Spec().Cells(), last: rl.Spec().Cells(), taskLen: TaskPlacements}, nil
}

// NewBook gives the job of the opening book of rl's game to ply maxPly, 0
// to the last ply but one: the placements of ply maxPly are valued by
// search (SearchRange), the plies before it from the ones after, as the
// whole game's are.
func NewBook(rl rules.Rules, maxPly int) (*Job, error) {
	j, err := NewJob(rl)
	if err != nil {
		return nil, err
	}
	if maxPly < 0 || maxPly >= j.cells {
		return nil, fmt.Errorf("an opening book's last ply is 0 to %d, not %d; the whole game's database holds ply %d", j.cells-1, maxPly, j.cells)
	}
	j.last = maxPly
	return j, nil
}

// JobOf gives the job of rl's game: the whole game's for maxPly below 0,
// else its opening book's to ply maxPly (NewBook).
func JobOf(rl rules.Rules, maxPly int) (*Job, error) {
	if maxPly < 0 {
		return NewJob(rl)
	}
	return NewBook(rl, maxPly)
}

// Layout names the ranks of the job's tiers: index.Placements' Name.
func (j *Job) Layout() string { return j.layout.Name() }

// Plies is the last ply: the number of cells, or a book's last ply; the
// plies are 0 to Plies.
func (j *Job) Plies() int { return j.last }

// Book gives an opening book's last ply, and false for the whole game.
func (j *Job) Book() (int, bool) { return j.last, j.last < j.cells }

// maxPly gives a book's last ply, nil for the whole game.
func (j *Job) maxPly() *int {
	if last, ok := j.Book(); ok {
		return &last
	}
	return nil
}

// Searched reports whether ply p's placements are valued by search: the
// last ply of a book.
func (j *Job) Searched(p int) bool { return p == j.last && j.last < j.cells }

// Size is the number of placements at ply p.
func (j *Job) Size(p int) int64 { return j.layout.Size(p) }

// TaskPlacements is how many placements a task takes, a whole number of
// blocks of a tier file: task k of a ply takes the ranks [k·TaskPlacements,
// (k+1)·TaskPlacements), the last task fewer. The cut depends on the ply's
// size alone (and WithTaskBlocks, which cuts smaller).
const TaskPlacements = 64 * db.BlockLen

// SearchPlacements is how many placements a task takes at a ply valued by
// search (Searched): a block, so that the searches, minutes or hours of
// them, are shared among workers and a stop loses little.
const SearchPlacements = db.BlockLen

// TaskLen gives how many placements a task of ply p takes.
func (j *Job) TaskLen(p int) int64 {
	if j.Searched(p) {
		return SearchPlacements
	}
	return j.taskLen
}

// WithTaskBlocks gives a copy of j whose tasks take n blocks each, 1 to
// 64, where they take TaskPlacements: more and smaller tasks, and the same
// database, whose tier files are cut in blocks whatever the tasks. The
// tests here and the Beam pipeline's take it to run many tasks a ply on a
// small board. A stopped build resumes with the same cut: a part file of
// another holds another range, which a resume refuses by name.
func (j *Job) WithTaskBlocks(n int) (*Job, error) {
	if most := TaskPlacements / db.BlockLen; n < 1 || n > most {
		return nil, fmt.Errorf("a task takes 1 to %d blocks, not %d", most, n)
	}
	c := *j
	c.taskLen = int64(n) * db.BlockLen
	return &c, nil
}

// Tasks gives the number of tasks of ply p.
func (j *Job) Tasks(p int) int { return int((j.Size(p) + j.TaskLen(p) - 1) / j.TaskLen(p)) }

// TaskOf gives the task of ply p whose range holds rank r.
func (j *Job) TaskOf(p int, r int64) int { return int(r / j.TaskLen(p)) }

// Range gives the ranks [lo, hi) of task k of ply p.
func (j *Job) Range(p, k int) (lo, hi int64) {
	lo = int64(k) * j.TaskLen(p)
	return lo, min(lo+j.TaskLen(p), j.Size(p))
}

// Bits gives an empty bitset of ply p's placements: bit r of word r/64
// for rank r.
func (j *Job) Bits(p int) []uint64 { return make([]uint64, words(j.Size(p))) }

// Reach calls mark with the rank, among ply p+1's placements, of every
// child of the placements of ranks [lo, hi) of ply p that are in have (the
// ply's reachable ones, from the word of rank lo: bit r of word r/64 -
// lo/64, as index.Placements' Each takes them) and whose game goes on: a
// task of the forward pass. A child may be marked more than once.
func (j *Job) Reach(p int, lo, hi int64, have []uint64, mark func(child int64)) {
	kids := make([]int64, 0, 64)
	j.layout.Each(p, lo, hi, have, func(_ int64, b game.Board) {
		for _, c := range j.layout.Children(kids[:0], b, j.rl.Moves(b)) {
			mark(c)
		}
	})
}

// NextTasks gives, in increasing order, the tasks of ply p+1 whose ranges
// hold a child of the placements of ranks [lo, hi) of ply p in have (as
// Reach takes it): the ranges of the next ply that a backward task over
// the range reads, and all it reads. Under gravity they are a few of the
// ply's: a move changes one column's height, and the heights order the
// ranks (docs/beam.md).
func (j *Job) NextTasks(p int, lo, hi int64, have []uint64) []int {
	if p >= j.last {
		return nil
	}
	seen := make([]uint64, (j.Tasks(p+1)+63)/64)
	j.Reach(p, lo, hi, have, func(c int64) {
		t := j.TaskOf(p+1, c)
		seen[t>>6] |= 1 << (t & 63)
	})
	var tasks []int
	for i, w := range seen {
		for ; w != 0; w &= w - 1 {
			tasks = append(tasks, i*64+bits.TrailingZeros64(w))
		}
	}
	return tasks
}

// Codes are some of a ply's codes, by task: every task's, or those of a
// few tasks, what a backward task reads of the next ply (NextTasks names
// them).
type Codes struct {
	tasks  []int    // the tasks held, in increasing order; nil: every task, byTask[k] task k's
	byTask [][]byte // the codes of the ranks of each task held (Range)
	size   int64    // the placements of a task of the ply (TaskLen)
}

// CodesOf gives codes, all of ply p's, cut by task.
func (j *Job) CodesOf(p int, codes []byte) Codes {
	c := Codes{byTask: make([][]byte, j.Tasks(p)), size: j.TaskLen(p)}
	for k := range c.byTask {
		lo, hi := j.Range(p, k)
		c.byTask[k] = codes[lo:hi]
	}
	return c
}

// SomeCodes gives the codes of the tasks of ply p named, in increasing
// order, each task's in byTask in the same order.
func (j *Job) SomeCodes(p int, tasks []int, byTask [][]byte) Codes {
	return Codes{tasks: tasks, byTask: byTask, size: j.TaskLen(p)}
}

// at gives the code of rank r; its task must be held.
func (c Codes) at(r int64) byte {
	t := int(r / c.size)
	if c.tasks == nil {
		return c.byTask[t][r%c.size]
	}
	i := 0
	for c.tasks[i] != t { // a few tasks: a scan beats a binary search
		i++
	}
	return c.byTask[i][r%c.size]
}

// SolveRange solves the placements of ranks [lo, hi) of ply p into dst,
// which holds their codes: 0 for those not in have (the ply's reachable
// placements, as Reach takes them); the rest from next, the codes of ply
// p+1, of which it reads the tasks NextTasks names. A task of the backward
// pass, whose codes dbwrite.WritePart keeps.
func (j *Job) SolveRange(p int, lo, hi int64, have []uint64, next Codes, dst []byte) {
	clear(dst)
	kids := make([]int64, 0, 64)
	j.layout.Each(p, lo, hi, have, func(rank int64, b game.Board) {
		dst[rank-lo] = j.code(b, next, kids)
	})
}

// SearchMemory is the bytes a task's search may take for its table, a
// worker: a task searched by two workers shares a table of twice that.
// Within it each search takes what its position wants (search's
// wantBits): a few MiB a few plies past the middle of 7x6, and the most,
// 512 MiB (search.MaxTableBits), near the empty board.
const SearchMemory = 2 << 30

// SearchRange values the reachable placements of ranks [lo, hi) of ply p,
// the last of a book (Searched), into dst, as SolveRange does from the
// next ply, but by search, one position after another, each with its
// value and depth alone: a finished board by the rules, at depth 0. A
// search's answer is exact, whatever its table held before, so the codes
// depend on the range alone. It stops with ctx's error.
func (j *Job) SearchRange(ctx context.Context, p int, lo, hi int64, have []uint64, dst []byte) error {
	return j.searchRange(ctx, p, lo, hi, have, dst, nil, 1)
}

// searchRange is SearchRange, taking the code of a position, or of an
// image of it, from kept when it was searched before, and keeping there
// each code it searches, with workers searching each position: exact
// either way, so the codes are the same.
func (j *Job) searchRange(ctx context.Context, p int, lo, hi int64, have []uint64, dst []byte, kept *searched, workers int) error {
	clear(dst)
	s, err := search.New(j.rl.Spec(), search.Options{TableBits: search.TableBitsFor(SearchMemory * uint64(workers)), Workers: workers})
	if err != nil {
		return err
	}
	defer s.Close()                  // a task's tables, given back with it
	quiet := progress.With(ctx, nil) // the searches' own nodes are no one's progress
	syms := j.rl.Symmetries()
	searched, found := 0, 0
	j.layout.Each(p, lo, hi, have, func(rank int64, b game.Board) {
		if err != nil {
			return
		}
		if c, ok := kept.lookup(j.layout, syms, rank, b); ok {
			dst[rank-lo], found = c, found+1
			return
		}
		searched++
		progress.Tell(ctx, "book", fmt.Sprintf("ply %d, ranks %d to %d: %d positions searched, %d found searched before, at rank %d", p, lo, hi, searched, found, rank))
		var c byte
		if c, err = j.searchCode(quiet, s, b); err == nil {
			dst[rank-lo] = c
			err = kept.add(rank, c)
		}
	})
	return err
}

// searchCode gives the code of b by s: a finished board by the rules, at
// depth 0, else the search's value and depth.
func (j *Job) searchCode(ctx context.Context, s *search.Solver, b game.Board) (byte, error) {
	if over, winner := j.rl.Outcome(b); over {
		return db.Pack(perfect.Of(winner), 0), nil
	}
	floor, bounded, err := j.floor(b)
	if err != nil {
		return 0, err
	}
	var r search.Result
	if bounded {
		r, err = s.SolveFrom(ctx, uint64(b.X), uint64(b.O), floor)
	} else {
		r, err = s.Solve(ctx, uint64(b.X), uint64(b.O))
	}
	switch {
	case err != nil:
		return 0, err
	case !r.Settled:
		return 0, fmt.Errorf("search left %s unsettled: a bug", j.rl.Spec().Format(b))
	}
	return db.Pack(r.Value, r.Depth), nil
}

// floor gives the outcome (for X) the prior's parents of b, a position in
// progress, bound it by from below for its mover (perfect.Floor), and
// false when there is no prior or it holds none of them.
func (j *Job) floor(b game.Board) (floor perfect.Outcome, ok bool, err error) {
	if j.prior == nil {
		return floor, false, nil
	}
	return perfect.Floor(j.rl, b, j.prior)
}

// Disagrees gives the rank of the first reachable position of ply p (one
// whose code is not 0) whose code in codes is not the one the codes of
// the next ply, next, give it by the backward rule (code), and false when
// every one agrees: a check of a database's tiers against one another.
// With next nil, only the finished boards of ply p are checked, against
// what the rules say of them. Up to workers goroutines look; the rank it
// gives is the first, whatever the workers. The error is ctx's.
func (j *Job) Disagrees(ctx context.Context, p int, codes, next []byte, workers int) (int64, bool, error) {
	var nc Codes
	if next != nil {
		nc = j.CodesOf(p+1, next)
	}
	first := make([]int64, par.Chunks(0, len(codes), workers))
	for k := range first {
		first[k] = -1 // none found, also in a chunk an interruption never ran
	}
	err := par.Ranges(ctx, 0, len(codes), workers, func(_ context.Context, k, lo, hi int) error {
		kids := make([]int64, 0, 64)
		for r := lo; r < hi; r++ {
			if codes[r] == 0 {
				continue
			}
			b := j.layout.Unrank(p, int64(r))
			if over, _ := j.rl.Outcome(b); (over || next != nil) && j.code(b, nc, kids) != codes[r] {
				first[k] = int64(r)
				return nil
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

// code gives the code of b, reachable, from the codes of the next ply:
// what the rules say of a finished board, at depth 0; else the best of its
// moves for the side to move, as every solve here weighs them. kids is
// room for the children's ranks.
func (j *Job) code(b game.Board, next Codes, kids []int64) byte {
	if over, winner := j.rl.Outcome(b); over {
		return db.Pack(perfect.Of(winner), 0)
	}
	mover := b.ToMove()
	pk := perfect.NewPick()
	moves := uint64(j.rl.Playable(b))
	for _, k := range j.layout.Children(kids, b, game.Mask(moves)) {
		v, d, _ := db.Unpack(next.at(k))
		pk.Add(bits.TrailingZeros64(moves), v.For(mover), d)
		moves &= moves - 1
	}
	v, d := pk.Result()
	return db.Pack(v.For(mover), d)
}

// DisagreesAt is Disagrees of the placements of ranks alone.
func (j *Job) DisagreesAt(p int, codes, next []byte, ranks []int64) (int64, bool) {
	var nc Codes
	if next != nil {
		nc = j.CodesOf(p+1, next)
	}
	kids := make([]int64, 0, 64)
	for _, r := range ranks {
		if codes[r] == 0 {
			continue
		}
		b := j.layout.Unrank(p, r)
		if over, _ := j.rl.Outcome(b); (over || next != nil) && j.code(b, nc, kids) != codes[r] {
			return r, true
		}
	}
	return 0, false
}

// Count gives ply p's entry in the manifest but its file: its positions by
// value for the side to move (X at an even ply), and its finished boards,
// those of depth 0, by status: who made a line, the winner, or under
// misère the loser.
func (j *Job) Count(p int, codes []byte) db.Ply {
	var byValue, over [3]int64 // for X: lost, drawn, won
	for _, c := range codes {
		if v, d, ok := db.Unpack(c); ok {
			byValue[v+1]++
			if d == 0 {
				over[v+1]++
			}
		}
	}
	if p%2 == 1 {
		byValue[0], byValue[2] = byValue[2], byValue[0]
	}
	if j.rl.Spec().Misere {
		over[0], over[2] = over[2], over[0]
	}
	return db.Ply{Ply: p, Placements: int64(len(codes)), Positions: byValue[0] + byValue[1] + byValue[2],
		Lost: byValue[0], Drawn: byValue[1], Won: byValue[2], Terminal: perfect.ByStatus{XWon: over[2], OWon: over[0], Draw: over[1]}}
}

// Manifest gives the manifest of the game solved to counts, one a ply with
// its file's size and SHA-256, and root, the empty board's code.
func (j *Job) Manifest(counts []db.Ply, root byte) db.Manifest {
	v, d, _ := db.Unpack(root)
	m := db.Manifest{Format: db.Format, Version: db.Version, Game: j.rl.Spec(), Layout: j.layout.Name(), BlockLen: db.BlockLen, Value: v, Depth: d, Plies: counts}
	m.MaxPly = j.maxPly()
	for p := range counts {
		counts[p].File = db.TierName(p)
		m.Positions += counts[p].Positions
	}
	return m
}
