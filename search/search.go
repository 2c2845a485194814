// Package search owns perfect play of one position at a time, by search
// rather than by exhausting the game: the exact value (for X) and depth of a
// position of any rule set (gravity, as in Connect Four, or free placement;
// normal or misère), on any board of up to 64 cells: in Pons' layout where
// a gravity board's columns, each with one spare bit, fit 64 bits (7x6 and
// 8x7 among them) or a free board fits 32, packed past that (gravity 8x8,
// free 6x6). It is the negamax with alpha-beta and a
// transposition table of Pascal Pons' Connect Four solver, over his bit
// layout, with the lab's conventions: the winner wins fastest and the loser
// loses slowest, and a draw's depth is the empty cells.
// Under gravity and normal play it also bounds a position's score, and
// its children's, without search where one side can take every other
// empty cell of each column by answering each move right above it (Victor
// Allis' claimeven; docs/design/search-claimeven.md), or where one side has
// a threat the other must at last play below (Allis' odd threat, for either
// side; docs/design/search-odd-threat.md).
//
// Scores: a game that ends at ply P (marks on the board) in a win is worth
// cells+1-P to the winner and its opposite to the loser, a draw 0; so a
// faster win scores more, a slower loss less badly, and any win more than a
// draw. Negamax gives each position the score of its side to move.
//
// Several workers search one position together: each runs the null-window
// searches that narrow the score, all on the same guess, sharing the table
// and the span of scores proved so far. A worker leaves for later a move
// whose position another is searching (Weill's ABDADA), and a helper takes
// the root's moves in another order, so that the workers search different
// subtrees and find each other's results in the table. The score is exact
// whoever settles it, so the answer does not depend on the number of
// workers.
package search

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/bits"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tateti-lab/tateti-lab/internal/progress"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
	"golang.org/x/sync/errgroup"
)

// Solver answers positions of one game, free or gravity. It keeps its
// transposition table from one position to the next. Solve is for one
// goroutine at a time; Nodes may be called from any.
type Solver struct {
	g       *geometry
	misere  bool
	cells   int
	tt      *table // nil until the first search (see fit)
	want    int    // the bits of the slots the search in progress may widen its table to (fit, grow)
	last    uint64 // all marks of the position last searched (startSlots)
	maxBits int
	workers int
	cores   *Cores     // shared with the solvers beside it, or nil (Options.Cores)
	pool    []*worker  // one a worker, kept from search to search
	busy    *busyTable // what the workers are searching; nil for one worker

	nodes atomic.Uint64 // positions searched, by every worker
	mu    sync.Mutex
	now   span // the bounds of the search in progress

	guide     Guide  // Options.Guide, or nil
	guideLast int    // the last ply of a position the guide is asked about
	cellOf    []int8 // the game's cell of each bit of the layout, -1 off the board: toCells
	// job is the search in progress, made anew in place by each search
	// (no helper holds it once search returns): a program's lines search
	// once each, and a job allocated for each took fresh memory, a page
	// fault every twenty searches (Middle-Easy: 939 faults a run, 868 so).
	job job
}

// Options size a Solver.
type Options struct {
	// TableBits gives the transposition table at most 1<<TableBits
	// entries of 8 bytes; at least MinTableBits. The table is made for the
	// first position searched, as large as its empty cells want (wantBits),
	// and made larger, empty, for a later one that wants more.
	TableBits int
	// Workers search each position together; at least 1.
	Workers int
	// Cores, when set, is shared with other solvers answering positions
	// side by side: the helpers of a search start only on cores the
	// others leave idle.
	Cores *Cores
	// Guide, when set, tells the search the values of positions it knows
	// (a win/draw/loss database does): the search then asks only how
	// soon a known win or loss ends, and a known draw takes no search.
	Guide Guide
	// packed lays out even a board that fits Pons' layout packed, so that
	// tests hold the packed layout to the exhaustive solve on small boards.
	packed bool
	// guideLast, when not 0, replaces the constant guideLast, so that
	// tests ask the guide about every position of a small board.
	guideLast int
}

// checkEvery is how many nodes pass between looks at the context: a look
// costs a few nanoseconds, and 4,096 nodes take under a millisecond.
const checkEvery = 1 << 12

