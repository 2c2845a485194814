package report

import (
	"fmt"
	"html"
	"io"
	"strings"

	"github.com/tateti-lab/tateti-lab/view"
)

const (
	cellSize = 64
	margin   = 28  // room around the board for its coordinates
	minWidth = 300 // room for the caption under a narrow board
)

// SVG draws the position: its marks, and on every legal move's cell the
// result for the side to move (W, D, L in its colour) and the move by
// which the game then ends, counting from the first, best moves ringed; the columns numbered above (under gravity
// from 1, as solve --moves reads them), the rows at the left, and under free
// placement each cell's number in its corner; a caption names the position
// and its value.
func SVG(w io.Writer, p view.Position) error {
	s := p.Game
	width, height := max(s.Cols*cellSize+2*margin, minWidth), s.Rows*cellSize+margin+64
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, "<title>%s</title>\n", html.EscapeString(p.Board+" ("+s.Words()+")"))
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#ffffff"/>`+"\n", width, height)
	coordinates(&b, p)
	moves := map[int]int{}
	for k, m := range p.Moves {
		moves[m.Cell] = k
	}
	cells := strings.ReplaceAll(p.Board, "/", "")
	for i := range s.Cells() {
		x, y := margin+(i%s.Cols)*cellSize, margin+(i/s.Cols)*cellSize
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="#fafafa" stroke="#424242"/>`+"\n", x, y, cellSize, cellSize)
		if !s.Gravity {
			fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="10" fill="#616161">%d</text>`+"\n", x+4, y+12, i)
		}
		switch mark := cells[i]; {
		case mark != '.':
			fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="40" text-anchor="middle" fill="#212121">%c</text>`+"\n", x+cellSize/2, y+46, mark)
		default:
			if k, ok := moves[i]; ok {
				drawMove(&b, p, k, x, y)
			}
		}
	}
	bottom := margin + s.Rows*cellSize
	fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="13" fill="#212121">%s</text>`+"\n", margin, bottom+20, html.EscapeString(caption(p)))
	fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="11" fill="#616161">W win, D draw, L loss for the side to move,</text>`+"\n", margin, bottom+38)
	fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="11" fill="#616161">and the move the game ends by; ringed: best</text>`+"\n", margin, bottom+52)
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// coordinates numbers the columns above the board (from 1 under gravity, as
// Connect-Four notation does, from 0 otherwise) and the rows at its left.
func coordinates(b *strings.Builder, p view.Position) {
	s := p.Game
	for c := range s.Cols {
		fmt.Fprintf(b, `<text x="%d" y="%d" font-size="12" text-anchor="middle" fill="#616161">%d</text>`+"\n", margin+c*cellSize+cellSize/2, margin-8, s.MoveNumber(c))
	}
	for r := range s.Rows {
		fmt.Fprintf(b, `<text x="%d" y="%d" font-size="12" text-anchor="end" fill="#616161">%d</text>`+"\n", margin-8, margin+r*cellSize+cellSize/2+4, r)
	}
}

// drawMove draws legal move k in the cell at (x, y).
func drawMove(b *strings.Builder, p view.Position, k, x, y int) {
	m := p.Moves[k]
	res := m.Result
	colour := view.Colours[res]
	if m.Best {
		fmt.Fprintf(b, `<circle cx="%d" cy="%d" r="26" fill="none" stroke="%s" stroke-width="3"/>`+"\n", x+cellSize/2, y+cellSize/2, colour)
	}
	fmt.Fprintf(b, `<text x="%d" y="%d" font-size="20" text-anchor="middle" fill="%s">%s</text>`+"\n",
		x+cellSize/2, y+cellSize/2+7, colour, m.Mark(ply(p)))
}

func caption(p view.Position) string {
	if p.ToMove == nil {
		return fmt.Sprintf("%s: %s, the game is over", p.Board, p.Status)
	}
	if p.Value == 0 {
		return fmt.Sprintf("%s: %s to move, a draw", p.Board, *p.ToMove)
	}
	return fmt.Sprintf("%s: %s to move, %s", p.Board, *p.ToMove, outcomeOf(p, ply(p)))
}

// ply gives how many moves made p's board: its marks.
func ply(p view.Position) int {
	return strings.Count(p.Board, "X") + strings.Count(p.Board, "O")
}
