package checker

import "github.com/tateti-lab/tateti-lab/game"

// counter is the counter article: the marks are replayed one at a time (here in row-major
// order, as the move order is not known) and each player keeps a count per
// line; a count that reaches k declares that player the winner. When k is
// shorter than a side, every window of k cells along a row, column or diagonal
// has its own count.
type counter struct {
	rows, cols, k int
}

func newCounter(s game.Spec) *counter { return &counter{rows: s.Rows, cols: s.Cols, k: s.K} }

func (c *counter) Name() string { return "counter" }

// The four directions a window runs in: along a row, down a column, down the
// diagonal and down the anti-diagonal.
var directions = [4][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}}

func (c *counter) Status(cells []game.Cell) game.Status {
	// scores[player][direction][start cell of the window]
	var scores [2][4][game.MaxCells]int8
	empty := false
	for i, cell := range cells {
		if cell == game.Empty {
			empty = true
			continue
		}
		if c.updateScore(&scores[cell-1], i/c.cols, i%c.cols) {
			if cell == game.X {
				return game.XWon
			}
			return game.OWon
		}
	}
	if empty {
		return game.InProgress
	}
	return game.Draw
}

// updateScore counts a mark at (row, col) in every window that holds it and
// reports whether one of those counts reached k.
func (c *counter) updateScore(score *[4][game.MaxCells]int8, row, col int) bool {
	won := false
	for d, dir := range directions {
		for j := range c.k {
			// The window starting j cells back along dir holds (row, col).
			r0, c0 := row-j*dir[0], col-j*dir[1]
			r1, c1 := r0+(c.k-1)*dir[0], c0+(c.k-1)*dir[1]
			if r0 < 0 || c0 < 0 || c0 >= c.cols || r1 >= c.rows || c1 < 0 || c1 >= c.cols {
				continue
			}
			score[d][r0*c.cols+c0]++
			if int(score[d][r0*c.cols+c0]) == c.k {
				won = true
			}
		}
	}
	return won
}
