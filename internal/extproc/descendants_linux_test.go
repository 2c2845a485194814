package extproc

import (
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/tateti-lab/tateti-lab/internal/proctest"
)

// A child seen part way through exec shows an empty environment; it is
// looked at again, and killed once its mark shows. Here the window is made
// long: a shell with no environment at all waits, then execs a program that
// carries the mark.
func TestKillMarkedWaitsForExec(t *testing.T) {
	defer func(d time.Duration) { execWait = d }(execWait)
	execWait = time.Minute // the shell's wait and exec, however loaded the machine
	mark := markEnv + "=exec-window"
	// export, not env: an env in between would show an environment of its
	// own, neither empty nor marked, for as long as the machine lets it run.
	cmd := exec.Command("/bin/sh", "-c", "sleep 0.3; export "+mark+"; exec /bin/sleep 60")
	cmd.Env = []string{}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	go cmd.Wait()
	defer syscall.Kill(pid, syscall.SIGKILL)
	killMarked(mark, 0)
	if !proctest.WaitGone(pid) {
		t.Fatalf("process %d, marked after its first exec, is still running", pid)
	}
}
