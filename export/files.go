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

// atomicFile is written under a temporary name in its folder and renamed into
// place by commit, so that an interrupted export never leaves a truncated file
// under the final name. It sums its bytes with SHA-256 as they are written.
type atomicFile struct {
	name  string // the final base name
	final string
	f     *os.File
	buf   *bufio.Writer
	sum   hash.Hash
	size  int64
}

func createAtomic(dir, name string) (*atomicFile, error) {
	f, err := os.CreateTemp(dir, "."+name+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("cannot write in folder %q: %w", dir, err)
	}
	a := &atomicFile{name: name, final: filepath.Join(dir, name), f: f, sum: sha256.New()}
	a.buf = bufio.NewWriterSize(io.MultiWriter(f, a.sum), 1<<20)
	return a, nil
}

func (a *atomicFile) Write(p []byte) (int, error) {
	n, err := a.buf.Write(p)
	a.size += int64(n)
	return n, err
}

// commit flushes, syncs and renames the file into place.
func (a *atomicFile) commit() error {
	if err := a.buf.Flush(); err != nil {
		return fmt.Errorf("writing %s: %w", a.final, err)
	}
	if err := a.f.Chmod(0o644); err != nil { // CreateTemp makes 0600
		return fmt.Errorf("writing %s: %w", a.final, err)
	}
	if err := a.f.Sync(); err != nil {
		return fmt.Errorf("writing %s: %w", a.final, err)
	}
	if err := a.f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", a.final, err)
	}
	if err := os.Rename(a.f.Name(), a.final); err != nil {
		return fmt.Errorf("renaming into %s: %w", a.final, err)
	}
	return nil
}

// abort drops the temporary file; it is safe after commit.
func (a *atomicFile) abort() {
	a.f.Close()
	os.Remove(a.f.Name())
}

func (a *atomicFile) sha256() string { return hex.EncodeToString(a.sum.Sum(nil)) }
