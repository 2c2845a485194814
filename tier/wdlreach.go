package tier

import (
	"context"
	"fmt"
	"math/bits"
	"sync"

	"github.com/tateti-lab/tateti-lab/db"
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
	plies, err := j.reach(ctx, workers, nil, "")
	counts := make([]int64, len(plies))
	for p, c := range plies {
		counts[p] = c.Positions
	}
	return counts, err
}

// ReachValues is Reach over the finished tiers of the job's database in
// dir: each ply's positions play reaches by value for the side to move,
// and its finished boards by status, as a database of values and depths
// counts them (its manifest's plies, but their files). It keeps where it
// stands in dir after each ply, so that a run stopped resumes from the
// last whole ply (keepCount); the caller removes what it kept (Tidy).
func (j *WDLJob) ReachValues(ctx context.Context, dir string, workers int) ([]db.Ply, error) {
	_, most := sizes(j.d, j.cells)
	buf := make([]byte, db.CodeBytes(wdlLayout, most))
	return j.reach(ctx, workers, func(p int) ([]byte, error) {
		codes := buf[:j.CodeBytes(p)]
		return codes, db.ReadTier(ctx, dir, j.rl.Spec(), p, codes, workers)
	}, dir)
}

// reach is the forward pass of Reach; where codesOf gives each ply's
// codes, it counts the reached boards by them too. Where dir is not "", it
// keeps where it stands in dir after each ply and resumes from what a run
// stopped kept there (keepCount), and removes what it kept once done.
func (j *WDLJob) reach(ctx context.Context, workers int, codesOf func(p int) ([]byte, error), dir string) ([]db.Ply, error) {
	from, cur, plies := j.freshCount()
	if dir != "" {
		var err error
		if from, cur, plies, err = j.resumeCount(dir); err != nil {
			return nil, err
		}
	}
	var total, done int64
	for p := range j.cells + 1 {
		if total += j.Size(p); p < from {
			done += j.Size(p)
		}
	}
	for p := from; p <= j.cells; p++ {
		var codes []byte
		if codesOf != nil {
			var err error
			if codes, err = codesOf(p); err != nil {
				return nil, err
			}
		}
		var next []uint64
		if p < j.cells {
			next = make([]uint64, words(j.Size(p+1)))
		}
		if err := j.reachPly(ctx, p, cur, next, codes, plies, workers); err != nil {
			return nil, err
		}
		if cur = next; dir != "" && p < j.cells {
			if err := j.keepCount(dir, p+1, cur, plies); err != nil {
				return nil, err
			}
		}
		done += j.Size(p)
		progress.Report(ctx, "reachable positions", p+1, done, total)
	}
	return plies, nil
}

// reachPly counts the reached boards of ply p (the bits of cur) in
// plies[p], by their codes where codes is not nil, marks in next their
// children in progress (none at the last ply, whose boards are full and
// drawn) and counts in plies[p+1] the finished boards with a line made
// from them, each once.
func (j *WDLJob) reachPly(ctx context.Context, p int, cur, next []uint64, codes []byte, plies []db.Ply, workers int) error {
	var mu sync.Mutex
	tasks := (j.Size(p) + j.taskLen - 1) / j.taskLen
	return par.Tasks(ctx, int(tasks), workers, func(_ context.Context, k int) error {
		lo, hi := j.Range(p, k)
		w, kids := j.d.Walk(p, lo), make([]int64, 0, 64)
		var by [4]int64
		var n, lined int64
		for r := lo; r < hi; r++ {
			if cur[r>>6]>>(r&63)&1 != 0 {
				n++
				if codes != nil {
					by[db.PackedAt(codes, r)]++
				}
				if next != nil {
					lined += j.reachFrom(w, cur, next, kids[:0])
				}
			}
			w.Next()
		}
		if by[0] != 0 {
			return fmt.Errorf("ply %d holds no value for %d positions play reaches: a bug, or a damaged tier (db check says which)", p, by[0])
		}
		mu.Lock()
		defer mu.Unlock()
		j.addReached(plies, p, n, by, lined)
		return nil
	})
}

// addReached counts in plies n reached boards of ply p in progress, by
// their codes by (all 0 when the codes are not read), and lined boards with
// a line made from them at ply p+1.
func (j *WDLJob) addReached(plies []db.Ply, p int, n int64, by [4]int64, lined int64) {
	c := &plies[p]
	c.Positions += n
	c.Lost, c.Drawn, c.Won = c.Lost+by[db.PackedLost], c.Drawn+by[db.PackedDrawn], c.Won+by[db.PackedWon]
	if p == j.cells { // full boards with no line
		c.Terminal.Draw += n
		return
	}
	l := &plies[p+1]
	l.Positions += lined
	if j.misere { // the side to move is the line's maker's opponent
		l.Won += lined
	} else {
		l.Lost += lined
	}
	if p%2 == 0 { // X made the line: its status, whoever wins by it
		l.Terminal.XWon += lined
	} else {
		l.Terminal.OWon += lined
	}
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
		u := t.Without(c)
		if over, _ := j.rl.Outcome(u); over {
			continue // a line left: no board in progress, and Rank's time spared
		}
		if r := j.d.Rank(u); r >= 0 && cur[r>>6]>>(r&63)&1 != 0 {
			return false
		}
	}
	return true
}
