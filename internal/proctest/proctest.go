//go:build unix

// Package proctest owns the checks tests make that a process is gone.
package proctest

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"
)

// Gone reports whether process pid has ended. A zombie counts as ended: in a
// container nobody may reap an orphan.
func Gone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(f) > 0 && f[0] == "Z"
}

// WaitGone waits up to two seconds for process pid to end, and says whether
// it did.
func WaitGone(pid int) bool {
	for range 100 {
		if Gone(pid) {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}
