package search

import (
	"math/bits"
	"sync/atomic"
)

// A worker runs one search on one goroutine, over its solver's shared
// table.
type worker struct {
	s       *Solver
	near    *table // the worker's own table of positions near the end (tableOf); nil in a small search
	job     *job
	id      int // 0 the main worker; helpers take other orders near the root
	root    int // the marks of the position searched
	nodes   uint64
	stopped bool           // the context was found done, or the guess left the span: every score since is void
	med     int            // the guess being searched
	buf     [65][64]uint64 // the moves in order, a ply each
	later   [65][64]uint64 // the moves sharing leaves for last, a ply each
	hashes  [64]uint64     // childCut's children, a move each, not zeroed a node as a local array would be (childHashes)
	entries [64]uint64     // and their entries
	checks  [65]uint64     // on a packed layout, the second word of the key probed at each ply (wideKey)
	theirs  [65]uint64     // the opponent's empty winning cells at each ply, as anticipate found them (normal play)
	// A move's winning cells, found by ordered, are handed to its child,
	// whose anticipate needs them as its opponent's: winsAfter[p][b] is
	// winning(pos|st), or unknown, for the move st of bit b that ordered
	// gave at ply p; handed[p] is what the node at ply p was handed.
	winsAfter [65][64]uint64
	handed    [66]uint64
	hashed    hashed // whose children's hashes are in hashes
}

// hashed names the position whose children's hashes a worker's hashes
// holds: its side to move's marks pos, all marks mask, and the moves cand
// whose children they are, the first popcount(cand) of hashes.
type hashed struct{ pos, mask, cand uint64 }

// unknown marks a handed set of cells not known: no board has all 64.
const unknown = ^uint64(0)

// spread is how many plies from the root a helper takes the moves in
// another order.
const spread = 1

// converge narrows the score of a position by null-window searches, each
// asking whether it is above a guess, as Pons' solver does: a null window
// prunes the most, and the table carries what one search learns to the
// next (guess says in what order).
// All workers ask about the same guess, and split its tree between them
// (sharing says how); each search's answer narrows the span all workers
// share, and a worker drops its search when the span no longer holds its
// guess, to take up the next. For Value the searches end once the span
// says who wins, and ask about the value first however wide the span.
func (w *worker) converge(pos, mask uint64, moves int) {
	for sp := w.s.known(); sp.open(w.job.valueOnly); {
		w.med = guess(sp, w.job.valueOnly || w.s.Nodes()-w.job.nodes0 >= hardNodes)
		w.handed[moves] = unknown
		r := w.negamax(pos, mask, moves, w.med, w.med+1)
		switch {
		case w.stopped && w.job.ctx.Err() != nil:
			return
		case w.stopped: // the guess fell outside the span: guess again
			w.stopped = false
			sp = w.s.known()
		default:
			sp = w.s.narrow(r, w.med)
		}
	}
}

// guess gives the next guess within a span lo < hi. A wide span is halved,
// toward 0 where scores are many, as in Pons' solver: a guess far from 0
// is cheap to answer, since the side that must win must win within few
// moves, so the first searches deepen step by step, and they settle most
// lopsided positions. The first guess of a full span, -hi to hi, asks
// about a fast win of the side to move (firstWin) before a fast loss: a
// position decided within few moves is more often won by the side to
// move, which has the tempo (Pons' Begin-Easy: 723 of 1,000; Middle-Easy:
// 548 against 440; docs/design/search-guess-order.md). Once the span is
// at most wideSpan wide, or the position is hard (its search has taken
// hardNodes), the value comes first: does the side to move win (is the
// score above 0), and if not, does it lose (is it not above -1)? A null
// window around 0 is the cheapest to prove among the close ones, and what
// it stores the later searches reuse. Then the depth: is a win faster
// than the fastest proved (above lo), or a loss slower than the slowest
// proved (above hi-1)? The bound a null-window search returns is most
// often the exact score, so one more search usually settles it.
func guess(sp span, hard bool) int {
	if sp.hi-sp.lo > wideSpan && !hard {
		med := sp.lo + (sp.hi-sp.lo)/2
		switch {
		case sp.lo == -sp.hi: // a full span: the mover's fast win first
			med = sp.hi * firstWin / 16
		case med <= 0 && sp.lo/2 < med:
			med = sp.lo / 2
		case med >= 0 && sp.hi/2 > med:
			med = sp.hi / 2
		}
		return med
	}
	switch {
	case sp.lo <= 0 && sp.hi > 0:
		return 0
	case sp.lo < 0 && sp.hi >= 0:
		return -1
	case sp.lo > 0:
		return sp.lo
	}
	return sp.hi - 1
}

