package checker

import "github.com/tateti-lab/tateti-lab/game"

// product is the Codewars product kata: X=1, O=2, empty=0. The board's rows,
// its columns (the rows of the transposed board) and its diagonals are put in
// one list of lines; a window of k cells with no empty cell whose product has
// a whole k-th root is won by that root. Roots are exact integers, not floats.
// The list is built once, on a board that holds each cell's index.
type product struct {
	k     int
	lines [][]int64 // cell indices of every row, column and diagonal
}

func newProduct(s game.Spec) *product {
	board := make([][]int64, s.Rows)
	for r := range board {
		board[r] = make([]int64, s.Cols)
		for c := range board[r] {
			board[r][c] = int64(r*s.Cols + c)
		}
	}
	all := append(board, transpose(board)...)
	all = append(all, diagonals(board, false)...)
	all = append(all, diagonals(board, true)...)
	return &product{k: s.K, lines: all}
}

func (p *product) Name() string { return "product" }

func (p *product) Status(cells []game.Cell) game.Status {
	var window [game.MaxCells]int64
	for _, line := range p.lines {
		for start := 0; start+p.k <= len(line); start++ {
			for j, i := range line[start : start+p.k] {
				window[j] = int64(cells[i])
			}
			if v, ok := winner(window[:p.k], p.k); ok {
				if v == 1 {
					return game.XWon
				}
				return game.OWon
			}
		}
	}
	for _, c := range cells {
		if c == 0 {
			return game.InProgress
		}
	}
	return game.Draw
}

// winner applies the kata's rule to one window: no zero, and a product whose
// k-th root is a whole number, which is then the winner.
func winner(window []int64, k int) (int64, bool) {
	prod := int64(1)
	for _, v := range window {
		if v == 0 {
			return 0, false
		}
		prod *= v
	}
	return kthRoot(prod, k)
}

// kthRoot gives the whole number r with r^k == n, if there is one.
func kthRoot(n int64, k int) (int64, bool) {
	for r := int64(1); ; r++ {
		p := int64(1)
		for range k {
			p *= r
		}
		if p == n {
			return r, true
		}
		if p > n {
			return 0, false
		}
	}
}

// transpose gives the columns of a board as rows (Python's zip(*board)).
func transpose(board [][]int64) [][]int64 {
	if len(board) == 0 {
		return nil
	}
	out := make([][]int64, len(board[0]))
	for c := range out {
		for r := range board {
			out[c] = append(out[c], board[r][c])
		}
	}
	return out
}

// diagonals gives every diagonal running down and to the right (or, mirrored,
// down and to the left), as lists of cells.
func diagonals(board [][]int64, mirrored bool) [][]int64 {
	rows, cols := len(board), len(board[0])
	var out [][]int64
	for d := -(rows - 1); d < cols; d++ {
		var line []int64
		for r := range rows {
			c := r + d
			if c < 0 || c >= cols {
				continue
			}
			if mirrored {
				c = cols - 1 - c
			}
			line = append(line, board[r][c])
		}
		out = append(out, line)
	}
	return out
}
