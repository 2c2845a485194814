// Package game owns the board of m,n,k games such as tic-tac-toe: the Spec
// (rows, cols, k), the Board as two bitboards, the board notation, state ids,
// the winning lines as bit masks and the status they give (who has a line),
// and the symmetries of the board with table-driven canonical ids. What a line
// is worth and which moves are legal belong to package rules. It imports the
// standard library only.
package game

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// MaxCells is the largest board the game model represents (a 64-bit mask per
// player). State ids stop at MaxIDCells; exhaustive work (enumerate, solve,
// verify, export) has its own, smaller limit.
const MaxCells = 64

// Spec describes an m,n,k game: Rows x Cols cells, K in a row to win.
type Spec struct {
	Rows int `json:"rows"`
	Cols int `json:"cols"`
	K    int `json:"k"`
}

// Default is plain tic-tac-toe: 3x3, three in a row.
var Default = Spec{Rows: 3, Cols: 3, K: 3}

// NewSpec returns a validated Spec. A k of 0 means the shorter side. Each side
// is checked against MaxCells before the sides are multiplied, so that no size
// overflows.
func NewSpec(rows, cols, k int) (Spec, error) {
	if rows < 0 || cols < 0 {
		return Spec{}, fmt.Errorf("size %dx%d has a negative side, want sides of 1 or more (for example 3x3)", rows, cols)
	}
	if rows < 1 || cols < 1 {
		return Spec{}, fmt.Errorf("size %dx%d has an empty side, want at least 1x1 (for example 3x3)", rows, cols)
	}
	if rows > MaxCells || cols > MaxCells || rows*cols > MaxCells {
		return Spec{}, fmt.Errorf("size %dx%d has more cells than the game model holds: at most %d, such as 8x8 or 6x7", rows, cols, MaxCells)
	}
	if k == 0 {
		k = min(rows, cols)
	}
	if k < 1 || k > max(rows, cols) {
		return Spec{}, fmt.Errorf("k %d does not fit a %dx%d board, want 1 to %d", k, rows, cols, max(rows, cols))
	}
	return Spec{Rows: rows, Cols: cols, K: k}, nil
}

// ParseSize reads a size such as "3x3" or "4X4" into rows and cols. A side
// too large for an int is an error; NewSpec judges the rest.
func ParseSize(s string) (rows, cols int, err error) {
	r, c, ok := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "x")
	if !ok {
		return 0, 0, fmt.Errorf("size %q is not ROWSxCOLS, write it like 3x3 or 4x4", Echo(s))
	}
	rows, err1 := strconv.Atoi(r)
	cols, err2 := strconv.Atoi(c)
	if errors.Is(err1, strconv.ErrRange) || errors.Is(err2, strconv.ErrRange) {
		return 0, 0, fmt.Errorf("size %q has a side far past the %d cells the game model holds, write it like 3x3 or 4x4", Echo(s), MaxCells)
	}
	if err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("size %q is not ROWSxCOLS with whole numbers, write it like 3x3 or 4x4", Echo(s))
	}
	return rows, cols, nil
}

// MaxEcho is how many characters of a user's text an error message repeats.
const MaxEcho = 40

// Echo cuts text to MaxEcho characters for an error message, marking the cut
// with the full length.
func Echo(text string) string {
	if r := []rune(text); len(r) > MaxEcho {
		return fmt.Sprintf("%s... (%d characters)", string(r[:MaxEcho]), len(r))
	}
	return text
}

// Cells is the number of cells, Rows*Cols.
func (s Spec) Cells() int { return s.Rows * s.Cols }

// Square reports whether the board has as many rows as columns.
func (s Spec) Square() bool { return s.Rows == s.Cols }

// String gives the spec as "3x3 k=3".
func (s Spec) String() string { return fmt.Sprintf("%dx%d k=%d", s.Rows, s.Cols, s.K) }

// Size gives the board size as "3x3".
func (s Spec) Size() string { return fmt.Sprintf("%dx%d", s.Rows, s.Cols) }