// New gives a solver of the game of sp: gravity or free placement, normal
// or misère, on a board of at most 64 cells. A gravity board of at most 64
// bits in Pons' layout (7x8 does) and a free board of 32 (5x5, 4x7 and 3x8
// do) are searched in it; larger ones (gravity 8x8, free 6x6 and 8x8) in
// the packed layout, whose lines and keys take more instructions.
func New(sp rules.Spec, o Options) (*Solver, error) {
	rows, cols, k := sp.Rows, sp.Cols, sp.K
	if err := Fits(sp); err != nil {
		return nil, err
	}
	if o.TableBits < MinTableBits || o.TableBits > 40 || o.Workers < 1 {
		return nil, fmt.Errorf("search: a table of 2^%d entries and %d workers; want 2^%d to 2^40 entries and a worker at least", o.TableBits, o.Workers, MinTableBits)
	}
	s := &Solver{g: newGeometry(rows, cols, k, sp.Gravity, o.packed), misere: sp.Misere, cells: rows * cols, maxBits: o.TableBits, workers: o.Workers, cores: o.Cores, guide: o.Guide}
	if o.Guide != nil {
		s.cellOf = s.g.cellsOfBits(rows * cols)
		s.guideLast = cmp.Or(o.guideLast, guideLast)
	}
	if o.Workers > 1 {
		s.busy = new(busyTable)
	}
	for id := range o.Workers {
		s.pool = append(s.pool, &worker{s: s, id: id})
	}
	return s, nil
}

// Fits says why search cannot hold the board of sp, if it cannot: it holds
// boards of at most 64 cells, as package game does.
func Fits(sp rules.Spec) error {
	if n := sp.Rows * sp.Cols; n > 64 {
		return fmt.Errorf("a %s board has %d cells, and search holds 64 (8x8, 7x9, ...)", sp.Size(), n)
	}
	return nil
}

// TableBytes is the memory of the entries of the transposition table and
// the workers' near tables; 0 before the first search. A table of 2^15 to
// 2^18 entries takes a whole huge page where the system gives them
// (hugepage.MinMapBytes).
func (s *Solver) TableBytes() uint64 {
	if s.tt == nil {
		return 0
	}
	n := s.tt.bytes()
	for _, w := range s.pool {
		if w.near != nil {
			n += w.near.bytes()
		}
	}
	return n
}

// fit makes the table as large as a position of empty empty cells, all
// marks mask, wants, within the most allowed, unless it is already, and
// puts in use the slots its search starts with (startSlots). The search
// widens them as it proves long (grow). A table it replaces is released
// at once: fit runs before a search starts its workers, when none holds a
// table.
func (s *Solver) fit(empty int, mask uint64) {
	s.want = fitBits(s.maxBits, empty, s.g.gravity, s.g.packed)
	if start := s.startSlots(mask); s.tt == nil || uint(s.want) > s.tt.bits {
		s.tt.release()
		s.tt = newTable(s.want, start, s.g.packed)
	} else {
		s.tt.use(start)
	}
	s.last = mask
	if nb := nearBitsFor(int(s.tt.bits), s.g.packed); nb > 0 {
		for _, w := range s.pool {
			if w.near == nil || w.near.bits < uint(nb) {
				w.near.release()
				w.near = newTable(nb, nb, false)
			}
		}
	}
}

// startSlots gives the bits of the slots in use at the start of a search
// of the position of all marks mask. A position near the last one searched
// (it holds all of that one's marks but one at most: a child, a sibling,
// a later ply of the same game) meets the positions that search stored:
// it keeps the slots that search widened to, where it finds them. Any
// other starts with startBits, or fewer where it wants fewer: what an
// unrelated search stored is of little use to it, and the few slots a
// short search touches then stay in the cache.
func (s *Solver) startSlots(mask uint64) int {
	start := min(s.want, startBits)
	if s.tt != nil && bits.OnesCount64(s.last&^mask) <= 1 {
		start = max(start, min(s.want, s.tt.used()))
	}
	return start
}

