// Package atomicfile owns writing as a unit: a file that appears whole or
// not at all, and a dataset, a folder of files, that replaces the earlier one
// in one atomic step. Export and render write through it.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// Write puts data at name as a unit, and replaces only what it may:
//   - no file, or a regular file: data goes to a temporary file beside it,
//     which is renamed over it, so that name holds the whole file or is
//     untouched. The file keeps the mode (and, where the system allows, the
//     owner) of the one it replaces; a new one gets 0666 less the umask.
//   - a symbolic link: it is followed, and its target is written so; the link
//     stays.
//   - a device (/dev/null, a terminal) or a FIFO: it is written in place, as
//     a shell's redirection would; it is never replaced by a file.
//   - a folder: refused.
func Write(name string, data []byte) error { return WriteParts(name, data) }

// WriteParts is Write of parts one after another, for data kept in pieces
// that would cost memory to join (a database's compressed blocks).
func WriteParts(name string, parts ...[]byte) error {
	return WriteFrom(name, func(w io.Writer) error {
		for _, b := range parts {
			if _, err := w.Write(b); err != nil {
				return err
			}
		}
		return nil
	})
}

// WriteFrom is Write of what fill writes, for data made as it is written
// (a tier file copied from its parts one at a time). When fill fails,
// name is left as it was, and the error wraps fill's.
func WriteFrom(name string, fill func(io.Writer) error) error {
	target, err := resolve(name)
	if err != nil {
		return err
	}
	fi, err := os.Stat(target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return replace(target, fill, nil)
	case err != nil:
		return fmt.Errorf("%q cannot be written: %w", name, err)
	case fi.IsDir():
		return fmt.Errorf("%q is a folder; name a file", name)
	case !fi.Mode().IsRegular():
		return writeInPlace(name, target, fill)
	}
	return replace(target, fill, fi)
}

// resolve follows name through symbolic links to the path to write, which
// may not exist yet (a dangling link names the file it would make).
func resolve(name string) (string, error) {
	for range 40 { // as many links as Linux follows
		fi, err := os.Lstat(name)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return name, nil
		}
		link, err := os.Readlink(name)
		if err != nil {
			return "", fmt.Errorf("%q cannot be read as a link: %w", name, err)
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(name), link)
		}
		name = link
	}
	return "", fmt.Errorf("%q: too many levels of symbolic links", name)
}

// writeInPlace writes what fill writes to target, a device or a FIFO, as
// it is.
func writeInPlace(name, target string, fill func(io.Writer) error) error {
	f, err := os.OpenFile(target, os.O_WRONLY, 0)
	if err == nil {
		err = fill(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return fmt.Errorf("%q cannot be written: %w", name, err)
	}
	return nil
}

// replace writes what fill writes to a new file beside target and renames
// it over target, with the mode and owner of old, the file it replaces
// (nil: none).
func replace(target string, fill func(io.Writer) error, old fs.FileInfo) error {
	f, err := createBeside(target)
	if err != nil {
		return fmt.Errorf("%q cannot be written: %w", target, err)
	}
	defer os.Remove(f.Name()) // nothing left after a rename
	err = fill(f)
	if err == nil && old != nil {
		if err = f.Chmod(old.Mode().Perm()); err == nil {
			keepOwner(f, old)
		}
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), target)
	}
	if err != nil {
		return fmt.Errorf("%q cannot be written: %w", target, err)
	}
	return nil
}

// TempInfix is in the name of every temporary file Write makes beside its
// target, .<target>.tmp-<random>: a file that holds it is one a killed
// process left.
const TempInfix = ".tmp-"

// createBeside creates a new temporary file in target's folder, named after
// it, with mode 0666 less the umask: what a new file gets.
func createBeside(target string) (*os.File, error) {
	dir, base := filepath.Split(target)
	for {
		name := filepath.Join(dir, "."+base+TempInfix+strconv.FormatUint(rand.Uint64(), 36))
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
}

// CheckFile makes sure path names a file Write can write, before any work:
// its folder exists, and it is not a folder itself; example names such a
// file, for the error.
func CheckFile(path, example string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("%q is a folder; name the file to write, such as %s", path, filepath.Join(path, example))
	}
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || !fi.IsDir() {
		return fmt.Errorf("%q: the folder %s is missing; create it or name another", path, filepath.Dir(path))
	}
	return nil
}
