//go:build unix

package tier

import (
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// lock takes an exclusive lock on the file or folder name, without
// waiting; unlock releases it. The system releases it too when the process
// ends.
func lock(name string) (unlock func(), err error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil
}

// freeDisk gives the bytes the file system of dir (or of its nearest
// existing parent) has free for this user; 0 when it cannot tell.
func freeDisk(dir string) uint64 {
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
