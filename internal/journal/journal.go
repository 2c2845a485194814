// Package journal owns the file a long run keeps its work in as it comes,
// so that a run stopped part way resumes from it: a header, a magic that
// says the file is a journal of this tool and a key that names the run,
// then records that the caller writes and reads. It opens such a file,
// begins it anew when it is another run's, refuses one that is no journal,
// and removes one once its run is done. The records' format is the
// caller's (oracle's answers, positions' games).
package journal

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ForeignError refuses a file, folder or link at a journal's path that is
// no journal of ours: bad input, left as it is, which the user moves away.
type ForeignError struct {
	Path string
	What string // what the journal keeps: "answers", "games"
}

func (e *ForeignError) Error() string {
	return fmt.Sprintf("%s is no journal of %s of this tool: move it away, or name another --out", e.Path, e.What)
}

// Check refuses, without writing, what Open refuses at path: a file,
// folder or link that is no journal whose files begin with magic (what
// names what it keeps). Nothing there, or such a journal, passes.
func Check(path, magic, what string) error {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("the journal of %s %s: %w", what, path, err)
	case !fi.Mode().IsRegular():
		return &ForeignError{Path: path, What: what}
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("the journal of %s %s: %w", what, path, err)
	}
	defer f.Close()
	data := make([]byte, len(magic))
	n, _ := io.ReadFull(f, data)
	if data = data[:n]; !bytes.HasPrefix([]byte(magic), data) {
		return &ForeignError{Path: path, What: what}
	}
	return nil
}

// Open opens the journal at path, whose files begin with magic, of the run
// that head (magic and the run's key) begins, and gives the file and a
// reader of what follows the head: nil when the file is new, cut short
// inside its magic, or another run's, which it begins anew. A file there
// that is not a journal (what names what it keeps) is refused and left as
// it is. The reader is buffered over the file, so that a journal of
// millions of records is read a record at a time, never held whole; the
// caller reads the records it holds, then cuts the file after the last
// whole one (Cut), which leaves it at the end for the next.
func Open(path, magic, what string, head []byte) (*os.File, *bufio.Reader, error) {
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, nil, &ForeignError{Path: path, What: what}
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("the journal of %s %s: %w", what, path, err)
	}
	data := make([]byte, len(head))
	n, err := io.ReadFull(f, data)
	switch data = data[:n]; {
	case err != nil && err != io.EOF && err != io.ErrUnexpectedEOF:
		err = fmt.Errorf("the journal of %s %s: %w", what, path, err)
	case !bytes.HasPrefix(data, []byte(magic)) && !bytes.HasPrefix([]byte(magic), data):
		err = &ForeignError{Path: path, What: what}
	case !bytes.Equal(data, head): // new, cut short, or another run's
		return f, nil, Cut(f, 0, head)
	default:
		return f, bufio.NewReaderSize(f, readSize), nil
	}
	f.Close()
	return nil, nil, err
}

// readSize is the buffer of the reader Open gives: large enough for a
// record of either kind, and for reads of the disk's own size.
const readSize = 1 << 16

// Head gives the first n bytes of the regular file at path: nil where
// there is none, or it is shorter, or it is no regular file (a FIFO or a
// folder there is left to Open to refuse). A caller reads an earlier
// version's magic with it, to refuse that journal with a word of its own.
func Head(path string, n int) []byte {
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	head := make([]byte, n)
	if _, err := io.ReadFull(f, head); err != nil {
		return nil
	}
	return head
}

// Cut cuts the journal f to its first size bytes, writes head after them,
// syncs it and leaves the file at its end: where the caller's last whole
// record ends, or a new head.
func Cut(f *os.File, size int64, head []byte) error {
	if err := f.Truncate(size); err != nil {
		return err
	}
	if _, err := f.Seek(size, io.SeekStart); err != nil {
		return err
	}
	if _, err := f.Write(head); err != nil {
		return err
	}
	return f.Sync()
}

// Remove removes the journal at path, whose files begin with magic, once
// its run is done: nothing when there is none, and an error, the file
// left as it is, when it is no journal.
func Remove(path, magic, what string) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	begin := make([]byte, len(magic))
	n, _ := io.ReadFull(f, begin)
	f.Close()
	if !bytes.HasPrefix([]byte(magic), begin[:n]) {
		return fmt.Errorf("%s is no journal of %s of this tool: left as it is", path, what)
	}
	return os.Remove(path)
}