// startBits is the slots a search of a position unrelated to the last
// starts with, 2^15 (256 KiB, in a core's L2 cache): plenty for the short
// searches of positions decided within a few moves (Pons' Begin-Easy band
// takes about 800 nodes a position). A search that proves longer widens
// them (grow) up to what its position wants. A run of many short searches
// of unrelated positions (a program's lines on solve --stdin) so neither
// waits on the system to zero a large table nor misses the cache at every
// probe of one (docs/design/search-table-size.md).
const startBits = 15

// grow widens the slots of the table in use as the search of j proves
// long: to growRatio slots for each node searched so far, up to what its
// position wants (fit). The main worker calls it at each check; the
// helpers see the wider table at their next lookup.
func (s *Solver) grow(j *job) {
	u := s.tt.used()
	if u >= s.want {
		return
	}
	if n := (s.Nodes() - j.nodes0) * growRatio; n > 1<<u {
		s.tt.use(min(s.want, bits.Len64(n-1)))
	}
}

// growRatio is how many slots grow keeps in use for each node searched:
// the table a position wants holds about a quarter of the positions it
// meets (wantBits), so four a node reaches it a sixteenth of the way in.
const growRatio = 4

// fitBits gives the bits of the table a position of empty empty cells
// takes within most bits of 8-byte entries (wantBits), on a layout packed
// or not.
func fitBits(most, empty int, gravity, packed bool) int {
	if packed { // entries of two words: half as many in the same memory
		most = max(MinTableBits, most-1)
	}
	return min(most, max(MinTableBits, wantBits(empty, gravity)))
}

// nearBitsFor gives the bits of the near table (tableOf) each worker of
// a search whose shared table has 2^bits entries keeps, 0 for none: in
// Pons' layout, from a shared table of 2^nearLeast entries, a quarter of
// it, up to 2^nearBits entries.
func nearBitsFor(bits int, packed bool) int {
	if packed || bits < nearLeast {
		return 0
	}
	return min(nearBits, bits-2)
}

// TableBytesFor gives the bytes of the table a Solver of the game of spec
// with Options.TableBits tableBits takes for a position of empty empty
// cells: what the position wants, within tableBits, and one worker's near
// table when it makes them.
func TableBytesFor(spec rules.Spec, tableBits, empty int) uint64 {
	packed := !spareFits(spec.Rows, spec.Cols, spec.Gravity)
	bits := fitBits(tableBits, empty, spec.Gravity, packed)
	n := uint64(8) << bits
	if packed {
		n *= 2
	}
	if nb := nearBitsFor(bits, packed); nb > 0 {
		n += 8 << nb
	}
	return n
}

// Nodes counts the positions searched since the solver was made.
func (s *Solver) Nodes() uint64 { return s.nodes.Load() }

// A Result is what a search proved of a position: the Bounds of its value
// for X always; when the search ended, Settled (value and depth known)
// and its Value and Depth (from Value, the Value alone, and Settled
// false).
type Result struct {
	Value   perfect.Value
	Depth   perfect.Depth
	Settled bool
	perfect.Bounds
}

// Solve gives the value for X and the depth of the position whose X and O
// marks are the cells of x and o, numbered row-major from the top left as
// package game numbers them. The position must be one that can arise in
// play. When ctx is done first, it gives what was proved by then, not
// Settled, and ctx's error; the solver stays usable, its table holding only
// finished work.
func (s *Solver) Solve(ctx context.Context, x, o uint64) (Result, error) {
	return s.solve(ctx, x, o, false)
}

// Value is Solve for the value alone: it settles whether X wins, draws or
// loses and leaves the depth unknown, so its Result is never Settled, and
// Low and High are equal once the value is known. It asks fewer questions
// than Solve (is the score above 0, and if not above -1?), whose answers
// need not say how fast a side wins, and so takes a fraction of the time.
func (s *Solver) Value(ctx context.Context, x, o uint64) (Result, error) {
	return s.solve(ctx, x, o, true)
}

// SolveAbove is Solve of a position in progress whose side to move is
// known to do better than the outcome than (Beats said so): its searches
// start from that bound, where Solve's start from the widest span. A
// position that does not beat than gets a wrong answer.
func (s *Solver) SolveAbove(ctx context.Context, x, o uint64, than perfect.Outcome) (Result, error) {
	return s.solveAbove(ctx, x, o, false, &than)
}

