package rules

import "github.com/tateti-lab/tateti-lab/game"

// Placement says where a mark may go: the one rule that differs between
// tic-tac-toe and Connect Four.
type Placement interface {
	// Playable gives the cells a mark may be put on in b, a game not yet over.
	Playable(b game.Board) game.Mask
	// Floating gives the marks of b that no order of play could have put where
	// they stand, whatever came before (none under free placement).
	Floating(b game.Board) game.Mask
	// Symmetries lists the cell permutations that map legal play onto legal
	// play, the identity first.
	Symmetries() [][]int
	// AnyOrder reports whether a mark may go on any empty cell whatever
	// stands elsewhere, so that the marks of a board may have come in any
	// order (the sides taking turns) as long as no line was made.
	AnyOrder() bool
}

// Free returns free placement: a mark may go on any empty cell, and every
// symmetry of the board holds.
func Free(g *game.Game) Placement { return free{g} }

type free struct{ g *game.Game }

func (f free) Playable(b game.Board) game.Mask { return f.g.Full() &^ (b.X | b.O) }
func (f free) Floating(game.Board) game.Mask   { return 0 }
func (f free) Symmetries() [][]int             { return game.BoardSymmetries(f.g.Spec) }
func (f free) AnyOrder() bool                  { return true }

// Gravity returns Connect-Four placement: a mark drops to the lowest empty cell
// of its column (row 0 is the top, so the lowest row is Rows-1). Only the
// left-right mirror keeps that rule, so it is the one symmetry beside the
// identity.
func Gravity(g *game.Game) Placement {
	s := g.Spec
	bottom := game.Mask(0)
	for c := range s.Cols {
		bottom |= 1 << ((s.Rows-1)*s.Cols + c)
	}
	return gravity{full: g.Full(), bottom: bottom, cols: s.Cols, syms: game.BoardSymmetries(s)[:2]}
}

type gravity struct {
	full, bottom game.Mask
	cols         int
	syms         [][]int
}

// Playable: an empty cell on the bottom row or right above a mark.
func (p gravity) Playable(b game.Board) game.Mask {
	occ := b.X | b.O
	return p.full &^ occ & (occ>>p.cols | p.bottom)
}

// Floating: a mark right above an empty cell.
func (p gravity) Floating(b game.Board) game.Mask {
	occ := b.X | b.O
	return occ & ((p.full &^ occ) >> p.cols)
}

func (p gravity) Symmetries() [][]int { return p.syms }

// AnyOrder: no, a mark needs the one below it first.
func (p gravity) AnyOrder() bool { return false }
