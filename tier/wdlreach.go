package tier

import (
	"context"
	"math/bits"
	"sync/atomic"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/index"
	"github.com/tateti-lab/tateti-lab/internal/par"
	"github.com/tateti-lab/tateti-lab/internal/progress"
)

// Reach counts the positions play reaches at each ply of the job's game,
// finished boards among them, as enumerate counts them: a forward pass
// over the diagram's boards, a bit each, two plies in memory. A board is
// reached when a reached board in progress has a move to it. A finished
// board with a line is not among the diagram's, so it is counted where it
// is made, once: from the parent by the leftmost column whose top mark is
// the winner's and that leaves a reached board in progress when taken
// away, play's last move there being one such.
func (j *WDLJob) Reach(ctx context.Context, workers int) ([]int64, error) {
	counts := make([]int64, j.cells+1)
	cur := []uint64{1} // ply 0: the empty board
	var total, done int64
	for p := range j.cells + 1 {
		total += j.Size(p)
	}
	for p := range j.cells + 1 {
		counts[p] += marked(cur)
		if p == j.cells {
			break
		}
		next := make([]uint64, words(j.Size(p+1)))
		lined, err := j.reachPly(ctx, p, cur, next, workers)
		if err != nil {
			return nil, err
		}
		counts[p+1] += lined
		cur = next
		done += j.Size(p)
		progress.Report(ctx, "reachable positions", p+1, done, total)
	}
	return counts, nil
}

// reachPly marks in next the children in progress of the reached boards
// of ply p (the bits of cur) and gives the finished boards with a line
// made from them, each counted once.
func (j *WDLJob) reachPly(ctx context.Context, p int, cur, next []uint64, workers int) (int64, error) {
	var lined atomic.Int64
	tasks := (j.Size(p) + j.taskLen - 1) / j.taskLen
	err := par.Tasks(ctx, int(tasks), workers, func(_ context.Context, k int) error {
		lo, hi := j.Range(p, k)
		w, kids := j.d.Walk(p, lo), make([]int64, 0, 64)
		var n int64
		for r := lo; r < hi; r++ {
			if cur[r>>6]>>(r&63)&1 != 0 {
				n += j.reachFrom(w, cur, next, kids[:0])
			}
			w.Next()
		}
		lined.Add(n)
		return nil
	})
	return lined.Load(), err
}

// reachFrom marks in next the children in progress of the board w is at,
// reached, and gives the finished boards with a line it makes that are
// counted from it (madeHere). kids is room for the children's ranks.
func (j *WDLJob) reachFrom(w *index.Walker, cur, next []uint64, kids []int64) int64 {
	var n int64
	for i, c := range w.Children(kids) {
		if c >= 0 {
			mark(next, c)
		} else if j.madeHere(w.Board(), i, cur) {
			n++
		}
	}
	return n
}

// madeHere says whether the finished board that b's i-th legal move (in
// cell order) makes is counted from b: no mark of the mover's on a cell
// before the move's, at the top of its column under gravity, leaves a
// reached board of b's ply (bits cur) in progress when taken away.
func (j *WDLJob) madeHere(b game.Board, i int, cur []uint64) bool {
	mover, spec := b.ToMove(), j.rl.Spec()
	moves := uint64(j.rl.Playable(b))
	for range i {
		moves &= moves - 1
	}
	cell := bits.TrailingZeros64(moves)
	t := b.Play(cell, mover)
	mine := uint64(t.X)
	if mover == game.O {
		mine = uint64(t.O)
	}
	for m := mine & (1<<cell - 1); m != 0; m &= m - 1 {
		c := bits.TrailingZeros64(m)
		if spec.Gravity && c >= spec.Cols && t.At(c-spec.Cols) != game.Empty {
			continue // not its column's top
		}
		if r := j.d.Rank(t.Without(c)); r >= 0 && cur[r>>6]>>(r&63)&1 != 0 {
			return false
		}
	}
	return true
}
