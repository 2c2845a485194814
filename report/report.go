// Package report owns the views of a position that every front end shows:
// the object `solve --position --json` prints (and the web API will answer),
// and its SVG picture, built once from a solved position.
package report

import (
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
)

// Position is one position analysed with perfect play, as shown.
type Position struct {
	Game    rules.Spec   `json:"game"`
	Board   string       `json:"board"`
	Status  string       `json:"status"`
	ToMove  *string      `json:"to_move"` // null when the game is over
	Value   int8         `json:"value"`
	Outcome string       `json:"outcome"`
	Depth   int8         `json:"depth"`
	Moves   []solve.Move `json:"moves"` // every legal move in cell order

	StateID     uint64 `json:"state_id"`
	CanonicalID uint64 `json:"canonical_id"`
	Paths       int64  `json:"paths"`     // move sequences from the empty board that reach it
	BestLine    []int  `json:"best_line"` // cells of a line of perfect play to the end
}

// NewPosition builds the view of an analysis.
func NewPosition(a solve.Analysis) Position {
	v := Position{Game: a.Spec, Board: game.Format(a.Spec.Spec, a.Board), Status: a.Status.String(),
		Value: a.Value, Outcome: solve.Outcome(a.Value), Depth: a.Depth, Moves: a.Moves,
		StateID: a.StateID, CanonicalID: a.CanonicalID, Paths: a.Paths, BestLine: a.BestLine}
	if a.ToMove != game.Empty {
		m := a.ToMove.String()
		v.ToMove = &m
	}
	if v.Moves == nil {
		v.Moves = []solve.Move{}
	}
	if v.BestLine == nil {
		v.BestLine = []int{}
	}
	return v
}

// MoverResult gives a move's result for the side to move: "win", "draw" or
// "loss", the words and colours every view uses.
func (p Position) MoverResult(m solve.Move) string {
	v := m.Value
	if p.ToMove != nil && *p.ToMove == "O" {
		v = -v
	}
	switch {
	case v > 0:
		return "win"
	case v < 0:
		return "loss"
	}
	return "draw"
}
