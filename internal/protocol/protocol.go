// Package protocol owns the line formats the external protocols share: a
// board as a request line of cell tokens, lists of answer tokens (such as
// --results and --values), moves written as a cell, as row,col or as a
// column, and reproducible samples of the positions a run sends.
package protocol

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
)

// CellTokens spell a board's cells in a request: the tokens for X, O and empty.
type CellTokens [3]string

// DefaultCells is X, O and '.' for empty.
var DefaultCells = CellTokens{"X", "O", "."}

// AppendLine appends b as a request line: the cells row-major, separated by
// single spaces, and a newline.
func (c CellTokens) AppendLine(dst []byte, s game.Spec, b game.Board) []byte {
	for i := range s.Cells() {
		if i > 0 {
			dst = append(dst, ' ')
		}
		switch b.At(i) {
		case game.X:
			dst = append(dst, c[0]...)
		case game.O:
			dst = append(dst, c[1]...)
		default:
			dst = append(dst, c[2]...)
		}
	}
	return append(dst, '\n')
}

// Tokens reads a comma-separated list of n distinct tokens, such as the
// answer tokens of a protocol; meaning names them in order for the error.
func Tokens(text string, n int, meaning string) ([]string, error) {
	toks := strings.Split(text, ",")
	if len(toks) != n {
		return nil, fmt.Errorf("%q has %d tokens, want %d separated by commas: %s", game.Echo(text), len(toks), n, meaning)
	}
	seen := map[string]bool{}
	for _, t := range toks {
		if t == "" || strings.ContainsFunc(t, unicode.IsSpace) {
			return nil, fmt.Errorf("%q has an empty token or one with a space, want %d words separated by commas: %s", game.Echo(text), n, meaning)
		}
		if seen[t] {
			return nil, fmt.Errorf("%q names %q twice, want %d different tokens: %s", game.Echo(text), t, n, meaning)
		}
		seen[t] = true
	}
	return toks, nil
}

// MoveFormat is how a program writes a move.
type MoveFormat uint8

// The move formats. A column is numbered from 0 at the left in every one of
// them, as the RL libraries number Connect Four's actions; only solve
// --moves reads Connect-Four notation, from 1.
const (
	Cell        MoveFormat = iota // the cell number, 0 to cells-1, row-major
	RowCol                        // row,col from 0, such as 1,2
	Column                        // under gravity: the column from 0
	ColumnMajor                   // the cell number counted column by column: col*rows + row
)

// MoveFormats names the formats as ParseMoveFormat reads them; openspiel and
// pettingzoo name the conventions of those libraries, which it resolves.
var MoveFormats = []string{"cell", "row,col", "column", "column-major", "openspiel", "pettingzoo"}

// String gives the format's name, as --move-format takes it.
func (f MoveFormat) String() string { return MoveFormats[f] }

// ParseMoveFormat reads a move format name; column needs gravity. openspiel
// is cell (OpenSpiel's tic_tac_toe numbers actions row-major) or, under
// gravity, column (its connect_four); pettingzoo is column-major
// (tictactoe_v3 numbers the cells column by column) or, under gravity,
// column (connect_four_v3).
func ParseMoveFormat(name string, s rules.Spec) (MoveFormat, error) {
	i := slices.Index(MoveFormats, name)
	switch {
	case i < 0:
		return 0, fmt.Errorf("move format %q is unknown, want one of %s", game.Echo(name), strings.Join(MoveFormats, ", "))
	case name == "openspiel" && s.Gravity, name == "pettingzoo" && s.Gravity:
		return Column, nil
	case name == "openspiel":
		return Cell, nil
	case name == "pettingzoo":
		return ColumnMajor, nil
	case MoveFormat(i) == Column && !s.Gravity:
		return 0, fmt.Errorf("move format column needs gravity, where a column names a move; want cell or row,col")
	}
	return MoveFormat(i), nil
}

