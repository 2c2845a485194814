package rules

import "github.com/tateti-lab/tateti-lab/game"

// Goal says who wins a finished game, given who has a line.
type Goal interface {
	Winner(st game.Status) game.Cell
}

// Normal is the usual goal: k in a row wins.
type Normal struct{}

// Winner is the side with a line; game.Empty for a draw or a game in
// progress.
func (Normal) Winner(st game.Status) game.Cell {
	switch st {
	case game.XWon:
		return game.X
	case game.OWon:
		return game.O
	}
	return game.Empty
}

// Misere is the misère goal: whoever completes k in a row loses.
type Misere struct{}

// Winner is the side without the line; game.Empty for a draw or a game in
// progress.
func (Misere) Winner(st game.Status) game.Cell {
	if w := (Normal{}).Winner(st); w != game.Empty {
		return w.Other()
	}
	return game.Empty
}