// firstWin is the first guess of a full span, -hi to hi, in sixteenths of
// hi: a win a little faster than half the span asks. A guess low among
// the wins lets the search prove a slow win where a fast one is cheaper
// to find; a guess above the score makes it refute a fast win that is not
// there, which costs more. Of hi*8/16 (Pons' hi/2) to hi*12/16, 9 took
// the fewest nodes on Pons' Begin-Easy (0.70 of hi/2's) and Begin-Hard,
// and no more than 4% more elsewhere (docs/design/search-guess-order.md).
const firstWin = 9

// hardNodes is how many nodes a search takes before guess asks the value
// first whatever the span: a position that takes that many is one whose
// searches are long, where what a search at 0 stores pays the most.
const hardNodes = 1 << 20

// wideSpan is the widest span of scores guess asks about the value and
// then the depth; a wider one it halves. Wider, the long searches from an
// empty board take fewer nodes and positions a dozen plies in take longer
// (docs/design/search-guess-order.md).
const wideSpan = 8

// negamax gives the score of the side to move, whose marks are pos, among
// all marks mask (moves of them), within (alpha, beta): exact inside it, a
// bound outside.
func (w *worker) negamax(pos, mask uint64, moves, alpha, beta int) int {
	s := w.s
	if w.nodes++; w.nodes%checkEvery == 0 {
		w.check()
	}
	if w.stopped {
		return 0
	}
	cand := s.g.playable(mask)
	if !s.misere {
		var v int
		var done bool
		if cand, alpha, beta, v, done = w.ahead(pos, mask, moves, cand, alpha, beta); done {
			return v
		}
	}
	h, alpha, beta, v, settled := w.probe(pos, mask, moves, alpha, beta)
	if settled {
		return v
	}
	if s.guide != nil && moves <= s.guideLast {
		if alpha, beta, v, settled = w.guided(pos, mask, moves, alpha, beta); settled {
			return v
		}
	}
	alpha0 := alpha // the window searched: what the score found bounds
	order, best, ok := w.ordered(pos, mask, cand, moves, alpha, beta)
	if ok {
		return best
	}
	if w.job.shared && s.cells-moves >= busyEmpty {
		best = max(best, w.sharing(pos, mask, moves, order, alpha, beta))
	} else {
		for _, st := range order {
			best = max(best, w.child(pos, mask, moves, st, alpha, beta))
			if alpha = max(alpha, best); alpha >= beta {
				break
			}
		}
	}
	if s.g.packed {
		w.storeWide(h, moves, best, alpha0, beta)
	} else {
		w.store(h, moves, best, alpha0, beta)
	}
	return best
}

// ahead looks a few plies ahead under normal play, before the table: it
// keeps of the moves cand those anticipate keeps, and narrows the window
// (alpha, beta) by how soon the game can end; when that settles the score,
// v is the score or bound to return and done is true. No line comes at
// once, so the earliest loss is on the opponent's next move; a move that
// leaves the opponent no safe move (winsOf) wins on the mover's next, the
// most a move can score, and when none does the earliest win is a turn
// later, if the board has room (docs/design/search-look-ahead.md).
func (w *worker) ahead(pos, mask uint64, moves int, cand uint64, alpha, beta int) (c uint64, a, b, v int, done bool) {
	s := w.s
	if cand, v, done = w.anticipate(pos, mask, moves, cand); done {
		return 0, alpha, beta, v, true
	}
	w.fetch(pos, mask, cand, moves)
	if s.cells-moves >= 2 && w.winsOf(pos, mask, cand, moves) {
		return 0, alpha, beta, s.cells - moves - 2, true
	}
	if most := max(s.cells-moves-4, 0); beta > most {
		if beta = most; alpha >= beta {
			return 0, alpha, beta, beta, true
		}
	}
	if least := min(-(s.cells - moves - 3), 0); alpha < least {
		if alpha = least; alpha >= beta {
			return 0, alpha, beta, alpha, true
		}
	}
	if s.g.gravity {
		if alpha, beta, v, done = w.claimed(pos, mask, cand, moves, alpha, beta); done {
			return 0, alpha, beta, v, true
		}
	}
	return cand, alpha, beta, 0, false
}

