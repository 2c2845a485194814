package report

import (
	"encoding/json"
	"io"
	"strconv"

	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/view"
)

// Lines writes the answers to the positions a program sends (solve
// --stdin), a line of JSON each: an object whose "line" is the line's
// number, then the position as every --json answer gives it (Position),
// or, when the line is no position, its "error". Answers are held until
// Flush, or until they pass linesHeld bytes, and go out in one write:
// every write holds whole lines.
type Lines struct {
	w   io.Writer
	buf []byte
}

// linesHeld is the most bytes of answers Lines holds before it writes
// them without waiting for Flush.
const linesHeld = 16 << 10

// NewLines gives the Lines that write to w.
func NewLines(w io.Writer) *Lines { return &Lines{w: w, buf: make([]byte, 0, linesHeld)} }

// Answer holds the answer to line n: its analysis a, or bad, the error
// that makes the line no position.
func (l *Lines) Answer(n int, a perfect.Analysis, bad error) error {
	if bad != nil {
		b, err := json.Marshal(struct {
			Line  int    `json:"line"`
			Error string `json:"error"`
		}{n, bad.Error()})
		if err != nil {
			return err
		}
		l.buf = append(append(l.buf, b...), '\n')
	} else {
		b := strconv.AppendInt(append(l.buf, `{"line":`...), int64(n), 10)
		at := len(b)
		b, err := view.NewPosition(a).AppendJSON(b)
		if err != nil {
			return err
		}
		b[at] = ',' // the position's object, its line first
		l.buf = append(b, '\n')
	}
	if len(l.buf) >= linesHeld {
		return l.Flush()
	}
	return nil
}

// Flush writes the answers held, if any.
func (l *Lines) Flush() error {
	if len(l.buf) == 0 {
		return nil
	}
	_, err := l.w.Write(l.buf)
	l.buf = l.buf[:0]
	return err
}
