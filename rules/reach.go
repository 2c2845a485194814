package rules

import (
	"fmt"
	"math/bits"

	"github.com/tateti-lab/tateti-lab/game"
)

// Reason says why a board cannot arise in play, or that it can.
type Reason uint8

// The reasons a board cannot arise, in the order they are checked.
const (
	Reachable        Reason = iota
	CountsOff               // X must have as many marks as O, or one more
	Floating                // gravity: a mark stands above an empty cell
	BothWon                 // play stops at the first line, so only one side can have one
	MovedAfterXWon          // X has a line but O has as many marks: O moved after the game ended
	MovedAfterOWon          // O has a line but X has one more mark: X moved after the game ended
	NoSingleLastMove        // no one legal last move of the winner made all its lines
	NoMoveOrder             // no order of legal moves in turn, X first, builds the board
)

// Reasons lists every reason in order, Reachable first.
var Reasons = []Reason{Reachable, CountsOff, Floating, BothWon, MovedAfterXWon, MovedAfterOWon, NoSingleLastMove, NoMoveOrder}

// String gives the reason as its snake_case key.
func (r Reason) String() string {
	return [...]string{"reachable", "counts_off", "floating", "both_won", "moved_after_x_won", "moved_after_o_won",
		"no_single_last_move", "no_move_order"}[r]
}

// Explain gives the reason as a sentence.
func (r Reason) Explain() string {
	return [...]string{
		"it can arise in play",
		"X moves first, so X has as many marks as O or one more",
		"a mark stands above an empty cell, but under gravity a mark drops to the lowest empty cell of its column",
		"both X and O have a line, but play stops at the first line",
		"X has a line, but O has as many marks, so O moved after the game was over",
		"O has a line, but X has one more mark, so X moved after the game was over",
		"no single legal last move could have made all of the winner's lines, and play stops at the first line",
		"no order of legal moves in turn, X first, builds it (under gravity each column fills from the bottom up)",
	}[r]
}

// Reachability tells whether b can arise in a game played by the rules: X
// starts, turns alternate, every move is legal under the placement, and play
// stops at the first line or a full board. Cheap counting checks come first;
// the rest is a search backwards for a legal last move, then for a legal order
// of the others.
func (v *variant) Reachability(b game.Board) Reason {
	nx, no := bits.OnesCount64(uint64(b.X)), bits.OnesCount64(uint64(b.O))
	xw, ow := v.game.Won(b.X), v.game.Won(b.O)
	switch {
	case nx != no && nx != no+1:
		return CountsOff
	case v.place.Floating(b) != 0:
		return Floating
	case xw && ow:
		return BothWon
	case xw && nx == no:
		return MovedAfterXWon
	case ow && nx == no+1:
		return MovedAfterOWon
	case !xw && !ow:
		if v.ordered(b) {
			return Reachable
		}
		return NoMoveOrder
	}
	// The winner made every line with its last move, which was legal on the
	// board before it; that board has no line, no floating mark, and must
	// itself arise.
	winner := b.X
	if ow {
		winner = b.O
	}
	lastMoves := false
	for m := uint64(winner); m != 0; m &= m - 1 {
		bit := game.Mask(1) << bits.TrailingZeros64(m)
		before := game.Board{X: b.X &^ bit, O: b.O &^ bit}
		if v.game.Won(winner&^bit) || v.place.Playable(before)&bit == 0 || v.place.Floating(before) != 0 {
			continue
		}
		lastMoves = true
		if v.ordered(before) {
			return Reachable
		}
	}
	if !lastMoves {
		return NoSingleLastMove
	}
	return NoMoveOrder
}

// ordered reports whether legal moves in turn, X first, can build b, which has
// no line (so no board on the way has one either). It takes the last mover's
// marks back one at a time, depth first, remembering dead ends. Under free
// placement the first mark taken back always works.
func (v *variant) ordered(b game.Board) bool {
	var dead map[game.Board]bool
	var back func(b game.Board) bool
	back = func(b game.Board) bool {
		if b.X|b.O == 0 {
			return true
		}
		if dead[b] {
			return false
		}
		xLast := bits.OnesCount64(uint64(b.X)) > bits.OnesCount64(uint64(b.O))
		last := b.O
		if xLast {
			last = b.X
		}
		for m := uint64(last); m != 0; m &= m - 1 {
			bit := game.Mask(1) << bits.TrailingZeros64(m)
			before := game.Board{X: b.X &^ bit, O: b.O}
			if !xLast {
				before = game.Board{X: b.X, O: b.O &^ bit}
			}
			if v.place.Playable(before)&bit != 0 && v.place.Floating(before) == 0 && back(before) {
				return true
			}
		}
		if dead == nil {
			dead = map[game.Board]bool{}
		}
		dead[b] = true
		return false
	}
	return back(b)
}

// UnreachableError is the error for a board that cannot arise in play.
type UnreachableError struct {
	Board  string
	Rules  Spec
	Reason Reason
	Detail string // which mark, where the reason names one
}

func (e *UnreachableError) Error() string {
	msg := fmt.Sprintf("board %q cannot arise in play", e.Board)
	if sw := e.Rules.Switches(); sw != "" {
		msg += " under " + sw
	}
	msg += ": " + e.Reason.Explain()
	if e.Detail != "" {
		msg += " (" + e.Detail + ")"
	}
	return msg
}

// CheckReachable returns an *UnreachableError when b cannot arise in play
// under r.
func CheckReachable(r Rules, b game.Board) error {
	reason := r.Reachability(b)
	if reason == Reachable {
		return nil
	}
	s := r.Spec()
	e := &UnreachableError{Board: s.Spec.Format(b), Rules: s, Reason: reason}
	if reason == Floating {
		// The lowest floating mark names the cell to fix.
		occ := b.X | b.O
		for i := s.Cells() - 1; i >= 0; i-- {
			if below := i + s.Cols; occ>>i&1 == 1 && below < s.Cells() && occ>>below&1 == 0 {
				e.Detail = fmt.Sprintf("%v on row %d, col %d has an empty cell below it", b.At(i), i/s.Cols, i%s.Cols)
				break
			}
		}
	}
	return e
}
