// Package perfect owns the words of perfect play, which every engine
// (package solve in memory, package tier and db on disk, package search one
// position at a time) speaks alike: a Value for X, a Depth, the Outcome of
// both, the Bounds proved of a value not yet settled, a legal Move with its
// child's outcome, the Analysis of a position, and the one rule that weighs
// a position's moves (Pick, Weigh). It imports only the game and its rules,
// so that the engines are peers that import it, and none another for its
// words.
package perfect

import "github.com/tateti-lab/tateti-lab/game"

// Value is the result of a position under perfect play, for X.
type Value int8

// The three values.
const (
	OWins Value = -1
	Draw  Value = 0
	XWins Value = 1
)

// Of gives the value of a finished game won by winner: XWins for X, OWins
// for O, Draw for game.Empty.
func Of(winner game.Cell) Value {
	return [3]Value{Draw, XWins, OWins}[winner]
}

// String names the value: "X wins", "draw" or "O wins".
func (v Value) String() string {
	switch v {
	case XWins:
		return "X wins"
	case OWins:
		return "O wins"
	}
	return "draw"
}

// For gives v, a value for X, seen from side: the same for X, negated for
// O. It is its own inverse.
func (v Value) For(side game.Cell) Value {
	if side == game.O {
		return -v
	}
	return v
}

// Depth is the number of plies to the end of the game under perfect play:
// the winner takes the fastest win, the loser the slowest loss; a drawn
// position's depth is its empty cells. At most 64.
type Depth int8

// An Outcome is a position's value and depth.
type Outcome struct {
	Value Value
	Depth Depth
}

// Better reports whether o is a better outcome than than for side: a
// higher value for it, then a faster win or a slower loss, the order in
// which Pick weighs moves.
func (o Outcome) Better(than Outcome, side game.Cell) bool {
	return score(o.Value.For(side), o.Depth) > score(than.Value.For(side), than.Depth)
}

// Bounds are what is proved of a value for X when it is not settled: it
// lies between Low and High.
type Bounds struct {
	Low  Value `json:"low"`
	High Value `json:"high"`
}

// Known gives the value the bounds prove, when they meet.
func (b Bounds) Known() (Value, bool) { return b.Low, b.Low == b.High }

// Unknown is the bounds of a value of which nothing is proved.
var Unknown = Bounds{Low: OWins, High: XWins}

// String says what the bounds prove, in the words of Value: "X wins", "X
// does not lose", "nothing yet" and so on.
func (b Bounds) String() string {
	switch {
	case b.Low == b.High:
		return b.Low.String()
	case b.Low == Draw:
		return "X does not lose"
	case b.High == Draw:
		return "O does not lose"
	}
	return "nothing yet"
}