// claimed narrows the window (alpha, beta) of a gravity position under
// normal play by what claimeven and the other side's odd threats say of
// it or of its children. For the position they bound the score from
// above: claimeven where it holds for it (evenTops), an odd threat at -1.
// For a child, a bound of 0 or -1 says that its move scores at least 0 or
// 1: that cuts a search whose beta is at most 1, the way Steininger's
// solver looks at each child before its table, where the search below
// would be long enough to pay for the test (threatWorth). A node's own
// odd threat and claimeven are asked only where its parent has not asked
// them of it as a child: at the root, and, for the odd threat, below a
// parent that did not ask threatens. Every window is a null window
// (converge), and a parent's test of a child cuts exactly where the
// child's own would narrow its window: claimeven's -most >= beta at the
// parent is most < 1-beta, the child's beta, at the child; and a child's
// beta of 0 or more, where it asks its odd threat, is a parent's beta of
// 1 or less. Skipping a test never changes a score, only what is pruned.
// When the window closes, v is the bound to return and done is true.
func (w *worker) claimed(pos, mask, cand uint64, moves, alpha, beta int) (a, b, v int, done bool) {
	g, root := w.s.g, moves == w.root
	odd := g.oddTops(mask)
	if beta > -1 && (root || !w.s.threatWorth(moves-1, 1-beta)) && g.oddThreat(pos, mask, w.theirs[moves], odd) {
		if beta = -1; alpha >= beta {
			return alpha, beta, beta, true
		}
	}
	if beta <= 1 && w.s.threatWorth(moves, beta) && w.threatens(pos, mask, cand, moves) {
		return alpha, beta, 1, true
	}
	if evenTops(odd) {
		if !root {
			return alpha, beta, 0, false
		}
		if most, ok := g.claimeven(pos, mask, odd); ok && beta > most {
			if beta = most; alpha >= beta {
				return alpha, beta, beta, true
			}
		}
		return alpha, beta, 0, false
	}
	if beta > 1 {
		return alpha, beta, 0, false
	}
	// The cells every child leaves its mover (moverClaims without the
	// cells the moves take or change): when they make a line, no child's
	// claimeven bounds it, and one test spares them all.
	if g.lined(g.moverClaims(mask^pos, g.full&^mask&^cand, odd&^cand)) {
		return alpha, beta, 0, false
	}
	for c := cand; c != 0; c &= c - 1 {
		st := c & -c
		if most, ok := g.claimeven(mask^pos, mask|st, g.oddTops(mask|st)); ok && -most >= beta {
			return alpha, beta, -most, true
		}
	}
	return alpha, beta, 0, false
}

// threatWorth says whether threatens is worth its cost at a node of moves
// marks searched below beta: always when beta is 0 or 1, a draw or a win
// asked for; when beta < 0, the search asks whether the side to move
// loses before the board holds cells+1+beta marks, a question settled
// within h = cells+1+beta-moves plies, and only where h is at least
// threatHorizon. A shorter search is cut soon by the depth it may reach
// (ahead), and a test of every child for an odd threat, which wins only
// as the board fills, costs more than the few subtrees it spares: on
// Pons' Begin-Easy, whose windows lie among fast wins, it spared about 4%
// of the nodes for a tenth of the time (docs/design/search-odd-threat.md).
func (s *Solver) threatWorth(moves, beta int) bool {
	return beta >= 0 || s.cells+1+beta-moves >= threatHorizon
}

// threatHorizon is the fewest plies to a window's horizon (threatWorth)
// at which threatens is asked below beta < 0.
const threatHorizon = 10

