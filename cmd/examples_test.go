package cmd

import (
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/tateti-lab/tateti-lab/internal/longtest"
)

// The example programs of README.md, run as README.md runs them. They need
// python3; where it is missing they are skipped, except in CI.
func TestExamples(t *testing.T) {
	py := python(t, "the README examples")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"checker", []string{"verify", "checker", "--", py, "../examples/checker.py"}, "ok: the program agrees on all 5,478 reachable boards"},
		{"checker under gravity", []string{"verify", "checker", "--gravity", "--size", "3x4", "--k", "4", "--", py, "../examples/checker.py"}, "ok: the program agrees on all 12,031 reachable boards"},
		{"solver", []string{"verify", "solver", "--check", "value,depth,best", "--", py, "../examples/solver.py"}, "ok: the program agrees on all 4,520 positions"},
		{"solver under misère gravity", []string{"verify", "solver", "--misere", "--gravity", "--size", "4x3", "--check", "value,depth,best", "--", py, "../examples/solver.py"}, "ok: the program agrees on all 1,801 positions"},
		{"agent", []string{"grade", "--", py, "../examples/agent.py"}, "accuracy: 93.76% of moves keep the value"},
		{"contest", []string{"judge", "uva10111", "--cases", "20", "--", py, "../examples/uva10111.py"}, "UVa 10111, 22 cases: Accepted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "contest" {
				longtest.Skip(t, "the judge solves free 4x4 whole, and the example plays 22 cases of it")
			}
			out, errOut, code := run(t, "", tt.args...)
			if code != 0 || !strings.Contains(out, tt.want) {
				t.Fatalf("exit %d, want 0 and %q\nstdout:\n%s\nstderr:\n%s", code, tt.want, out, errOut)
			}
		})
	}
}

// The client of examples/client.py, run as docs/protocols.md runs it: one
// tateti-lab process answers its positions one at a time.
func TestClientExample(t *testing.T) {
	c := exec.Command(python(t, "the client example"), "../examples/client.py", os.Args[0])
	c.Env = append(os.Environ(), mainEnv+"=1", "GORACE=atexit_sleep_ms=0")
	out, err := c.CombinedOutput()
	for _, want := range []string{
		"'4453': O wins in 36 plies, answered by book, best columns [3, 6, 7]\n",
		"'44444444': moves \"44444444\": move 7: column 4 is full",
		"1000 openings of 8 moves, one at a time: ",
	} {
		if err != nil || !strings.Contains(string(out), want) {
			t.Fatalf("%v; the client printed:\n%s\nwant a line with %q", err, out, want)
		}
	}
}

// interpreter is the path of the python3 on PATH, as python3 itself says
// it, asked once; empty where there is none.
var interpreter = sync.OnceValue(func() string {
	out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
})

// python gives the python3 interpreter that runs what, by its path: a
// version manager's shim on PATH (pyenv's) runs a few tenths of a second
// of shell scripts at every start, more than some of the checks take. It
// skips the test where python3 is missing, and fails it in CI.
func python(t *testing.T, what string) string {
	t.Helper()
	py := interpreter()
	if py == "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("python3 is missing, and CI must run %s", what)
		}
		t.Skipf("python3 is missing: %s is not run", what)
	}
	return py
}
