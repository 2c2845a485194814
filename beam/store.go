package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/tateti-lab/tateti-lab/internal/atomicfile"
)

// A store is where the pipeline reads and writes its files: a local
// folder, or a folder of any filesystem Beam's Go SDK has registered
// (gs://, s3://, memfs://), which every worker reaches. In a local folder
// a file is written to a temporary name and renamed; an object store's
// file appears when its writer closes. Either way a file is whole or
// absent.
type store string

// local reports whether the store is a folder of this machine's.
func (s store) local() bool { return !strings.Contains(string(s), "://") }

// path gives the path of the file name in the store.
func (s store) path(name string) string {
	if s.local() {
		return filepath.Join(string(s), name)
	}
	return strings.TrimSuffix(string(s), "/") + "/" + name
}

// read gives the bytes of the file name.
func (s store) read(ctx context.Context, name string) ([]byte, error) {
	r, err := s.open(ctx, name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

// open opens the file name for reading.
func (s store) open(ctx context.Context, name string) (io.ReadCloser, error) {
	if s.local() {
		return os.Open(s.path(name))
	}
	fsys, err := filesystem.New(ctx, s.path(name))
	if err != nil {
		return nil, err
	}
	r, err := fsys.OpenRead(ctx, s.path(name))
	if err != nil {
		fsys.Close()
		return nil, fmt.Errorf("%s: %w", s.path(name), err)
	}
	return closers{r, fsys}, nil
}

// closers closes its reader, then what it was read through.
type closers struct {
	io.ReadCloser
	fsys io.Closer
}

func (c closers) Close() error {
	err := c.ReadCloser.Close()
	if ferr := c.fsys.Close(); err == nil {
		err = ferr
	}
	return err
}

// write writes pieces, one after another, as the file name.
func (s store) write(ctx context.Context, name string, pieces ...[]byte) error {
	return s.writeFrom(ctx, name, func(w io.Writer) error {
		for _, b := range pieces {
			if _, err := w.Write(b); err != nil {
				return err
			}
		}
		return nil
	})
}

// writeFrom writes what fill writes as the file name; when fill fails, the
// file is not written (an object store's writer is not closed).
func (s store) writeFrom(ctx context.Context, name string, fill func(io.Writer) error) error {
	if s.local() {
		return atomicfile.WriteFrom(s.path(name), fill)
	}
	fsys, err := filesystem.New(ctx, s.path(name))
	if err != nil {
		return err
	}
	defer fsys.Close()
	w, err := fsys.OpenWrite(ctx, s.path(name))
	if err != nil {
		return err
	}
	if err := fill(w); err != nil {
		return err
	}
	return w.Close()
}

// remove removes the file name; one already gone is no error.
func (s store) remove(ctx context.Context, name string) error {
	if s.local() {
		if err := os.Remove(s.path(name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	fsys, err := filesystem.New(ctx, s.path(name))
	if err != nil {
		return err
	}
	defer fsys.Close()
	rm, ok := fsys.(filesystem.Remover)
	if !ok {
		return fmt.Errorf("the filesystem of %s cannot remove files", s.path(name))
	}
	err = rm.Remove(ctx, s.path(name))
	if _, serr := fsys.Size(ctx, s.path(name)); err != nil && serr != nil {
		return nil // gone: a retried step finds what its first run removed
	}
	return err
}
