//go:build unix

package extproc

import (
	"os/exec"
	"syscall"
)

// ownGroup starts the program in a process group of its own, so that the
// children it starts (a shell script's, a background sleep) can be stopped
// with it.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills the program's whole process group, which outlives the
// program itself while a child of it runs.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
