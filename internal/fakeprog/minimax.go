package fakeprog

import (
	"os"
	"strconv"
)

// rules is the game the environment names, as a program of a user's would
// read it: TATETI_ROWS, TATETI_COLS, TATETI_K, TATETI_GRAVITY, TATETI_MISERE.
// Cells hold 0 empty, 1 X, 2 O.
type rules struct {
	rows, cols, k   int
	gravity, misere bool
	memo            map[string]result
}

type result struct {
	value, depth int // value for X: 1, 0, -1
	best         []int
}

func rulesFromEnv() *rules {
	atoi := func(name string) int { n, _ := strconv.Atoi(os.Getenv(name)); return n }
	return &rules{rows: atoi("TATETI_ROWS"), cols: atoi("TATETI_COLS"), k: atoi("TATETI_K"),
		gravity: os.Getenv("TATETI_GRAVITY") == "1", misere: os.Getenv("TATETI_MISERE") == "1", memo: map[string]result{}}
}

// winner gives 1 or 2 for the side with k in a row, 0 for none, walking
// every window of k cells; skipAnti leaves out the anti-diagonals.
func (g *rules) winner(cells []int, skipAnti bool) int {
	dirs := [][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}}
	if skipAnti {
		dirs = dirs[:3]
	}
	for r := range g.rows {
		for c := range g.cols {
			for _, d := range dirs {
				v := cells[r*g.cols+c]
				j := 1
				for ; v != 0 && j < g.k; j++ {
					rr, cc := r+j*d[0], c+j*d[1]
					if rr >= g.rows || cc < 0 || cc >= g.cols || cells[rr*g.cols+cc] != v {
						break
					}
				}
				if v != 0 && j == g.k {
					return v
				}
			}
		}
	}
	return 0
}

// moves lists the legal cells in increasing order.
func (g *rules) moves(cells []int) []int {
	var out []int
	for i, v := range cells {
		below := i + g.cols
		if v == 0 && (!g.gravity || below >= len(cells) || cells[below] != 0) {
			out = append(out, i)
		}
	}
	return out
}

func (g *rules) mover(cells []int) int {
	n := 0
	for _, v := range cells {
		if v != 0 {
			n++
		}
	}
	return 1 + n%2
}

// solve is plain minimax with a memo: the value for X, the plies to the end
// (the winner fastest, the loser slowest) and every best move.
func (g *rules) solve(cells []int) result {
	key := string(rune(0)) + fmtCells(cells)
	if r, ok := g.memo[key]; ok {
		return r
	}
	var res result
	w := g.winner(cells, false)
	moves := g.moves(cells)
	switch {
	case w != 0:
		res.value = 3 - 2*w // X 1, O -1
		if g.misere {
			res.value = -res.value
		}
	case len(moves) == 0:
	default:
		sign := 1
		if g.mover(cells) == 2 {
			sign = -1
		}
		first := true
		for _, m := range moves {
			cells[m] = g.mover(cells)
			child := g.solve(cells)
			cells[m] = 0
			v, d := sign*child.value, child.depth+1
			bv := sign * res.value
			switch {
			case first || v > bv || (v == bv && v > 0 && d < res.depth) || (v == bv && v < 0 && d > res.depth):
				res, first = result{value: child.value, depth: d, best: []int{m}}, false
			case v == bv && d == res.depth:
				res.best = append(res.best, m)
			}
		}
	}
	g.memo[key] = res
	return res
}

func fmtCells(cells []int) string {
	b := make([]byte, len(cells))
	for i, v := range cells {
		b[i] = byte('0' + v)
	}
	return string(b)
}

// valueNoUndo is the minimax of the contest-programming report with the bug it tells of: on finding
// a move that decides the search, it returns without taking the move back,
// so the caller goes on with a mark too many. Values are for X.
func (g *rules) valueNoUndo(cells []int, memo map[string]int) int {
	key := fmtCells(cells)
	if v, ok := memo[key]; ok {
		return v
	}
	if w := g.winner(cells, false); w != 0 {
		v := 3 - 2*w
		if g.misere {
			v = -v
		}
		memo[key] = v
		return v
	}
	moves := g.moves(cells)
	if len(moves) == 0 {
		return 0
	}
	mover := g.mover(cells)
	best := -1
	if mover == 2 {
		best = 1
	}
	for _, m := range moves {
		if cells[m] != 0 {
			continue // a mark left behind by the bug
		}
		cells[m] = mover
		v := g.valueNoUndo(cells, memo)
		if (mover == 1 && v == 1) || (mover == 2 && v == -1) {
			memo[key] = v
			return v // the bug: cells[m] is not set back to 0
		}
		cells[m] = 0
		if (mover == 1 && v > best) || (mover == 2 && v < best) {
			best = v
		}
	}
	memo[key] = best
	return best
}