// SolveFrom is Solve of a position in progress whose side to move is
// known to do at least as well as the outcome floor: one null-window
// question (Beats) settles it at floor when it does no better, a best
// move's child against its parent's outcome most often, and otherwise its
// searches start above floor (SolveAbove). A position that does worse than
// floor gets a wrong answer.
func (s *Solver) SolveFrom(ctx context.Context, x, o uint64, floor perfect.Outcome) (Result, error) {
	better, err := s.Beats(ctx, x, o, floor)
	switch {
	case err != nil:
		return Result{Bounds: perfect.Unknown}, err
	case !better:
		return Result{Value: floor.Value, Depth: floor.Depth, Settled: true, Bounds: perfect.Bounds{Low: floor.Value, High: floor.Value}}, nil
	}
	return s.SolveAbove(ctx, x, o, floor)
}

// solve is Solve, or Value when valueOnly.
func (s *Solver) solve(ctx context.Context, x, o uint64, valueOnly bool) (Result, error) {
	return s.solveAbove(ctx, x, o, valueOnly, nil)
}

// solveAbove is solve of a position whose side to move does better than
// than, when it is not nil.
func (s *Solver) solveAbove(ctx context.Context, x, o uint64, valueOnly bool, than *perfect.Outcome) (Result, error) {
	bx, bo, err := s.marks(x, o)
	if err != nil {
		return Result{}, err
	}
	moves := marks(bx | bo)
	xToMove := marks(bx) == marks(bo)
	if v, over := s.over(bx, bo, moves); over {
		return Result{Value: v, Settled: !valueOnly, Bounds: perfect.Bounds{Low: v, High: v}}, nil
	}
	sp, ok := s.atOnce(bx, bo, moves, xToMove)
	if !ok {
		within := span{-(s.cells - moves), s.cells - moves}
		if than != nil {
			within.lo = max(within.lo, s.score(*than, moves, xToMove)+1)
		}
		if sp = s.guidedSpan(bx, bo, moves, xToMove, within); sp.open(valueOnly) {
			s.fit(s.cells-moves, bx|bo)
			sp = s.search(ctx, s.mover(bx, bo, xToMove), bx|bo, moves, xToMove, valueOnly, sp)
		}
	}
	r := Result{Bounds: s.bounds(sp, xToMove)}
	switch {
	case sp.open(valueOnly):
		return r, ctx.Err()
	case valueOnly:
		r.Value = r.Low
		return r, nil
	}
	r.Value, r.Depth, r.Settled = r.Low, s.depth(sp.lo, moves), true
	return r, nil
}

// marks gives the marks of x and o, cells as Solve takes them, in the
// layout's bits; an error for marks that overlap or lie off the board.
func (s *Solver) marks(x, o uint64) (bx, bo uint64, err error) {
	bx, bo = s.g.fromCells(x), s.g.fromCells(o)
	if bx&bo != 0 || (bx|bo)&^s.g.full != 0 {
		return 0, 0, errors.New("search: overlapping or off-board marks")
	}
	return bx, bo, nil
}

// mover gives the marks of the side to move.
func (s *Solver) mover(bx, bo uint64, xToMove bool) uint64 {
	if xToMove {
		return bx
	}
	return bo
}

// atOnce gives the score of a position its mover wins at once, a line
// in one move (negamax takes that none is there), and false for any
// other.
func (s *Solver) atOnce(bx, bo uint64, moves int, xToMove bool) (span, bool) {
	won := s.cells - moves
	if !s.misere && s.g.winning(s.mover(bx, bo, xToMove))&s.g.playable(bx|bo) != 0 {
		return span{won, won}, true
	}
	return span{}, false
}

