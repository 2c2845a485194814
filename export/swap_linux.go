package export

import (
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
