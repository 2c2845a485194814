package solve

import (
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/perfect"
)

// A Set is positions with perfect play, taken one at a time by the
// commands that test a program against it: positions of a solved game
// (Result.Set), or positions analysed one by one (Analysed).
type Set interface {
	// Len is the number of positions.
	Len() int
	// Board is position k's board.
	Board(k int) game.Board
	// Play gives position k's value and depth and every legal move with
	// its child's value and depth, best ones marked, in cell order (reusing
	// buf).
	Play(k int, buf []perfect.Move) (perfect.Value, perfect.Depth, []perfect.Move)
	// BestLine gives the cells of a line of perfect play from position k
	// to the end of the game.
	BestLine(k int) []int
}

// Set gives the positions of r at the indices at, in that order.
func (r *Result) Set(at []int) Set { return resultSet{r, at} }

type resultSet struct {
	r  *Result
	at []int
}

func (s resultSet) Len() int               { return len(s.at) }
func (s resultSet) Board(k int) game.Board { return s.r.Enum.Board(s.at[k]) }
func (s resultSet) BestLine(k int) []int   { return s.r.BestLine(s.at[k]) }
func (s resultSet) Play(k int, buf []perfect.Move) (perfect.Value, perfect.Depth, []perfect.Move) {
	i := s.at[k]
	return s.r.Value[i], s.r.Depth[i], s.r.AppendMoves(buf[:0], i)
}

// Analysed gives the analysed positions as, in their order; each must be
// settled.
func Analysed(as []perfect.Analysis) Set { return analysedSet(as) }

type analysedSet []perfect.Analysis

func (s analysedSet) Len() int               { return len(s) }
func (s analysedSet) Board(k int) game.Board { return s[k].Board }
func (s analysedSet) BestLine(k int) []int   { return s[k].BestLine }
func (s analysedSet) Play(k int, _ []perfect.Move) (perfect.Value, perfect.Depth, []perfect.Move) {
	return s[k].Value, s[k].Depth, s[k].Moves
}
