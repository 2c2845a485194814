package export

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
)

// The cell table writes what game.AppendFormat and cellValue say, cell by
// cell, on boards of every shape: row by row in groups, with the last group
// of a row short when the row is not a multiple of groupCells.
func TestCellTable(t *testing.T) {
	for _, s := range []game.Spec{{Rows: 3, Cols: 3}, {Rows: 4, Cols: 4}, {Rows: 1, Cols: 9}, {Rows: 9, Cols: 1},
		{Rows: 2, Cols: 5}, {Rows: 3, Cols: 6}, {Rows: 5, Cols: 5}, {Rows: 1, Cols: 25}, {Rows: 4, Cols: 6}} {
		t.Run(s.Size(), func(t *testing.T) {
			tbl := newCellTable(s)
			rnd := rand.New(rand.NewPCG(1, uint64(s.Cells())))
			var got State
			for range 2000 {
				var b game.Board
				for c := range s.Cells() {
					if m := game.Cell(rnd.IntN(3)); m != game.Empty {
						b = b.Play(c, m)
					}
				}
				tbl.fill(b, &got)
				var cells []int8
				var csv []byte
				for c := range s.Cells() {
					cells = append(cells, cellValue(b.At(c)))
					csv = appendInts(csv, int64(cellValue(b.At(c))))
				}
				if text := s.AppendFormat(nil, b); !bytes.Equal(got.Board, text) {
					t.Fatalf("board %s: text %q, want %q", text, got.Board, text)
				}
				if !slices.Equal(got.Cells, cells) {
					t.Fatalf("board %s: cells %v, want %v", got.Board, got.Cells, cells)
				}
				if !bytes.Equal(got.cellsCSV, csv) {
					t.Fatalf("board %s: CSV %q, want %q", got.Board, got.cellsCSV, csv)
				}
			}
		})
	}
}
