package report

import (
	"encoding/json"
	"io"
	"strconv"
	"sync"

	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/view"
)

// AnswerLine writes the answer to line n of the positions a program sends
// (solve --stdin) on a line of JSON of its own, in one write: an object
// whose "line" is n, then the position as every --json answer gives it
// (Position), or, when the line is no position, its "error" (bad).
func AnswerLine(w io.Writer, n int, a perfect.Analysis, bad error) error {
	if bad != nil {
		b, err := json.Marshal(struct {
			Line  int    `json:"line"`
			Error string `json:"error"`
		}{n, bad.Error()})
		if err != nil {
			return err
		}
		_, err = w.Write(append(b, '\n'))
		return err
	}
	buf := lines.Get().(*[]byte)
	defer lines.Put(buf)
	b := strconv.AppendInt(append((*buf)[:0], `{"line":`...), int64(n), 10)
	at := len(b)
	b, err := view.NewPosition(a).AppendJSON(b)
	if err != nil {
		return err
	}
	b[at] = ',' // the position's object, its line first
	*buf = append(b, '\n')
	_, err = w.Write(*buf)
	return err
}

// lines holds the buffers AnswerLine writes its answers in.
var lines = sync.Pool{New: func() any { return new([]byte) }}
