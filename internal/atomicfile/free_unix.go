//go:build unix

package atomicfile

import (
	"path/filepath"

	"golang.org/x/sys/unix"
)

// Free gives the bytes the file system of dir (or of its nearest existing
// parent) has free for this user, what a file or dataset written there may
// take; 0 when it cannot tell.
func Free(dir string) uint64 {
	for {
		var st unix.Statfs_t
		if err := unix.Statfs(dir, &st); err == nil {
			return st.Bavail * uint64(st.Bsize)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return 0
		}
		dir = parent
	}
}
