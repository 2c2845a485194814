//go:build unix

package atomicfile

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// keepOwner gives f the owner and group of old, where this process may (as
// root it may; otherwise the file is the process's own, as a new file would
// be).
func keepOwner(f *os.File, old fs.FileInfo) {
	if st, ok := old.Sys().(*syscall.Stat_t); ok {
		_ = f.Chown(int(st.Uid), int(st.Gid))
	}
}

// mountPoint reports whether the folder dir is where a file system is
// mounted: its device differs from its parent's. A folder replaced whole
// by a rename cannot be one (the rename fails with EBUSY).
func mountPoint(dir string) bool {
	a, errA := os.Stat(dir)
	b, errB := os.Stat(filepath.Dir(dir))
	if errA != nil || errB != nil {
		return false
	}
	sa, okA := a.Sys().(*syscall.Stat_t)
	sb, okB := b.Sys().(*syscall.Stat_t)
	return okA && okB && sa.Dev != sb.Dev
}

// writable reports whether this process may change the folder dir (add and
// remove its entries, rename it), as access(2) with W_OK says.
func writable(dir string) bool {
	return syscall.Access(dir, 2) == nil // W_OK
}
