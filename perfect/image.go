package perfect

import (
	"errors"
	"math/bits"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Image gives the analysis of b, an image of a's board under one of rl's
// symmetries, from a: perfect play is the same up to symmetry, so b has
// a's value and depth, and the move to cell c of b is worth what the move
// to the cell c maps to is worth in a (the moves again in b's cell order,
// their best ones weighed as Weigh weighs them). It gives false, and no
// analysis, where a cannot say all of b's: a holds a best line (an image
// chooses its own), a is not settled, or b is no image of a's board.
func (a Analysis) Image(rl rules.Rules, b game.Board) (Analysis, bool) {
	if a.BestLine != nil || a.Proved != nil {
		return Analysis{}, false
	}
	var perm []int // b's cell c is cell perm[c] of a's board
	for _, p := range rl.Symmetries() {
		if game.Transform(b, p) == a.Board {
			perm = p
			break
		}
	}
	if perm == nil {
		return Analysis{}, false
	}
	img := a
	img.Board = b
	if a.Spec.HasIDs() {
		img.StateID = game.ID(b)
	}
	if a.Moves == nil {
		return img, true
	}
	worth := make(map[int]Outcome, len(a.Moves))
	for _, m := range a.Moves {
		worth[m.Cell] = Outcome{m.Value, m.Depth}
	}
	moves, _, err := MovesBy(rl, b, func(c game.Board) (Outcome, error) {
		o, ok := worth[perm[bits.TrailingZeros64(uint64(c.X|c.O)&^uint64(b.X|b.O))]]
		if !ok {
			return Outcome{}, errNoImage
		}
		return o, nil
	})
	if err != nil {
		return Analysis{}, false
	}
	img.Moves = moves
	return img, true
}

// errNoImage stops MovesBy at a move of b that has no counterpart in a.
var errNoImage = errors.New("no such move in the analysis imaged")
