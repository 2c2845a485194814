//go:build !unix

package extproc

import "os/exec"

// ownGroup keeps the default here: there are no process groups to use.
func ownGroup(cmd *exec.Cmd) {}

// killGroup kills the program itself; its children are not reached here.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
