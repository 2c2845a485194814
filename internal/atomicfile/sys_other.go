//go:build !linux

package atomicfile

import (
	"errors"
	"os"
)

// exchange is not available here: swapIn falls back to two renames.
func exchange(a, b string) error { return errors.New("no atomic exchange on this system") }

// processAlive cannot tell here, so staging folders of other runs are kept.
func processAlive(pid int) bool { return true }

// createDirect creates a plain file here: there is no O_DIRECT.
func createDirect(path string) (*os.File, bool, error) {
	f, err := createPlain(path, 0)
	return f, false, err
}

// endDirect has nothing to do here.
func endDirect(*os.File) error { return nil }