// threatens says whether a move of cand, from the position pos, mask of
// moves marks, leaves the opponent lost to the mover's odd threat
// (oddThreat), by the winning cells winsOf kept of each move: the move
// then scores at least 1.
func (w *worker) threatens(pos, mask, cand uint64, moves int) bool {
	g := w.s.g
	for c := cand; c != 0; c &= c - 1 {
		st := c & -c
		m := mask | st
		if g.oddThreat(mask^pos, m, w.winsAfter[moves][bits.TrailingZeros64(st)]&^m, g.oddTops(m)) {
			return true
		}
	}
	return false
}

// check runs every checkEvery nodes: the main worker widens the table in
// use (grow) at each and wakes the helpers at its first, and a worker stops when the context is done or the shared
// span no longer holds its guess.
func (w *worker) check() {
	s := w.s
	if w.id == 0 {
		s.grow(w.job)
		if w.nodes == checkEvery {
			s.wake(w.job)
		}
	}
	s.nodes.Add(checkEvery)
	w.stopped = w.stopped || w.job.ctx.Err() != nil || !s.holds(w.job, w.med)
}

// store keeps the score best found in the window (alpha0, beta) for the
// position of hash h, of moves marks (bound says as what). A stopped search
// keeps nothing, nor does a position the table leaves out (kept). A packed
// layout's positions go by storeWide: negamax chooses, so that store stays
// small enough to be inlined.
func (w *worker) store(h uint64, moves, best, alpha0, beta int) {
	if w.stopped || !w.kept(moves) {
		return
	}
	w.tableOf(moves).put(h, best, bound(best, alpha0, beta))
}

// storeWide is store on a packed layout, the key's second word the one
// probe found at this ply.
func (w *worker) storeWide(h uint64, moves, best, alpha0, beta int) {
	if w.stopped || !w.kept(moves) {
		return
	}
	w.s.tt.putWide(h, w.checks[moves], best, bound(best, alpha0, beta))
}

// bound says what a score best found in the window (alpha0, beta) is:
// exact inside it, an upper bound at or below alpha0, a lower bound at or
// above beta.
func bound(best, alpha0, beta int) uint64 {
	switch {
	case best <= alpha0:
		return upper
	case best >= beta:
		return lower
	}
	return exact
}

// anticipate looks one move ahead under normal play, in a position where
// the side to move has no line at once: every move that reached it left
// none (this very check, one ply up), and Solve answers a root that has
// one. When the opponent threatens two cells, or every move leaves it a
// line, the position is lost at its next move. Otherwise it keeps of the
// moves cand those that leave the opponent no line: the one that blocks its
// threat, if it has one, and under gravity none right below a cell it would
// win on. The opponent's cells are those the parent handed, when its
// ordered found them, else found here.
func (w *worker) anticipate(pos, mask uint64, moves int, cand uint64) (keep uint64, score int, done bool) {
	g, cells := w.s.g, w.s.cells
	lost := -(cells - moves - 1)
	theirs := w.handed[moves]
	if theirs == unknown {
		theirs = g.winning(mask ^ pos)
	}
	if cand = g.safe(cand, theirs&^mask); cand == 0 {
		return 0, lost, true
	}
	w.theirs[moves] = theirs &^ mask
	return cand, 0, false
}

// safe gives the moves of cand that leave the opponent, whose empty
// winning cells are theirs, no line at once: the one that blocks its
// threat, if it has one, and under gravity none right below a cell it
// would win on. None when it threatens two cells, or every move leaves it
// a line: the side to move then loses at the opponent's next move.
func (g *geometry) safe(cand, theirs uint64) uint64 {
	if forced := cand & theirs; forced != 0 {
		if forced&(forced-1) != 0 {
			return 0
		}
		cand = forced
	}
	if g.gravity { // a move right below their cell would give it to them
		cand &^= theirs >> 1
	}
	return cand
}

