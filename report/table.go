package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

// newTable starts a table with right-aligned columns.
func newTable(w io.Writer) *tabwriter.Writer {
	return tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
}

// Commas prints n with thousands separators: 549946 as "549,946".
func Commas(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	out := make([]byte, 0, len(s)+len(s)/3+1)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
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
