package fakeprog

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// convention is a checker's spelling: cells to 1 X, 2 O, 0 empty, and the
// results for X wins, O wins, draw, in progress.
type convention struct {
	cells   map[string]int
	results [4]string
}

var (
	seed000 = convention{map[string]int{"0": 1, "1": 2, "-1": 0}, [4]string{"0", "1", "2", "3"}}
	seed002 = convention{map[string]int{"1": 1, "2": 2, "0": 0}, [4]string{"1", "2", "0", "-1"}}
	// The solvers and agents read the default cells X, O and '.'.
	letters = map[string]int{"X": 1, "O": 2, ".": 0}
)

// roles answer one request line, given as its fields.
var roles = map[string]func(g *rules, fields []string) string{
	"seed000": func(g *rules, f []string) string { return check(g, seed000, f, false) },
	"seed002": func(g *rules, f []string) string { return check(g, seed002, f, false) },
	"noanti":  func(g *rules, f []string) string { return check(g, seed000, f, true) },
	"solver":  func(g *rules, f []string) string { return solveLine(g, decode(letters, f), "") },
	"solver-wrong": func(g *rules, f []string) string {
		return solveLine(g, decode(letters, f), "wrong")
	},
	"solver-depth": func(g *rules, f []string) string { return solveLine(g, decode(letters, f), "depth") },
	"solver-noundo": func(g *rules, f []string) string {
		return strconv.Itoa(g.valueNoUndo(decode(letters, f), map[string]int{}))
	},
	"agent-first": func(g *rules, f []string) string {
		return strconv.Itoa(g.moves(decode(letters, f))[0])
	},
	"agent-empty": func(g *rules, f []string) string {
		for i, v := range decode(letters, f) {
			if v == 0 {
				return strconv.Itoa(i)
			}
		}
		return "none"
	},
	"agent-perfect": func(g *rules, f []string) string {
		return strconv.Itoa(g.solve(decode(letters, f)).best[0])
	},
}

func decode(spelling map[string]int, fields []string) []int {
	cells := make([]int, len(fields))
	for i, f := range fields {
		cells[i] = spelling[f]
	}
	return cells
}

// check answers a checker request: 0 X wins, 1 O wins, 2 draw, 3 in progress.
func check(g *rules, conv convention, fields []string, skipAnti bool) string {
	cells := decode(conv.cells, fields)
	if w := g.winner(cells, skipAnti); w != 0 {
		return conv.results[w-1]
	}
	for _, v := range cells {
		if v == 0 {
			return conv.results[3]
		}
	}
	return conv.results[2]
}

// solveLine answers a solver request: "value depth best...", with the error
// the mode asks for.
func solveLine(g *rules, cells []int, mode string) string {
	r := g.solve(cells)
	value, depth := r.value, r.depth
	switch {
	case mode == "wrong" && fmtCells(cells) == "000010000":
		value = -1 // X in the centre is a draw
	case mode == "depth" && depth > 4:
		depth++
	}
	parts := []string{strconv.Itoa(value), strconv.Itoa(depth)}
	for _, m := range r.best {
		parts = append(parts, strconv.Itoa(m))
	}
	return strings.Join(parts, " ")
}

// contestant solves UVa 10111 from stdin: cases of "?" and four rows, "$" at
// the end; for each, the first winning move of x as (row,col), or #####.
func contestant(role, fault string, stdin io.Reader, out *bufio.Writer, stderr io.Writer) int {
	g := &rules{rows: 4, cols: 4, k: 4, memo: map[string]result{}}
	in := bufio.NewScanner(stdin)
	for n := 1; in.Scan() && strings.TrimSpace(in.Text()) != "$"; n++ {
		cells := make([]int, 0, 16)
		for range 4 {
			in.Scan()
			cells = append(cells, decode(map[string]int{"x": 1, "o": 2}, strings.Split(strings.TrimSpace(in.Text()), ""))...)
		}
		if code, stop := misbehave(fault, 9+n, out, stderr); stop { // a fault acts after the first case
			return code
		}
		fmt.Fprintln(out, firstWin(g, cells, role))
	}
	return 0
}

// firstWin gives the winning move of x the role reports, or #####.
func firstWin(g *rules, cells []int, role string) string {
	answer := "#####"
	for _, m := range g.moves(cells) {
		cells[m] = 1
		v := g.solve(cells).value
		cells[m] = 0
		if v != 1 {
			continue
		}
		answer = fmt.Sprintf("(%d,%d)", m/4, m%4)
		if role == "uva-space" {
			answer = fmt.Sprintf("(%d, %d)", m/4, m%4)
		}
		if role != "uva-last" {
			break
		}
	}
	return answer
}