// ordered gives the cells of the moves cand, those that make the most cells
// the side to move would win on first (weigh, from the winning cells winsOf
// kept in winsAfter for the moves' children; under misère it marks them
// unknown), then the centre first; a helper near the root turns the order
// by its number. Under gravity a cell right above one the opponent wins on
// does not count: the side to move can only ever take the cell below to
// block, and the opponent then takes it (Steininger's "useful threats";
// docs/design/search-move-order.md). First it looks the children up in
// the table (childCut): when a move cuts the search there, ok is true and
// floor is its score; else the moves whose children's entries say they
// score at most alpha are left out, and floor is the most those entries
// allow them, a bound the node's best takes in (below every score when no
// move is left out). A lone move it gives at once: there is nothing to
// order, and its position's own probe comes next (a forced block is common
// deep in a game).
func (w *worker) ordered(pos, mask, cand uint64, moves, alpha, beta int) (dst []uint64, floor int, ok bool) {
	dst = w.buf[moves][:0]
	floor = w.s.belowAll()
	if cand&(cand-1) == 0 {
		if w.s.misere { // otherwise winsOf found them
			w.winsAfter[moves][bits.TrailingZeros64(cand)] = unknown
		}
		return append(dst, cand), floor, false
	}
	g := w.s.g
	play := g.playable(mask)
	if w.s.looksUp(moves) {
		var low uint64
		if floor, low, ok = w.childCut(pos, mask, cand, moves, alpha, beta); ok {
			return nil, floor, true
		}
		if cand &^= low; cand == 0 {
			return dst, floor, false
		}
	}
	var score [64]int16 // a board has 64 units at most: gravity's columns, or the cells of a free board
	var useless uint64  // under gravity, the cells right above the opponent's threats
	if g.carries {      // in Pons' layout, where a cell's next one up is its bit shifted by 1
		useless = w.theirs[moves] << 1
	}
	for _, u := range g.units {
		st := cand & u
		if st == 0 {
			continue
		}
		cand &^= st
		n := int16(0)
		if b := bits.TrailingZeros64(st); w.s.misere {
			w.winsAfter[moves][b] = unknown
		} else { // winsOf found the move's winning cells
			wins := w.winsAfter[moves][b]
			n = g.weigh(wins&^(mask|st)&^useless, play&^st|st<<1&g.full)
		}
		// Insertion: a later move goes after the ones that score as well.
		k := len(dst)
		dst = append(dst, st)
		for ; k > 0 && score[k-1] < n; k-- {
			dst[k], score[k] = dst[k-1], score[k-1]
		}
		dst[k], score[k] = st, n
		if cand == 0 {
			break
		}
	}
	if w.id > 0 && moves-w.root < spread && len(dst) > 1 {
		r := w.id % len(dst)
		rot := append(append(w.buf[64][:0], dst[r:]...), dst[:r]...)
		copy(dst, rot)
	}
	return dst, floor, false
}

// winsOf keeps in winsAfter the winning cells of each move of cand, under
// normal play, and says whether one of them leaves the opponent no safe
// move (safe): that move wins on the mover's next turn, as fast as any
// can once anticipate found no line at once, so it scores the most a move
// can, cells-moves-2, the beta negamax searches below, and cuts the search
// before a child's node or a table lookup.
func (w *worker) winsOf(pos, mask, cand uint64, moves int) bool {
	g := w.s.g
	for c := cand; c != 0; c &= c - 1 {
		st := c & -c
		wins := g.winning(pos | st)
		w.winsAfter[moves][bits.TrailingZeros64(st)] = wins
		if g.safe(g.playable(mask|st), wins&^(mask|st)) == 0 {
			return true
		}
	}
	return false
}

// weigh scores a move by its threats, the empty cells it wins on, and
// under gravity by where they lie against next, the cells the opponent
// may play after the move: one the mover could take at once counts more
// (the opponent must answer it), and one right above such a cell more
// (the opponent cannot play below it). The threats' number comes first;
// the rest orders moves of as many threats. The weights are those that
// searched the fewest nodes over Pons' bands
// (docs/design/search-move-order.md).
func (g *geometry) weigh(threats, next uint64) int16 {
	n := int16(bits.OnesCount64(threats)) * wThreat
	if g.carries {
		n += int16(bits.OnesCount64(threats&next))*wNow + int16(bits.OnesCount64(threats&(next<<1)))*wAbove
	}
	return n
}

// The weights of weigh.
const (
	wThreat = 12
	wNow    = 2
	wAbove  = 3
)

