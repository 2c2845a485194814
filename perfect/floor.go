package perfect

import (
	"math/bits"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
)

// A Prober gives the value (for X) and depth of a position it holds, and
// false for one play cannot reach: a database (db.DB), most often an
// opening book.
type Prober interface {
	Probe(b game.Board) (Outcome, bool, error)
}

// Floor gives the outcome (for X) that b's parents, as p holds them, bound
// b by from below for its side to move, and false when p holds none of
// them. No child does better for its parent's mover than the parent's
// outcome one ply nearer the end, the outcome after a best move; so b's
// mover, each parent's opponent, does at least as well as the best for it
// of those outcomes. A b that does no better than the floor has it
// exactly (it is a best move's child of that parent), and a b whose floor
// is better than one parent's outcome after a best move is not among that
// parent's best moves.
func Floor(rl rules.Rules, b game.Board, p Prober) (floor Outcome, ok bool, err error) {
	mover := b.ToMove()
	for m := uint64(rl.ParentCells(b)); m != 0; m &= m - 1 {
		o, held, err := p.Probe(b.Without(bits.TrailingZeros64(m)))
		if err != nil {
			return floor, false, err
		}
		if after := (Outcome{Value: o.Value, Depth: o.Depth - 1}); held && (!ok || after.Better(floor, mover)) {
			floor, ok = after, true
		}
	}
	return floor, ok, nil
}
