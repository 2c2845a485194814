package export

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
)

// stagedFile is one file of a dataset being written in its staging folder.
// It sums its bytes with SHA-256 as they are written; a write error sticks in
// its buffer and is returned by close.
type stagedFile struct {
	name string // the base name
	f    *os.File
	buf  *bufio.Writer
	sum  hash.Hash
	size int64
}

// createStaged creates name in dir; wrap, if not nil, stands between the
// buffer and the file (tests inject failures there).
func createStaged(dir, name string, wrap func(name string, w io.Writer) io.Writer) (*stagedFile, error) {
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, fmt.Errorf("cannot write %s: %w", name, err)
	}
	a := &stagedFile{name: name, f: f, sum: sha256.New()}
	var w io.Writer = f
	if wrap != nil {
		w = wrap(name, f)
	}
	a.buf = bufio.NewWriterSize(io.MultiWriter(w, a.sum), 1<<20)
	return a, nil
}

func (a *stagedFile) Write(p []byte) (int, error) {
	n, err := a.buf.Write(p)
	a.size += int64(n)
	return n, err
}

// close flushes, syncs and closes the file.
func (a *stagedFile) close() error {
	err := a.buf.Flush()
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

func (a *stagedFile) sha256() string { return hex.EncodeToString(a.sum.Sum(nil)) }
