// Package term owns what a command needs to know of the streams it writes:
// whether one is a terminal, and a writer that keeps the first error, so
// that a run whose output could not be written fails even where a printer
// ignores the error.
package term

import (
	"io"
	"os"
)

// Is reports whether w is a terminal.
func Is(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// Sticky passes writes on to W and keeps the first error, Err; every write
// after it fails with it.
type Sticky struct {
	W      io.Writer
	Err    error
	Before func() // called before each write, if set
}

// Write writes p to W, unless a write failed before.
func (s *Sticky) Write(p []byte) (int, error) {
	if s.Err != nil {
		return 0, s.Err
	}
	if s.Before != nil {
		s.Before()
	}
	n, err := s.W.Write(p)
	s.Err = err
	return n, err
}
