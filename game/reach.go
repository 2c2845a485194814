package game

import (
	"fmt"
	"math/bits"
)

// Reason says why a board cannot arise in play, or that it can.
type Reason uint8

// The reasons a board cannot arise, in the order they are checked.
const (
	Reachable        Reason = iota
	CountsOff               // X must have as many marks as O, or one more
	BothWon                 // play stops at the first line, so only one side can have one
	MovedAfterXWon          // X has a line but O has as many marks: O moved after the game ended
	MovedAfterOWon          // O has a line but X has one more mark: X moved after the game ended
	NoSingleLastMove        // the winner's lines share no cell, so no last move made them all
)

// Reasons lists every reason in order, Reachable first.
var Reasons = []Reason{Reachable, CountsOff, BothWon, MovedAfterXWon, MovedAfterOWon, NoSingleLastMove}

// String gives the reason as its snake_case key.
func (r Reason) String() string {
	return [...]string{"reachable", "counts_off", "both_won", "moved_after_x_won", "moved_after_o_won", "no_single_last_move"}[r]
}

// Explain gives the reason as a sentence.
func (r Reason) Explain() string {
	return [...]string{
		"it can arise in play",
		"X moves first, so X has as many marks as O or one more",
		"both X and O have a line, but play stops at the first line",
		"X has a line, but O has as many marks, so O moved after the game was over",
		"O has a line, but X has one more mark, so X moved after the game was over",
		"the winner's lines share no cell, so no single last move could have made them all",
	}[r]
}

// Reachability tells whether a board can arise in a game played by the rules:
// X starts, turns alternate, play stops at the first line or a full board. When
// it cannot, the Reason says why.
func (g *Game) Reachability(b Board) Reason {
	nx, no := bits.OnesCount32(uint32(b.X)), bits.OnesCount32(uint32(b.O))
	xw, ow := g.Won(b.X), g.Won(b.O)
	switch {
	case nx != no && nx != no+1:
		return CountsOff
	case xw && ow:
		return BothWon
	case xw && nx == no:
		return MovedAfterXWon
	case ow && nx == no+1:
		return MovedAfterOWon
	case xw && !g.oneLastMove(b.X):
		return NoSingleLastMove
	case ow && !g.oneLastMove(b.O):
		return NoSingleLastMove
	}
	return Reachable
}

// oneLastMove reports whether some mark of m, taken away, leaves no line: the
// last move that made every line of m at once. The board before that move has
// no line for either side and fair counts, so it can arise.
func (g *Game) oneLastMove(m Mask) bool {
	for x := uint32(m); x != 0; x &= x - 1 {
		if !g.Won(m &^ (1 << bits.TrailingZeros32(x))) {
			return true
		}
	}
	return false
}

// UnreachableError is the error for a board that cannot arise in play.
type UnreachableError struct {
	Board  string
	Reason Reason
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("board %q cannot arise in play: %s", e.Board, e.Reason.Explain())
}

// CheckReachable returns an *UnreachableError when b cannot arise in play.
func (g *Game) CheckReachable(b Board) error {
	if r := g.Reachability(b); r != Reachable {
		return &UnreachableError{Board: Format(g.Spec, b), Reason: r}
	}
	return nil
}
