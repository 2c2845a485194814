package atomicfile

import (
	"errors"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// exchange swaps two paths in one atomic step (renameat2 RENAME_EXCHANGE).
func exchange(a, b string) error {
	return unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
}

// processAlive reports whether a process with this id exists.
func processAlive(pid int) bool {
	return syscall.Kill(pid, 0) != syscall.ESRCH
}

// createDirect creates path for writing around the page cache (O_DIRECT),
// and reports whether it could: file systems such as tmpfs cannot, and get
// a plain file. Large files written around the cache do not fill memory with
// pages nobody reads again (docs/design/page-cache.md).
func createDirect(path string) (*os.File, bool, error) {
	f, err := createPlain(path, syscall.O_DIRECT)
	if errors.Is(err, syscall.EINVAL) {
		f, err = createPlain(path, 0)
		return f, false, err
	}
	return f, err == nil, err
}

// endDirect turns f's direct writes off, for a last piece shorter than a
// block.
func endDirect(f *os.File) error {
	flags, err := unix.FcntlInt(f.Fd(), unix.F_GETFL, 0)
	if err == nil {
		_, err = unix.FcntlInt(f.Fd(), unix.F_SETFL, flags&^syscall.O_DIRECT)
	}
	return err
}