// Beats reports whether the side to move in the position x, o (cells as
// Solve takes them, a position in progress) does better than the outcome
// than (value for X, and depth) would give it: a faster win, a slower
// loss, a draw for a loss. It asks one null-window question, the score
// against than's, where Solve asks several to settle the score: a move is
// a best one exactly when its child does not beat the outcome the
// position has after it, so that the best moves of a settled position take
// one question a child. When ctx is done first it gives false and ctx's
// error.
func (s *Solver) Beats(ctx context.Context, x, o uint64, than perfect.Outcome) (bool, error) {
	bx, bo, err := s.marks(x, o)
	if err != nil {
		return false, err
	}
	moves := marks(bx | bo)
	xToMove := marks(bx) == marks(bo)
	if _, over := s.over(bx, bo, moves); over {
		return false, errors.New("search: Beats asks of a position in progress")
	}
	t, most := s.score(than, moves, xToMove), s.cells-moves
	if sp, ok := s.atOnce(bx, bo, moves, xToMove); ok {
		return sp.lo > t, nil
	}
	switch {
	case t >= most:
		return false, nil
	case t < -most:
		return true, nil
	}
	s.fit(most, bx|bo)
	sp := s.search(ctx, s.mover(bx, bo, xToMove), bx|bo, moves, xToMove, false, span{t, t + 1})
	if sp.open(false) {
		return false, ctx.Err()
	}
	return sp.lo > t, nil
}

// score gives the score, for the side to move in a position of moves
// marks, of the outcome o (value for X, and depth): depth's inverse.
func (s *Solver) score(o perfect.Outcome, moves int, xToMove bool) int {
	v := o.Value
	if !xToMove {
		v = -v
	}
	switch {
	case v > 0:
		return s.cells + 1 - moves - int(o.Depth)
	case v < 0:
		return -(s.cells + 1 - moves - int(o.Depth))
	}
	return 0
}

// over gives the value of a position that is over, if it is: the last
// mover made a line (and won, or lost under misère), or the board is full.
func (s *Solver) over(bx, bo uint64, moves int) (perfect.Value, bool) {
	v := perfect.Draw
	switch {
	case s.g.lined(bx):
		v = perfect.XWins
	case s.g.lined(bo):
		v = perfect.OWins
	default:
		return 0, moves == s.cells
	}
	if s.misere {
		v = -v
	}
	return v, true
}

// value gives a score of the side to move as a value for X.
func (s *Solver) value(score int, xToMove bool) perfect.Value {
	v := perfect.Draw
	switch {
	case score > 0:
		v = perfect.XWins
	case score < 0:
		v = perfect.OWins
	}
	if !xToMove {
		v = -v
	}
	return v
}

// bounds gives what a span of scores of the side to move proves of the
// value for X.
func (s *Solver) bounds(sp span, xToMove bool) perfect.Bounds {
	b := perfect.Bounds{Low: s.value(sp.lo, xToMove), High: s.value(sp.hi, xToMove)}
	if !xToMove {
		b.Low, b.High = b.High, b.Low
	}
	return b
}

// depth gives the plies from a position of moves marks to the end, from its
// score: a win or loss ends at ply cells+1-|score|, a draw on a full board.
func (s *Solver) depth(score, moves int) perfect.Depth {
	if score == 0 {
		return perfect.Depth(s.cells - moves)
	}
	return perfect.Depth(s.cells + 1 - max(score, -score) - moves)
}

// A span is the range a score is proved to lie in, lo to hi.
type span struct{ lo, hi int }

// open says whether the span leaves something to search: any width when
// the score is wanted, and when only the value is, a span that does not
// yet say whether the side to move wins (lo > 0), loses (hi < 0) or
// draws (lo = hi = 0).
func (sp span) open(valueOnly bool) bool {
	return sp.lo < sp.hi && !(valueOnly && (sp.lo > 0 || sp.hi < 0))
}

// A job is the search of one position: what the helpers and the progress
// line need, given to them when the main worker wakes them.
type job struct {
	ctx       context.Context
	pos, mask uint64
	moves     int
	xToMove   bool
	valueOnly bool          // the search ends once the value is known (Value)
	nodes0    uint64        // the solver's nodes when the search began
	done      chan struct{} // made when the helpers are woken, closed when the main worker is through
	helpers   errgroup.Group
	// shared says a helper was started: from then on the workers mark the
	// positions they search for each other (sharing). Set by the main
	// worker before it starts one, so every helper reads it set.
	shared bool
}

