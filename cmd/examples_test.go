package cmd

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/tateti-lab/tateti-lab/internal/longtest"
)

// The example programs of README.md, run as README.md runs them. They need
// python3; where it is missing they are skipped, except in CI.
func TestExamples(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("python3 is missing, and CI must run the README examples")
		}
		t.Skip("python3 is missing: the README examples are not run")
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"checker", []string{"verify", "checker", "--", "python3", "../examples/checker.py"}, "ok: the program agrees on all 5,478 reachable boards"},
		{"checker under gravity", []string{"verify", "checker", "--gravity", "--size", "3x4", "--k", "4", "--", "python3", "../examples/checker.py"}, "ok: the program agrees on all 12,031 reachable boards"},
		{"solver", []string{"verify", "solver", "--check", "value,depth,best", "--", "python3", "../examples/solver.py"}, "ok: the program agrees on all 4,520 positions"},
		{"solver under misère gravity", []string{"verify", "solver", "--misere", "--gravity", "--size", "4x3", "--check", "value,depth,best", "--", "python3", "../examples/solver.py"}, "ok: the program agrees on all 1,801 positions"},
		{"agent", []string{"grade", "--", "python3", "../examples/agent.py"}, "accuracy: 93.76% of moves keep the value"},
		{"contest", []string{"judge", "uva10111", "--cases", "20", "--", "python3", "../examples/uva10111.py"}, "UVa 10111, 22 cases: Accepted"},
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
	if _, err := exec.LookPath("python3"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("python3 is missing, and CI must run the client example")
		}
		t.Skip("python3 is missing: the client example is not run")
	}
	c := exec.Command("python3", "../examples/client.py", os.Args[0])
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
