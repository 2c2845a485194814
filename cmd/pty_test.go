//go:build linux

package cmd

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// onTerminal runs the command line with its stdout and stderr on one
// pseudo-terminal, as a person at a terminal would, and gives all it wrote
// there.
func onTerminal(t *testing.T, env []string, args ...string) string {
	t.Helper()
	return terminal(t, env, true, args...)
}

// terminal runs the command line with its stderr on a pseudo-terminal,
// and its stdout there too when both, else nowhere, and gives all it wrote
// on the terminal.
func terminal(t *testing.T, env []string, both bool, args ...string) string {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer master.Close()
	fd := int(master.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	tty, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	c := exec.Command(os.Args[0], args...)
	c.Env = append(append(os.Environ(), mainEnv+"=1", "GORACE=atexit_sleep_ms=0"), env...)
	c.Stdout, c.Stderr = tty, tty
	if !both {
		c.Stdout = nil // the null device
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close()
	var out bytes.Buffer
	io.Copy(&out, master) // ends with EIO once the terminal's last writer is gone
	if err := c.Wait(); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, out.String())
	}
	return out.String()
}

// On a terminal, long work shows its progress on stderr, and the output
// starts on a line of its own: the progress line is cleared before it.
// --quiet shows no progress.
func TestTerminal(t *testing.T) {
	t.Parallel() // its programs wait on signals and time more than they work
	if testing.Short() {
		t.Skip("runs two seconds of work on a terminal; run without -short")
	}
	// Two seconds of one worker here: past the second progress waits
	// before it shows, on a machine twice as fast too.
	args := []string{"solve", "--gravity", "--size", "4x5", "--k", "4", "--workers", "1"}
	first := "4x5 board, 4 in a row, gravity, X first: "
	out := onTerminal(t, nil, args...)
	at := strings.Index(out, first)
	if at < 0 || !strings.Contains(out[:at], "positions") {
		t.Fatalf("the output holds no progress before its first line %q:\n%q", first, out)
	}
	// A carriage return and a clear of the line come right before the
	// output, so that it starts at the left of an empty line.
	if !strings.HasSuffix(out[:at], "\r\x1b[K") {
		t.Fatalf("the output's first line is glued to what came before: %q", out[max(0, at-80):at+len(first)])
	}
}

// Results are painted in their colours on a terminal, and never with
// NO_COLOR set or off a terminal.
func TestColour(t *testing.T) {
	args := []string{"solve", "--position", "XX./O../..."}
	green, red := "\x1b[32m", "\x1b[31m"
	out := onTerminal(t, []string{"NO_COLOR="}, args...)
	// O to move loses: the value and most moves in red, none in green.
	if !strings.Contains(out, red+"X wins by move 7\x1b[0m") || !strings.Contains(out, red+"L") || strings.Contains(out, green) {
		t.Fatalf("on a terminal the results are not painted as they should be:\n%q", out)
	}
	if plain := onTerminal(t, []string{"NO_COLOR=1"}, args...); strings.Contains(plain, "\x1b[") {
		t.Fatalf("with NO_COLOR the output holds colours:\n%q", plain)
	}
	if piped, _, _ := run(t, "", args...); strings.Contains(piped, "\x1b[") {
		t.Fatalf("off a terminal the output holds colours:\n%q", piped)
	}
}

// Under --quiet a command on a terminal leaves nothing on it but errors:
// no progress line, no estimate, plan or note.
func TestQuietOnTerminal(t *testing.T) {
	t.Parallel() // its programs wait on signals and time more than they work
	for _, tt := range quietCases(t.TempDir()) {
		t.Run(tt.name, func(t *testing.T) {
			skipHeavyQuiet(t, tt.name)
			if got := terminal(t, nil, false, append(tt.args, "-q")...); got != "" {
				t.Errorf("the terminal shows %q; want nothing", got)
			}
		})
	}
}
