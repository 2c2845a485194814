package positions

import (
	"sync"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
)

// A bestMemo keeps what a draw's players have learnt of the moves of the
// positions they met, for all of them: which moves were asked about and
// which of those are best. Games share their openings, and under noisy
// perfect play they meet again in the middle game too, where each question
// is one of search (how often: docs/performance.md). A position is kept as
// the least board of its class under the rules' symmetries (game.Least),
// its cells in that board's frame, so that a position and its mirror image
// are asked once. It keeps at most memoMost positions: past that it lets
// go of its deepest ply's, those least often met again.
type bestMemo struct {
	mu    sync.Mutex
	perms [][]int
	plies map[int]map[game.Board]verdicts // each class's least board's, by ply
	n     int                             // positions kept
}

// verdicts are the moves of a position asked about, and those of them
// that are best, as cells.
type verdicts struct{ asked, best uint64 }

// memoMost is how many positions a bestMemo keeps, about 70 bytes each;
// a variable for the tests alone.
var memoMost = 1 << 22

// newMemo gives an empty memo of the game of rl.
func newMemo(rl rules.Rules) *bestMemo {
	return &bestMemo{perms: rl.Symmetries(), plies: map[int]map[game.Board]verdicts{}}
}

// least gives the least board of b's class and the permutation that
// takes b to it.
func (m *bestMemo) least(b game.Board) (game.Board, []int) {
	least, perm := b, m.perms[0]
	for _, p := range m.perms[1:] {
		if t := game.Transform(b, p); game.CompareBoards(t, least) < 0 {
			least, perm = t, p
		}
	}
	return least, perm
}

// get says whether the move at cell of b is best, if it was asked.
func (m *bestMemo) get(b game.Board, cell int) (best, ok bool) {
	least, perm := m.least(b)
	m.mu.Lock()
	v, ok := m.plies[b.Ply()][least]
	m.mu.Unlock()
	c := perm[cell] // cell i of b is cell perm[i] of least
	return v.best>>c&1 == 1, ok && v.asked>>c&1 == 1
}

// put keeps whether the move at cell of b is best.
func (m *bestMemo) put(b game.Board, cell int, best bool) {
	least, perm := m.least(b)
	c := uint64(1) << perm[cell]
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.plies[b.Ply()][least]
	if !ok && m.n >= memoMost {
		m.forgetDeepest()
	}
	ply := m.plies[b.Ply()]
	if ply == nil {
		ply = map[game.Board]verdicts{}
		m.plies[b.Ply()] = ply
	}
	if !ok {
		m.n++
	}
	v.asked |= c
	if best {
		v.best |= c
	}
	ply[least] = v
}

// forgetDeepest lets go of the positions of the deepest ply kept. The
// caller holds mu.
func (m *bestMemo) forgetDeepest() {
	deepest := -1
	for p := range m.plies {
		deepest = max(deepest, p)
	}
	m.n -= len(m.plies[deepest])
	delete(m.plies, deepest)
}
