package report

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/view"
)

// AnswerLine writes the answer to line n of the positions a program sends
// (solve --stdin) on a line of JSON of its own, in one write: an object
// whose "line" is n, then the position as every --json answer gives it
// (Position), or, when the line is no position, its "error" (bad).
func AnswerLine(w io.Writer, n int, a perfect.Analysis, bad error) error {
	var b []byte
	var err error
	if bad != nil {
		b, err = json.Marshal(struct {
			Line  int    `json:"line"`
			Error string `json:"error"`
		}{n, bad.Error()})
	} else if b, err = view.NewPosition(a).MarshalJSON(); err == nil { // compact already: not through json.Marshal, which compacts it again
		b = append(fmt.Appendf(nil, `{"line":%d,`, n), b[1:]...) // the position's object, its line first
	}
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