// childCut looks up in the table the child of each move cand, and when a
// child's score is known to be low enough that its move scores beta or
// more, gives that score to cut the search there (an enhanced
// transposition cutoff), ok true. Otherwise it gives the moves low whose
// children's scores are known to be high enough (exact or a lower bound)
// that the move scores at most alpha: searched, each would fail low at its
// child's probe, after the look-ahead's work there; floor is the most any
// of them can score. The lookups bring the entries the search will probe
// into the cache together: all loads are issued before any is read, so
// that they wait on memory together.
func (w *worker) childCut(pos, mask, cand uint64, moves, alpha, beta int) (floor int, low uint64, ok bool) {
	floor = w.s.belowAll()
	if w.s.g.packed {
		if cut, ok := w.childCutWide(pos, mask, cand, moves, beta); ok {
			return cut, 0, true
		}
		return floor, 0, false
	}
	hs, seen := &w.hashes, &w.entries
	tt := w.tableOf(moves + 1) // every child's
	n := w.childHashes(pos, mask, cand, moves)
	for i := range n {
		seen[i] = tt.load(hs[i])
	}
	for i, c := 0, cand; i < n; i, c = i+1, c&(c-1) {
		v, flag, ok := read(hs[i], seen[i])
		if cuts(v, flag, ok, beta) {
			return -v, 0, true
		}
		if failsLow(v, flag, ok, alpha) {
			low |= c & -c
			floor = max(floor, -v)
		}
	}
	return floor, low, false
}

// fetch asks the processor for the table slots of the children of cand
// that childCut will load, under normal play, on Pons' layout, where
// childCut looks the children up: the loads, each likely to miss the
// cache in a large table, then overlap the look-ahead's work instead of
// stalling after it (docs/design/search-prefetch.md).
func (w *worker) fetch(pos, mask, cand uint64, moves int) {
	if w.s.g.packed || !w.s.looksUp(moves) || cand&(cand-1) == 0 {
		return
	}
	n := w.childHashes(pos, mask, cand, moves)
	tt := w.tableOf(moves + 1)
	prefetchSlots(&tt.slots[0], tt.mask.Load(), &w.hashes[0], n)
}

// childHashes leaves in hashes the hash of the key of each child of the
// position pos, mask of moves marks, by the moves cand in cell order, and
// gives how many: those fetch made for the same position, or made now.
func (w *worker) childHashes(pos, mask, cand uint64, moves int) int {
	n := bits.OnesCount64(cand)
	if w.hashed == (hashed{pos, mask, cand}) {
		return n
	}
	for i, c := 0, cand; c != 0; i, c = i+1, c&(c-1) {
		w.hashes[i] = hash(w.key(mask^pos, mask|c&-c, moves+1))
	}
	w.hashed = hashed{pos, mask, cand}
	return n
}

// mirrorPlies is how many marks a position has at most for its key to be
// the least of its own and its mirror image's: a position and its image
// then share an entry. Deeper down, where positions are many and each is
// met less often, the mirror costs more than it saves.
const mirrorPlies = 20

// key gives the table key of a position: under gravity, as in Pons'
// solver, the marks of the side to move, pos, plus all marks, mask, which
// the heights of the columns make unique; under free placement, where a
// board takes 32 bits at most, mask with pos above it. A position of at
// most mirrorPlies marks takes the least of its key and its mirror image's.
// Most keys are of positions past mirrorPlies, which key gives inline;
// mirrored gives the others.
func (w *worker) key(pos, mask uint64, moves int) uint64 {
	if moves > mirrorPlies {
		return mask + pos<<w.s.g.keyShift
	}
	return w.mirrored(pos, mask)
}

// mirrored is key for a position of at most mirrorPlies marks.
func (w *worker) mirrored(pos, mask uint64) uint64 {
	g := w.s.g
	k := mask + pos<<g.keyShift
	if g.gravity {
		return min(k, g.mirror(k))
	}
	return min(k, g.mirror(mask)+g.mirror(pos)<<g.keyShift)
}

