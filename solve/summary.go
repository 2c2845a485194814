package solve

import (
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

// ValueCounts counts positions by their value with perfect play.
type ValueCounts struct {
	XWins int64 `json:"x_wins"`
	Draw  int64 `json:"draw"`
	OWins int64 `json:"o_wins"`
}

func (c *ValueCounts) add(v perfect.Value) {
	switch v {
	case perfect.XWins:
		c.XWins++
	case perfect.OWins:
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
	Game             rules.Spec     `json:"game"`
	Value            perfect.Value  `json:"value"`
	Depth            perfect.Depth  `json:"depth"`
	PositionsByValue ValueCounts    `json:"positions_by_value"`
	ByPly            []PlyValues    `json:"by_ply"`
	Openings         []perfect.Move `json:"openings"`
	// ToMove counts each ply's positions by value for the side to move
	// (X at an even ply); given by a solve tier by tier.
	ToMove []PlyToMove `json:"by_ply_to_move,omitempty"`
	// MaxPly is set on the summary of an opening book: the plies counted
	// end there.
	MaxPly *int `json:"max_ply,omitempty"`
	// Engine and Why say who solved the game and why the planner chose it,
	// where a command asked it (package plan).
	Engine string `json:"engine,omitempty"`
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

// Summarize computes the summary of a solved enumeration; its root is the
// position the enumeration started from.
func (r *Result) Summarize() Summary {
	e := r.Enum
	root := e.Root.Ply()
	lo, _ := e.Layer(root)
	s := Summary{Game: e.Rules.Spec(), Value: r.Value[lo], Depth: r.Depth[lo], Openings: r.Moves(lo)}
	for p := root; p <= e.Rules.Spec().Cells(); p++ {
		lo, hi := e.Layer(p)
		pv := PlyValues{Ply: p}
		for i := lo; i < hi; i++ {
			pv.add(r.Value[i])
			s.PositionsByValue.add(r.Value[i])
		}
		s.ByPly = append(s.ByPly, pv)
	}
	return s
}
