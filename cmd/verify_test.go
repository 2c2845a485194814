package cmd

import (
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/tateti-lab/tateti-lab/internal/fakeprog"
	"github.com/tateti-lab/tateti-lab/internal/proctest"
)

// mainEnv makes the test binary run the command line itself, for the tests
// that send it real signals; readyEnv names the file it writes once its
// signal handlers are set (signalsSet).
const (
	mainEnv  = "TATETI_LAB_MAIN"
	readyEnv = "TATETI_LAB_READY"
)

func TestMain(m *testing.M) {
	if os.Getenv(mainEnv) == "1" {
		os.Unsetenv(mainEnv) // a checker it starts is the fake checker, not this
		if ready := os.Getenv(readyEnv); ready != "" {
			os.Unsetenv(readyEnv)
			signalsSet = func() { os.WriteFile(ready, nil, 0o600) }
		}
		os.Exit(Execute())
	}
	if os.Getenv(fakeprog.Env) == "" { // the tests, not a program they run
		flag.Parse()
		if !parallelGiven() {
			// The parallel tests mostly wait on programs they run, signals
			// and timers: four at a time, not one a core.
			flag.Set("test.parallel", strconv.Itoa(max(4, runtime.GOMAXPROCS(0))))
		}
	}
	os.Exit(fakeprog.TestMain(m))
}

// parallelGiven says whether go test was given -parallel.
func parallelGiven() (given bool) {
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	return given
}

// self is the test binary: with fakeprog.Env set it is a checker program.
func self(t *testing.T) string {
	t.Helper()
	return os.Args[0]
}

func TestVerifyExternal(t *testing.T) {
	seed000 := []string{"--cells", "0,1,-1", "--results", "0,1,2,3"}
	seed002 := []string{"--cells", "1,2,0", "--results", "1,2,0,-1"}
	tests := []struct {
		name   string
		mode   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"the prime-product article convention", "seed000", seed000, 0, "ok: the program agrees on all 5,478 reachable boards", ""},
		{"the Codewars product kata convention", "seed002", seed002, 0, "ok: the program agrees on all 5,478 reachable boards", ""},
		{"all boards", "seed000", append([]string{"--all-boards"}, seed000...), 0, "boards that cannot arise: 14,205", ""},
		// The anti-diagonal X../.X./X.. class: the first board is drawn with what was expected.
		{"forgets the anti-diagonal", "noanti", seed000, 1, "OOX/.X./X.. (state 827)\n    . X .    expected x_won, got in_progress", ""},
		{"crashes", "crash", seed000, 2, "", "stopped early: exit status 3 (10 of 5478 answers read); the end of its stderr:\nfakeprog: index out of range"},
		{"hangs", "hang", append([]string{"--timeout", "300ms"}, seed000...), 2, "", "gave no answer for 300ms"},
		{"prints garbage", "garbage", seed000, 2, "", `answered "maybe" to request 4, want one of 0, 1, 2, 3`},
		{"answers too much", "extra", seed000, 2, "", "printed more answers than requests"},
		// 1.5 s of answers in all, never silent for 1 s: --timeout is a limit
		// on silence, not a budget for the run.
		{"slow but steady", "slow", append([]string{"--timeout", "1s"}, seed000...), 0, "ok: the program agrees on all 5,478", ""},
		{"over the total limit", "slow", append([]string{"--total-timeout", "300ms"}, seed000...), 2, "", "ran past the total limit of 300ms"},
		{"stops short", "short", seed000, 2, "", "exited with status 0 before answering every request (5 of 5478 answers read)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(fakeprog.Env, tt.mode)
			args := append(append([]string{"verify", "checker"}, tt.args...), "--", self(t))
			out, errOut, code := run(t, "", args...)
			if code != tt.code {
				t.Fatalf("exit code = %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, out, errOut)
			}
			if !strings.Contains(out, tt.stdout) || !strings.Contains(errOut, tt.stderr) {
				t.Fatalf("stdout:\n%s\nstderr:\n%s\nwant stdout to contain %q and stderr %q", out, errOut, tt.stdout, tt.stderr)
			}
		})
	}
}

func TestVerifyExternalUsage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"cells without a program", []string{"verify", "--cells", "0,1,-1"}, "unknown flag: --cells"},
		{"total without a program", []string{"verify", "--total-timeout", "1m"}, "unknown flag: --total-timeout"},
		{"negative total", []string{"verify", "checker", "--total-timeout", "-1s", "--", "x"}, "--total-timeout -1s is not a time to wait"},
		{"too few cells", []string{"verify", "checker", "--cells", "0,1", "--", "x"}, `--cells "0,1" has 2 tokens, want 3`},
		{"repeated result", []string{"verify", "checker", "--results", "1,1,2,3", "--", "x"}, `names "1" twice`},
		{"the program before --", []string{"verify", "checker", "python3", "check.py"}, `"python3" is not a flag of tateti-lab verify checker: give the program and its arguments after --`},
		{"no such program", []string{"verify", "checker", "--", "/nonexistent/checker"}, "cannot start"},
		{"zero timeout", []string{"verify", "checker", "--timeout", "0s", "--", "x"}, "--timeout 0s is not a time to wait"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := run(t, "", tt.args...)
			if code != exitUsage || !strings.Contains(errOut, tt.want) {
				t.Fatalf("exit %d, stderr %q; want exit %d and %q", code, errOut, exitUsage, tt.want)
			}
		})
	}
}

// A background child of the checker that holds its stdout neither outlives
// the run nor makes the checker look as if it did not exit.
func TestVerifyExternalChild(t *testing.T) {
	pids := filepath.Join(t.TempDir(), "pids")
	t.Setenv(fakeprog.Env, "child")
	t.Setenv(fakeprog.PIDFile, pids)
	out, errOut, code := run(t, "", "verify", "checker", "--cells", "0,1,-1", "--results", "0,1,2,3", "--timeout", "5s", "--", self(t))
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	for _, pid := range readPIDs(t, pids, 2) {
		if !proctest.WaitGone(pid) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("process %d is still running after the run", pid)
		}
	}
}