// search runs the workers on one position, its score known to lie in
// within, until its score is exact or ctx is done, and gives the span
// proved. The main worker searches on the
// calling goroutine, and wakes the helpers and the progress line after its
// first checkEvery nodes (under a millisecond): most positions are settled
// sooner (Pons' easy bands in microseconds), and goroutines would cost
// more than they save. Every worker drops a search whose guess the shared
// span no longer holds, so all stop once the span says what is wanted.
func (s *Solver) search(ctx context.Context, pos, mask uint64, moves int, xToMove, valueOnly bool, within span) span {
	s.mu.Lock()
	s.now = within
	s.mu.Unlock()
	s.job = job{ctx: ctx, pos: pos, mask: mask, moves: moves, xToMove: xToMove, valueOnly: valueOnly, nodes0: s.Nodes()}
	j := &s.job
	s.cores.take()
	s.run(j, 0)
	s.cores.give()
	if j.done != nil { // woken
		close(j.done)
		_ = j.helpers.Wait() // they return no error; no progress after the answer
	}
	return s.known()
}

// wake starts the helpers of j, those the shared cores leave room for,
// and its progress line if anyone listens.
func (s *Solver) wake(j *job) {
	j.done = make(chan struct{})
	j.helpers.SetLimit(s.workers) // the helpers and the progress line
	for id := 1; id < s.workers && s.cores.tryTake(); id++ {
		if id == 1 { // written before any helper starts, and only then
			j.shared = true
		}
		j.helpers.Go(func() error {
			defer s.cores.give()
			s.run(j, id)
			return nil
		})
	}
	if progress.Wanted(j.ctx) {
		j.helpers.Go(func() error { s.tell(j); return nil })
	}
}

// run runs worker id on j's position.
func (s *Solver) run(j *job, id int) {
	w := s.pool[id]
	w.job, w.root, w.nodes, w.stopped = j, j.moves, 0, false
	w.converge(j.pos, j.mask, j.moves)
	s.nodes.Add(w.nodes % checkEvery)
}

// narrow keeps what a worker proved, r <= med or r > med as it is above
// med or not, and gives the span known to all.
func (s *Solver) narrow(r, med int) span {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r <= med {
		s.now.hi = min(s.now.hi, r)
	} else {
		s.now.lo = max(s.now.lo, r)
	}
	return s.now
}

// holds reports whether a search about guess med can still narrow the
// span known to all, and j still wants it narrowed.
func (s *Solver) holds(j *job, med int) bool {
	sp := s.known()
	return sp.open(j.valueOnly) && sp.lo <= med && med < sp.hi
}

// known gives the span known to all.
func (s *Solver) known() span {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.now
}

// tell reports the search's progress to j's reporter until the search is
// over: nodes, nodes a second, and what is proved so far.
func (s *Solver) tell(j *job) {
	ctx, moves, xToMove := j.ctx, j.moves, j.xToMove
	start, nodes0 := time.Now(), s.Nodes()
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-j.done:
			return
		case <-ctx.Done():
			return
		case now := <-tick.C:
			n := s.Nodes() - nodes0
			sp := s.known()
			text := fmt.Sprintf("%.1fM nodes, %.1fM a second; proved: %s", float64(n)/1e6, float64(n)/1e6/now.Sub(start).Seconds(), s.bounds(sp, xToMove))
			if sp.lo > 0 || sp.hi < 0 { // a side wins: when at the latest
				text += fmt.Sprintf(", within %d plies", s.cells+1-max(sp.lo, -sp.hi)-moves)
			}
			progress.Tell(ctx, "search", text)
		}
	}
}

// fromCells gives the marks, in Pons' layout, of the game's cells c.
func (g *geometry) fromCells(c uint64) uint64 {
	var b uint64
	for ; c != 0; c &= c - 1 {
		b |= 1 << g.bitOf(bits.TrailingZeros64(c))
	}
	return b
}

// Close gives back the memory of the Solver's tables now, rather than
// when the Solver is collected (the collector does not count it): for a
// Solver made for a task and dropped after. A search after Close makes
// its tables again. It must not be called while a search runs.
func (s *Solver) Close() {
	s.tt.release()
	s.tt = nil
	for _, w := range s.pool {
		w.near.release()
		w.near = nil
	}
}

// Reset empties the transposition table, so that the next search starts
// from nothing, as a benchmark of one position at a time wants.
func (s *Solver) Reset() {
	if s.tt != nil {
		s.tt.clear()
	}
	for _, w := range s.pool {
		if w.near != nil {
			w.near.clear()
		}
	}
}
