package rules

import "github.com/tateti-lab/tateti-lab/game"

// Goal says what a finished game is worth for X, given who has a line.
type Goal interface {
	Value(st game.Status) int8
}

// Normal is the usual goal: k in a row wins.
type Normal struct{}

// Value is +1 when X has a line, -1 when O has one, 0 otherwise.
func (Normal) Value(st game.Status) int8 {
	switch st {
	case game.XWon:
		return 1
	case game.OWon:
		return -1
	}
	return 0
}

// Misere is the misère goal: whoever completes k in a row loses.
type Misere struct{}

// Value is -1 when X has a line, +1 when O has one, 0 otherwise.
func (Misere) Value(st game.Status) int8 { return -Normal{}.Value(st) }
