package game

import (
	"fmt"
	"math/bits"
	"strings"
)

// Mask is a set of cells, bit i for cell i (row-major from the top left).
type Mask uint64

// Cell is what stands on one cell. Its value is the cell's digit in a state id.
type Cell int8

// The three things a cell can hold.
const (
	Empty Cell = 0
	X     Cell = 1
	O     Cell = 2
)

// String gives the cell as it is printed in board text: "X", "O" or ".".
func (c Cell) String() string {
	if c > O {
		return "."
	}
	return cellText[c : c+1]
}

// cellText holds the character of each cell value, by value.
const cellText = ".XO"

// Other gives the opponent of X or O.
func (c Cell) Other() Cell { return 3 - c }

// Board is a position as two bitboards, one per player.
type Board struct {
	X, O Mask
}

// At gives what stands on cell i.
func (b Board) At(i int) Cell {
	switch {
	case b.X>>i&1 == 1:
		return X
	case b.O>>i&1 == 1:
		return O
	}
	return Empty
}

// Play gives the board after c is put on cell i, which must be empty.
func (b Board) Play(i int, c Cell) Board {
	if c == X {
		b.X |= 1 << i
	} else {
		b.O |= 1 << i
	}
	return b
}

// Without gives b with cell i empty.
func (b Board) Without(i int) Board {
	b.X &^= 1 << i
	b.O &^= 1 << i
	return b
}

// Ply is the number of marks on the board.
func (b Board) Ply() int { return bits.OnesCount64(uint64(b.X | b.O)) }

// ToMove gives the side to move when X moves first: X when both have as many
// marks, O otherwise. It does not look at whether the game is over.
func (b Board) ToMove() Cell {
	if bits.OnesCount64(uint64(b.X)) > bits.OnesCount64(uint64(b.O)) {
		return O
	}
	return X
}

// Marks writes the mark of each cell (or Empty), row-major, into dst (len
// s.Cells()) and returns it.
func (b Board) Marks(s Spec, dst []Cell) []Cell {
	for i := range s.Cells() {
		dst[i] = b.At(i)
	}
	return dst
}

func full(s Spec) Mask { return Mask(uint64(1)<<s.Cells() - 1) }

// Format prints a board in the canonical notation: rows split by '/', for
// example "XO./.X./..O".
func (s Spec) Format(b Board) string {
	return string(s.AppendFormat(make([]byte, 0, s.Cells()+s.Rows), b))
}

// AppendFormat appends the text of b, as Format writes it, to dst.
func (s Spec) AppendFormat(dst []byte, b Board) []byte {
	for i := range s.Cells() {
		if i > 0 && i%s.Cols == 0 {
			dst = append(dst, '/')
		}
		dst = append(dst, cellText[b.At(i)])
	}
	return dst
}

// Parse reads board text: one character a cell, row-major, X and O (either
// case) for the players and '.', '-', '_' or ' ' for an empty cell. Rows may be
// split by '/'; without separators the text must hold exactly Rows*Cols cells.
func (s Spec) Parse(text string) (Board, error) {
	var b Board
	n, col, row := 0, 0, 0
	slashes := strings.Contains(text, "/")
	for pos, r := range text {
		if r == '/' {
			if col != s.Cols {
				return Board{}, fmt.Errorf("board %q has %d cells in row %d, want %d for %s", Echo(text), col, row+1, s.Cols, s.Size())
			}
			row, col = row+1, 0
			continue
		}
		var c Cell
		switch r {
		case 'X', 'x':
			c = X
		case 'O', 'o':
			c = O
		case '.', '-', '_', ' ':
			c = Empty
		default:
			return Board{}, fmt.Errorf("board %q has %q at character %d, want X, O or . for empty (also x, o, -, _, space, and / between rows)", Echo(text), r, pos+1)
		}
		if n < s.Cells() {
			b = b.set(n, c)
		}
		n, col = n+1, col+1
	}
	if n != s.Cells() {
		return Board{}, fmt.Errorf("board %q has %d cells, want %d for %s", Echo(text), n, s.Cells(), s.Size())
	}
	if slashes && (row != s.Rows-1 || col != s.Cols) {
		return Board{}, fmt.Errorf("board %q has %d rows of cells split by '/', want %d rows of %d for %s", Echo(text), row+1, s.Rows, s.Cols, s.Size())
	}
	return b, nil
}

func (b Board) set(i int, c Cell) Board {
	if c == Empty {
		return b
	}
	return b.Play(i, c)
}
