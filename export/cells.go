package export

import (
	"github.com/tateti-lab/tateti-lab/game"
)

// groupCells is the most cells a cellTable looks up at once: a group's X and
// O marks index a table of 1<<(2*groupCells) parts.
const groupCells = 4

// A cellPart is what a few cells in a row give the states table: their board
// characters, their cell columns, and those columns as CSV fields.
type cellPart struct {
	text  [groupCells]byte
	cells [groupCells]int8
	csv   string
}

// A cellGroup is a run of up to groupCells cells of one row.
type cellGroup struct {
	at, width int
	slash     bool                             // the group starts a row after the first
	parts     *[1 << (2 * groupCells)]cellPart // by the group's X bits | O bits<<groupCells
}

// A cellTable writes a board's text, its cell columns and their CSV fields a
// group of cells at a time, from parts built once from game.AppendFormat and
// cellValue, so it says nothing of its own about how a cell is written: a
// test holds it to them on every board of several sizes.
type cellTable struct{ groups []cellGroup }

func newCellTable(s game.Spec) *cellTable {
	var parts [groupCells + 1]*[1 << (2 * groupCells)]cellPart
	for w := 1; w <= groupCells; w++ {
		parts[w] = groupParts(w)
	}
	t := &cellTable{}
	for row := range s.Rows {
		for col := 0; col < s.Cols; col += groupCells {
			w := min(groupCells, s.Cols-col)
			t.groups = append(t.groups, cellGroup{at: row*s.Cols + col, width: w, slash: row > 0 && col == 0, parts: parts[w]})
		}
	}
	return t
}

// groupParts gives the parts of every group of w cells.
func groupParts(w int) *[1 << (2 * groupCells)]cellPart {
	var ps [1 << (2 * groupCells)]cellPart
	row := game.Spec{Rows: 1, Cols: w}
	for x := range game.Mask(1 << w) {
		for o := range game.Mask(1 << w) {
			if x&o != 0 {
				continue
			}
			b := game.Board{X: x, O: o}
			p := &ps[x|o<<groupCells]
			copy(p.text[:], row.AppendFormat(nil, b))
			var csv []byte
			for c := range w {
				p.cells[c] = cellValue(b.At(c))
				csv = appendInts(csv, int64(p.cells[c]))
			}
			p.csv = string(csv)
		}
	}
	return &ps
}

// cellValue is a cell's value in the cell columns: 1 for X, -1 for O, 0
// when empty.
func cellValue(c game.Cell) int8 { return [3]int8{0, 1, -1}[c] }

// fill sets dst's board text, cells and cells' CSV fields to those of b.
func (t *cellTable) fill(b game.Board, dst *State) {
	dst.Board, dst.Cells, dst.cellsCSV = dst.Board[:0], dst.Cells[:0], dst.cellsCSV[:0]
	for _, g := range t.groups {
		mask := game.Mask(1)<<g.width - 1
		p := &g.parts[b.X>>g.at&mask|(b.O>>g.at&mask)<<groupCells]
		if g.slash {
			dst.Board = append(dst.Board, '/')
		}
		dst.Board = append(dst.Board, p.text[:g.width]...)
		dst.Cells = append(dst.Cells, p.cells[:g.width]...)
		dst.cellsCSV = append(dst.cellsCSV, p.csv...)
	}
}
