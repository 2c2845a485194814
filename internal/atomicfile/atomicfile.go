// Package atomicfile owns writing as a unit: a file that appears whole or
// not at all, and a dataset, a folder of files, that replaces the earlier one
// in one atomic step. Export and render write through it.
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// Write writes data to a temporary file beside name and renames it into
// place, so that name holds the whole file or is untouched.
func Write(name string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp-*")
	if err != nil {
		return fmt.Errorf("%q cannot be written: %w", name, err)
	}
	defer os.Remove(f.Name())
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(0o644)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		return fmt.Errorf("%q cannot be written: %w", name, err)
	}
	return nil
}
