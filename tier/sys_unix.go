//go:build unix

package tier

import (
	"os"

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
