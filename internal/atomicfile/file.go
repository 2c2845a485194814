package atomicfile

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// blockSize aligns direct writes: their buffer, length and file offset are
// multiples of it (4096 covers the logical blocks of every common disk).
const blockSize = 4096

// bufferSize is how much a staged file holds before it writes: a multiple of
// blockSize.
const bufferSize = 4 << 20

// File is one file of a dataset being written in its staging folder.
// It holds its bytes in block-aligned buffers and sums them with SHA-256; a
// goroutine of its own writes each full buffer while the next one fills,
// around the page cache where the file system allows (see createDirect). The
// first write error sticks: later writes return it, and so does close.
type File struct {
	name   string // the base name
	f      *os.File
	direct bool      // f was opened for direct writes
	w      io.Writer // f, or what a test wraps it in
	buf    []byte    // being filled; starts on a block boundary, cap bufferSize
	held   int       // the buffers the file took from buffers: 1 or 2
	sum    hash.Hash
	size   int64
	err    error

	full   chan []byte           // buffers for the writer, in order
	free   chan []byte           // buffers the writer is done with
	failed atomic.Pointer[error] // the writer's first error
	ended  chan struct{}         // closed when the writer has ended
}

// create creates name in dir; wrap, if not nil, stands between the
// buffer and the file (tests inject failures there).
func create(dir, name string, wrap func(name string, w io.Writer) io.Writer) (*File, error) {
	f, direct, err := createDirect(filepath.Join(dir, name))
	if err != nil {
		return nil, fmt.Errorf("cannot write %s: %w", name, err)
	}
	return newFile(name, f, direct, wrap), nil
}

// createPlain creates path for writing, a new file: the open that
// createDirect adds O_DIRECT to.
func createPlain(path string, flags int) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|flags, 0o666)
}

// newFile starts the writer of f; direct says whether f was opened for
// direct writes.
func newFile(name string, f *os.File, direct bool, wrap func(name string, w io.Writer) io.Writer) *File {
	a := &File{name: name, f: f, direct: direct, w: f, buf: takeBuffer(), held: 1, sum: sha256.New(),
		full: make(chan []byte, 1), free: make(chan []byte, 2), ended: make(chan struct{})}
	if wrap != nil {
		a.w = wrap(name, f)
	}
	go a.writer()
	return a
}

// writer writes the full buffers in order until full is closed, and hands
// each back. After an error it only hands them back.
func (a *File) writer() {
	defer close(a.ended)
	for b := range a.full {
		if a.failed.Load() == nil {
			if err := a.write(b); err != nil {
				a.failed.Store(&err)
			}
		}
		a.free <- b[:0]
	}
}

// buffers holds the block-aligned buffers of bufferSize that files are done
// with, for the next file: a dataset of many small files, or a process
// that writes many datasets, reuses a few instead of clearing 4 MiB a file.
var buffers = sync.Pool{New: func() any {
	b := make([]byte, bufferSize+blockSize)
	off := -int(uintptr(unsafe.Pointer(&b[0]))) & (blockSize - 1)
	b = b[off : off : off+bufferSize]
	return &b
}}

// takeBuffer gives an empty buffer of capacity bufferSize that starts on a
// block boundary.
func takeBuffer() []byte { return (*buffers.Get().(*[]byte))[:0] }

// release hands the file's buffers back to buffers once its writer has
// ended; the file keeps none.
func (a *File) release() {
	for a.held--; a.held > 0; a.held-- {
		b := <-a.free
		buffers.Put(&b)
	}
	b := a.buf
	buffers.Put(&b)
	a.buf = nil
}

// Write adds p to the file's buffer, which a goroutine writes to disk
// when full, and to its SHA-256. After a failed write it gives that
// failure, and keeps nothing more.
func (a *File) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 && a.err == nil {
		k := copy(a.buf[len(a.buf):cap(a.buf)], p)
		a.buf, p = a.buf[:len(a.buf)+k], p[k:]
		if len(a.buf) == cap(a.buf) {
			a.sum.Write(a.buf)
			a.full <- a.buf
			if a.held == 1 { // the second buffer, taken when the first is full
				a.buf, a.held = takeBuffer(), 2
			} else {
				a.buf = <-a.free
			}
			if err := a.failed.Load(); err != nil {
				a.err = *err
			}
		}
	}
	if a.err != nil {
		return 0, a.err
	}
	a.size += int64(n)
	return n, nil
}

// write writes b. A direct file whose writes are refused (EINVAL: a file
// system that opens for direct writes but does not do them) goes on
// through the page cache.
func (a *File) write(b []byte) error {
	n, err := a.w.Write(b)
	if err != nil && a.direct && errors.Is(err, syscall.EINVAL) {
		if err = endDirect(a.f); err == nil {
			_, err = a.w.Write(b[n:])
		}
	}
	return err
}

// flush sums and writes b here, unless an earlier write failed.
func (a *File) flush(b []byte) {
	if a.err != nil || len(b) == 0 {
		return
	}
	a.sum.Write(b)
	a.err = a.write(b)
}

// Close waits for the writer, writes what the buffer holds, syncs and closes
// the file. A direct file writes its whole blocks directly and the rest,
// shorter than a block, through the page cache.
func (a *File) Close() error {
	if err := a.stop(); a.err == nil {
		a.err = err
	}
	whole := len(a.buf)
	if a.direct {
		whole &^= blockSize - 1
	}
	a.flush(a.buf[:whole])
	if whole < len(a.buf) && a.err == nil {
		a.err = endDirect(a.f)
		a.flush(a.buf[whole:])
	}
	a.release()
	err := a.err
	if err == nil {
		err = a.f.Sync()
	}
	if cerr := a.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", a.name, err)
	}
	return nil
}

// Abandon ends the writer and closes the file unwritten, for a dataset that
// will not be committed.
func (a *File) Abandon() {
	a.stop()
	a.release()
	a.f.Close()
}

// stop ends the writer once it has written the buffers handed to it, and
// gives its first error.
func (a *File) stop() error {
	close(a.full)
	<-a.ended
	if err := a.failed.Load(); err != nil {
		return *err
	}
	return nil
}

// SHA256 is the hex SHA-256 of the bytes the file holds once written
// whole (after Close).
func (a *File) SHA256() string { return hex.EncodeToString(a.sum.Sum(nil)) }

// Name is the file's base name.
func (a *File) Name() string { return a.name }

// Size is the bytes written so far.
func (a *File) Size() int64 { return a.size }
