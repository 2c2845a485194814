package checker

import "github.com/tateti-lab/tateti-lab/game"

// lines is the contest-programming report's evaluate: scan row i, then column i, for every i, then
// the diagonals and the anti-diagonals, comparing cells one by one; the first
// window of k equal marks names the winner. A full board without one is a draw.
type lines struct {
	rows, cols, k int
}

func newLines(s game.Spec) *lines { return &lines{rows: s.Rows, cols: s.Cols, k: s.K} }

func (l *lines) Name() string { return "lines" }

func (l *lines) Status(cells []game.Cell) game.Status {
	at := func(r, c int) game.Cell { return cells[r*l.cols+c] }
	// same reports whether the k cells from (r, c) stepping (dr, dc) are one player's.
	same := func(r, c, dr, dc int) game.Cell {
		first := at(r, c)
		if first == game.Empty {
			return game.Empty
		}
		for j := 1; j < l.k; j++ {
			if at(r+j*dr, c+j*dc) != first {
				return game.Empty
			}
		}
		return first
	}
	won := game.Empty
	for i := 0; i < max(l.rows, l.cols) && won == game.Empty; i++ {
		for c := 0; i < l.rows && c+l.k <= l.cols && won == game.Empty; c++ {
			won = same(i, c, 0, 1)
		}
		for r := 0; i < l.cols && r+l.k <= l.rows && won == game.Empty; r++ {
			won = same(r, i, 1, 0)
		}
	}
	for r := 0; r+l.k <= l.rows && won == game.Empty; r++ {
		for c := 0; c+l.k <= l.cols && won == game.Empty; c++ {
			won = same(r, c, 1, 1)
		}
	}
	for r := 0; r+l.k <= l.rows && won == game.Empty; r++ {
		for c := l.k - 1; c < l.cols && won == game.Empty; c++ {
			won = same(r, c, 1, -1)
		}
	}
	switch won {
	case game.X:
		return game.XWon
	case game.O:
		return game.OWon
	}
	for _, c := range cells {
		if c == game.Empty {
			return game.InProgress
		}
	}
	return game.Draw
}
