package perfect

import (
	"math/bits"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Forced finds where a line of play from b makes its outcome plain to see:
// the first position along it, the game not over, where the side to move
// completes no line of its own and every move it has leaves the other side
// a line to complete at once (two threats, or under gravity one right
// above the cell that stops another). It gives how many moves of line lead
// there, and the threats: the cells on which the other side completes a
// line after some move of the side to move. With no such position, or
// under misère (where a completed line loses), at is len(line) and
// threats none.
func Forced(r rules.Rules, b game.Board, line []int) (at int, threats game.Mask) {
	if r.Spec().Misere {
		return len(line), 0
	}
	p := b
	for i := 0; i <= len(line); i++ {
		if over, _ := r.Outcome(p); over {
			break
		}
		if t := unstoppable(r, p); t != 0 {
			return i, t
		}
		if i < len(line) {
			p = p.Play(line[i], p.ToMove())
		}
	}
	return len(line), 0
}

// unstoppable gives the threats of the side not to move on p when the side
// to move can neither complete a line nor stop every one of them; none
// otherwise.
func unstoppable(r rules.Rules, p game.Board) game.Mask {
	side := p.ToMove()
	if rules.Completes(r, p, side) != 0 {
		return 0
	}
	var threats game.Mask
	for m := r.Moves(p); m != 0; m &= m - 1 {
		after := p.Play(bits.TrailingZeros64(uint64(m)), side)
		w := rules.Completes(r, after, side.Other())
		if w == 0 {
			return 0
		}
		threats |= w
	}
	return threats
}
