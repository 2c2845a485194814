package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// newTable starts a table with right-aligned columns.
func newTable(w io.Writer) *tabwriter.Writer {
	return tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
}

// drawBoard draws a board, a row a line with its cells spaced out, and the
// notes beside the rows, one a row; notes past the last row follow below.
func drawBoard(w io.Writer, board string, notes ...string) {
	rows := strings.Split(board, "/")
	for i := range max(len(rows), len(notes)) {
		row := strings.Repeat(" ", 2*len(rows[0])-1)
		if i < len(rows) {
			row = strings.Join(strings.Split(rows[i], ""), " ")
		}
		note := ""
		if i < len(notes) {
			note = "    " + notes[i]
		}
		fmt.Fprintf(w, "    %s%s\n", row, note)
	}
	fmt.Fprintln(w)
}