// wideKey gives the key of a position on a packed layout, where marks and
// the mover's do not fit one word: the hash h of mask xor a multiple of
// pos, and pos itself, v. Given v, h gives mask back (the multiplications
// are by odd constants), so h and v name the position. A position of at
// most mirrorPlies marks takes the lesser of itself and its mirror image.
func (w *worker) wideKey(pos, mask uint64, moves int) (h, v uint64) {
	if g := w.s.g; moves <= mirrorPlies {
		mp, mm := g.mirror(pos), g.mirror(mask)
		if mm < mask || mm == mask && mp < pos {
			pos, mask = mp, mm
		}
	}
	return hash(mask ^ pos*0xbf58476d1ce4e5b9), pos
}

// childCutWide is childCut on a packed layout, its children looked up
// one at a time.
func (w *worker) childCutWide(pos, mask, cand uint64, moves, beta int) (cut int, ok bool) {
	for c := cand; c != 0; c &= c - 1 {
		st := c & -c
		h, v := w.wideKey(mask^pos, mask|st, moves+1)
		if sc, flag, ok := w.s.tt.getWide(h, v); cuts(sc, flag, ok, beta) {
			return -sc, true
		}
	}
	return 0, false
}

// cuts says whether a child's entry, found (ok) with score v as flag, cuts
// a search of the parent that needs beta: the child's score is at most v
// (exact or an upper bound), so the move's is at least -v.
func cuts(v int, flag uint64, ok bool, beta int) bool {
	return ok && flag != lower && -v >= beta
}

// belowAll is a score below every score of the game, where a node's best
// starts before any move is weighed.
func (s *Solver) belowAll() int { return -s.cells - 1 }

// failsLow says whether a child's entry, found (ok) with score v as flag,
// says its move fails low in a search of the parent above alpha: the
// child's score is at least v (exact or a lower bound), so the move's is
// at most -v.
func failsLow(v int, flag uint64, ok bool, alpha int) bool {
	return ok && flag != upper && -v <= alpha
}

// etcEmpty is the fewest empty cells at which ordered looks the children
// up: nearer the end a child is searched about as fast as it is found.
const etcEmpty = 8

// looksUp says whether ordered looks up the children of a position of
// moves marks in the table (childCut), and so whether fetch asks for them.
func (s *Solver) looksUp(moves int) bool { return s.cells-moves >= etcEmpty }

// kept says whether the table keeps positions of moves marks: under normal
// play not those with fewer than tableEmpty empty cells, whose subtrees,
// pruned by anticipate, are searched faster than their entries come from
// memory; under misère, where nothing prunes them so, every position
// (docs/design/search-near-the-end.md).
func (w *worker) kept(moves int) bool { return w.s.misere || w.s.cells-moves >= tableEmpty }

// A search is bound by memory: most of its nodes are near the end, where
// its table's entries are found in memory rather than in a cache, and its
// children's lookups (childCut) wait on them. So each worker keeps the
// positions of at most nearEmpty empty cells in a table of its own, of up
// to 2^nearBits entries (2 MiB) and a quarter of the shared table
// (nearBitsFor), and the shared table only the positions nearer the root,
// which the workers share and which are worth more to keep: the empty 7x6
// board took 11 s instead of 18, and Pons' Begin-Hard band, whose searches
// get a shared table of 2^19 entries and so near tables of 2^17, a sixth
// less on one worker (docs/design/search-near-table.md). A search
// whose shared table is smaller than 2^nearLeast entries keeps every
// position in it.
const (
	nearEmpty = 16
	nearBits  = 18
	nearLeast = 18
)

// tableOf gives the table that keeps the positions of moves marks: the
// worker's near table near the end, when it has one, else the shared one.
func (w *worker) tableOf(moves int) *table {
	if w.near != nil && w.s.cells-moves <= nearEmpty {
		return w.near
	}
	return w.s.tt
}

// tableEmpty is the fewest empty cells of a position the table keeps: its
// children then have etcEmpty-1, and the table keeps those that ordered
// looks up.
const tableEmpty = etcEmpty - 1

