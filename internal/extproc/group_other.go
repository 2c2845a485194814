//go:build !unix

package verify

import "os/exec"

// killGroup keeps exec's default: cancelling kills the program itself.
func killGroup(cmd *exec.Cmd) {}
