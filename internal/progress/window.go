package progress

import (
	"slices"
	"time"
)

// A Window measures a run's pace over its last span (paceSpan) rather
// than since it began, so that a pause (the process stopped, the machine
// busy elsewhere) stops weighing on the rate and the time left once it is
// that far back, and a pace that changes as the run goes on is the pace
// now. It keeps marks of counts, at most one each paceSpan/20, and
// measures from the oldest within the span.
type Window struct {
	marks []mark
}

// A mark is counts at a moment.
type mark struct {
	at time.Time
	n  []int64
}

// paceSpan is how far back a Window measures.
const paceSpan = 10 * time.Minute

// NewWindow gives a window whose first mark is the counts n at start.
func NewWindow(start time.Time, n ...int64) *Window {
	return &Window{marks: []mark{{start, slices.Clone(n)}}}
}

// Since notes the counts n at now, and gives the moment to measure the
// pace from and the counts then: the oldest mark within the span, which
// is now itself just after a pause longer than the span.
func (w *Window) Since(now time.Time, n ...int64) (time.Time, []int64) {
	if now.Sub(w.marks[len(w.marks)-1].at) >= paceSpan/20 {
		w.marks = append(w.marks, mark{now, slices.Clone(n)})
	}
	for len(w.marks) > 1 && now.Sub(w.marks[0].at) > paceSpan {
		w.marks = w.marks[1:]
	}
	return w.marks[0].at, w.marks[0].n
}
