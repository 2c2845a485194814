package positions

import (
	"math/bits"
	"sync"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
)

// A bestMemo keeps the best moves of the positions a draw's players have
// asked, for all of them: games share their openings, and under noisy
// perfect play they meet again in the middle game too, where each is asked
// of search (how often: docs/performance.md). A position is kept as the least
// board of its class under the rules' symmetries (game.Least), its best
// cells in that board's frame, so that a position and its mirror image
// are asked once. It keeps at most memoMost positions: past that it lets
// go of its deepest ply's, those least often met again.
type bestMemo struct {
	mu    sync.Mutex
	perms [][]int
	plies map[int]map[game.Board]uint64 // the best cells of each class's least board, by ply
	n     int                           // positions kept
}

// memoMost is how many positions a bestMemo keeps, about 60 bytes each;
// a variable for the tests alone.
var memoMost = 1 << 22

// newMemo gives an empty memo of the game of rl.
func newMemo(rl rules.Rules) *bestMemo {
	return &bestMemo{perms: rl.Symmetries(), plies: map[int]map[game.Board]uint64{}}
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

// get gives the best cells of b, if kept.
func (m *bestMemo) get(b game.Board) (uint64, bool) {
	least, perm := m.least(b)
	m.mu.Lock()
	kept, ok := m.plies[b.Ply()][least]
	m.mu.Unlock()
	if !ok {
		return 0, false
	}
	var cells uint64 // cell i of b is cell perm[i] of least
	for i := range perm {
		if kept&(1<<perm[i]) != 0 {
			cells |= 1 << i
		}
	}
	return cells, true
}

// put keeps the best cells of b.
func (m *bestMemo) put(b game.Board, cells uint64) {
	least, perm := m.least(b)
	var kept uint64
	for c := cells; c != 0; c &= c - 1 {
		kept |= 1 << perm[bits.TrailingZeros64(c)]
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.n >= memoMost {
		m.forgetDeepest()
	}
	ply := m.plies[b.Ply()]
	if ply == nil {
		ply = map[game.Board]uint64{}
		m.plies[b.Ply()] = ply
	}
	if _, ok := ply[least]; !ok {
		m.n++
	}
	ply[least] = kept
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
