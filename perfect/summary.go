package perfect

import (
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
)

// ByStatus counts terminal positions or complete games by how they ended.
type ByStatus struct {
	XWon int64 `json:"x_won"`
	OWon int64 `json:"o_won"`
	Draw int64 `json:"draw"`
}

// Total is the sum over the three endings.
func (c ByStatus) Total() int64 { return c.XWon + c.OWon + c.Draw }

// Of gives the count of status s, nil for a game in progress, which ended
// in none.
func (c *ByStatus) Of(s game.Status) *int64 {
	switch s {
	case game.XWon:
		return &c.XWon
	case game.OWon:
		return &c.OWon
	case game.Draw:
		return &c.Draw
	}
	return nil
}

// ValueCounts counts positions by their value with perfect play.
type ValueCounts struct {
	XWins int64 `json:"x_wins"`
	Draw  int64 `json:"draw"`
	OWins int64 `json:"o_wins"`
}

// Add counts one position of value v.
func (c *ValueCounts) Add(v Value) {
	switch v {
	case XWins:
		c.XWins++
	case OWins:
		c.OWins++
	default:
		c.Draw++
	}
}

// PlyValues counts the positions of one ply by value.
type PlyValues struct {
	Ply int `json:"ply"`
	ValueCounts
}

// Summary is the game solved: the root's value and depth, positions by value in
// total and by ply, and every first move with its value and depth.
type Summary struct {
	Game             rules.Spec  `json:"game"`
	Value            Value       `json:"value"`
	Depth            Depth       `json:"depth"`
	PositionsByValue ValueCounts `json:"positions_by_value"`
	ByPly            []PlyValues `json:"by_ply"`
	Openings         []Move      `json:"openings"`
	// ToMove counts each ply's positions by value for the side to move
	// (X at an even ply); given by a solve tier by tier.
	ToMove []PlyToMove `json:"by_ply_to_move,omitempty"`
	// MaxPly is set on the summary of an opening book: the plies counted
	// end there.
	MaxPly *int `json:"max_ply,omitempty"`
	// ValuesOnly is set where the root's depth and the first moves are
	// not known, as db build gives a win/draw/loss database's summary:
	// Depth is 0 and Openings empty (solve --db finds them).
	ValuesOnly bool `json:"values_only,omitempty"`
	// NoLine is set where the positions counted are a win/draw/loss
	// database's boards with no line, its forward pass not run: not the
	// positions play reaches, and no finished board.
	NoLine bool `json:"boards_with_no_line,omitempty"`
	// Engine and Why say who solved the game and why the planner chose it,
	// where a command asked it (package plan).
	Engine Engine `json:"engine,omitempty"`
	Why    string `json:"why,omitempty"`
}

// PlyToMove counts the positions of one ply by value for the side to move:
// a finished board is lost or drawn for the side that would move.
type PlyToMove struct {
	Ply   int   `json:"ply"`
	Won   int64 `json:"won"`
	Drawn int64 `json:"drawn"`
	Lost  int64 `json:"lost"`
}
