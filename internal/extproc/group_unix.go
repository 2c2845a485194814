//go:build unix

package verify

import (
	"os/exec"
	"syscall"
)

// killGroup starts the program in a process group of its own and makes
// cancelling kill the whole group, so that a shell script's children die too.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