// probe gives the hash of the key of the position pos, mask of moves
// marks, narrows the window (alpha, beta) by what the table knows of it,
// and says when that settles the score, v.
func (w *worker) probe(pos, mask uint64, moves, alpha, beta int) (h uint64, a, b, v int, settled bool) {
	if !w.kept(moves) {
		return 0, alpha, beta, 0, false
	}
	var flag uint64
	var ok bool
	if w.s.g.packed {
		h, w.checks[moves] = w.wideKey(pos, mask, moves)
		v, flag, ok = w.s.tt.getWide(h, w.checks[moves])
	} else {
		h = hash(w.key(pos, mask, moves))
		v, flag, ok = w.tableOf(moves).get(h)
	}
	switch {
	case !ok:
		return h, alpha, beta, 0, false
	case flag == exact:
		return h, alpha, beta, v, true
	case flag == lower:
		alpha = max(alpha, v)
	default:
		beta = min(beta, v)
	}
	return h, alpha, beta, v, alpha >= beta
}

// child gives the score, for the side to move, of the move to the cell st.
func (w *worker) child(pos, mask uint64, moves int, st uint64, alpha, beta int) int {
	s := w.s
	mine := pos | st
	switch {
	case s.misere && s.g.lined(mine): // normal play returned at a line already (anticipate)
		return -(s.cells - moves)
	case moves+1 == s.cells:
		return 0
	}
	after := mask | st
	w.handed[moves+1] = w.winsAfter[moves][bits.TrailingZeros64(st)]
	return -w.negamax(after^mine, after, moves+1, -beta, -alpha)
}

// busyEmpty is the fewest empty cells at which workers tell each other
// what they are searching: nearer the end a subtree is over before the
// other worker could use the news, and the marks (an atomic exchange and
// a compare-and-swap a move, on lines both cores write) cost more than
// they save (docs/design/search-second-worker.md). It is past nearEmpty,
// since a position a worker keeps in its near table is of no use to the
// other, and three cells past it (19): the empty 7x6 board took 0.87 of
// the time of marks from just past it, Begin-Medium 0.89.
const busyEmpty = nearEmpty + 3

// sharing searches the moves order of a position within (alpha, beta) as
// the loop of negamax does, but leaves for last a move, other than the
// first, whose position another worker is searching, as in ABDADA
// (Weill's parallel alpha-beta): the two then work on different subtrees,
// and what one finishes the other finds in the table. It gives the best
// score found; every move is searched unless one cuts. Negamax keeps its
// own loop for one worker, which a call more a move slows (docs/
// design/search-second-worker.md).
func (w *worker) sharing(pos, mask uint64, moves int, order []uint64, alpha, beta int) int {
	best := w.s.belowAll()
	later := w.later[moves][:0]
	for i, st := range order {
		if i > 0 && w.s.busy.taken(busyHash(pos|st, mask|st)) {
			later = append(later, st)
			continue
		}
		if best = max(best, w.marked(pos, mask, moves, st, alpha, beta)); best >= beta {
			return best
		}
		alpha = max(alpha, best)
	}
	for _, st := range later {
		if best = max(best, w.marked(pos, mask, moves, st, alpha, beta)); best >= beta {
			return best
		}
		alpha = max(alpha, best)
	}
	return best
}

// marked is child, the move's position marked busy while it is searched.
func (w *worker) marked(pos, mask uint64, moves int, st uint64, alpha, beta int) int {
	h := busyHash(pos|st, mask|st)
	w.s.busy.enter(h)
	defer w.s.busy.leave(h)
	return w.child(pos, mask, moves, st, alpha, beta)
}

// busyHash gives a hash of the position after a move: mine, the mover's
// marks with it, and all marks, after.
func busyHash(mine, after uint64) uint64 {
	return (mine*0x9e3779b97f4a7c15 ^ after) * 0xbf58476d1ce4e5b9
}

// busyTable says which positions some worker is searching: a slot holds
// the hash of the last one entered there, until it is left. Slots shared
// by two positions only make a worker leave a move for later.
type busyTable struct{ slots [1 << busyBits]atomic.Uint64 }

const busyBits = 14

func (b *busyTable) slot(h uint64) *atomic.Uint64 { return &b.slots[h>>(64-busyBits)] }
func (b *busyTable) taken(h uint64) bool          { return b.slot(h).Load() == h }
func (b *busyTable) enter(h uint64)               { b.slot(h).Store(h) }
func (b *busyTable) leave(h uint64)               { b.slot(h).CompareAndSwap(h, 0) }