// Format writes cell in the format.
func (f MoveFormat) Format(s game.Spec, cell int) string {
	switch f {
	case RowCol:
		return fmt.Sprintf("%d,%d", cell/s.Cols, cell%s.Cols)
	case Column:
		return strconv.Itoa(cell % s.Cols)
	case ColumnMajor:
		return strconv.Itoa(cell%s.Cols*s.Rows + cell/s.Cols)
	}
	return strconv.Itoa(cell)
}

// Parse reads a move on b written in the format and gives its cell. It does
// not judge whether the move is legal, except that a column names the cell
// its mark would land on (an error when the column is full).
func (f MoveFormat) Parse(r rules.Rules, b game.Board, tok string) (int, error) {
	s := r.Spec()
	switch f {
	case RowCol:
		rs, cs, ok := strings.Cut(tok, ",")
		row, err1 := strconv.Atoi(strings.TrimSpace(rs))
		col, err2 := strconv.Atoi(strings.TrimSpace(cs))
		if !ok || err1 != nil || err2 != nil || row < 0 || row >= s.Rows || col < 0 || col >= s.Cols {
			return 0, fmt.Errorf("%q is not a row,col on %s, want such as 1,2", game.Echo(tok), s.Size())
		}
		return row*s.Cols + col, nil
	case Column:
		col, err := strconv.Atoi(tok)
		if err != nil || col < 0 || col >= s.Cols {
			return 0, fmt.Errorf("%q is not a column, want 0 to %d", game.Echo(tok), s.Cols-1)
		}
		if cell, ok := rules.ColumnMove(r, b, col); ok {
			return cell, nil
		}
		return 0, fmt.Errorf("column %d is full", col)
	}
	cell, err := strconv.Atoi(tok)
	if err != nil || cell < 0 || cell >= s.Cells() {
		return 0, fmt.Errorf("%q is not a cell, want 0 to %d", game.Echo(tok), s.Cells()-1)
	}
	if f == ColumnMajor {
		return cell%s.Rows*s.Cols + cell/s.Rows, nil
	}
	return cell, nil
}

// Sample picks n of the indices 0..total-1 at random, reproducibly from seed,
// and gives them in increasing order; all of them when n >= total.
func Sample(total, n int, seed uint64) []int {
	if n >= total {
		out := make([]int, total)
		for i := range out {
			out[i] = i
		}
		return out
	}
	// Floyd's algorithm: n draws, whatever total is.
	rng := rand.New(rand.NewPCG(seed, 0x7a7e7e71))
	picked := make(map[int]bool, n)
	for j := total - n; j < total; j++ {
		if t := rng.IntN(j + 1); picked[t] {
			picked[j] = true
		} else {
			picked[t] = true
		}
	}
	out := make([]int, 0, n)
	for i := range picked {
		out = append(out, i)
	}
	slices.Sort(out)
	return out
}

// Environment gives the variables that tell a user's program the game:
// TATETI_ROWS, TATETI_COLS and TATETI_K, and TATETI_GRAVITY=1 and
// TATETI_MISERE=1 where those rules are on.
func Environment(s rules.Spec) []string {
	env := []string{fmt.Sprintf("TATETI_ROWS=%d", s.Rows), fmt.Sprintf("TATETI_COLS=%d", s.Cols), fmt.Sprintf("TATETI_K=%d", s.K)}
	if s.Gravity {
		env = append(env, "TATETI_GRAVITY=1")
	}
	if s.Misere {
		env = append(env, "TATETI_MISERE=1")
	}
	return env
}

// Choose gives the positions to send a program: all of them when n is 0,
// else n of them drawn by Sample from seed, in order.
func Choose(positions []int, n int, seed uint64) []int {
	if n == 0 {
		return positions
	}
	picked := Sample(len(positions), n, seed)
	for k, i := range picked {
		picked[k] = positions[i]
	}
	return picked
}
