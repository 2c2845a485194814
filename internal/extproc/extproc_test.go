package extproc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tateti-lab/tateti-lab/internal/proctest"
)

// The test binary is also the program under test: with helperEnv set it runs
// helper instead of the tests.
const helperEnv = "EXTPROC_HELPER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(helper(mode))
	}
	os.Exit(m.Run())
}

// helper answers each line of stdin with the line itself, misbehaving as the
// mode says.
func helper(mode string) int {
	if mode == "sleep" {
		time.Sleep(time.Hour)
		return 0
	}
	if mode == "ignore-term" {
		signal.Ignore(syscall.SIGTERM)
	}
	if mode == "slow-start" { // a start-up, as an interpreter's or a model's
		time.Sleep(time.Second)
	}
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	for n := 1; in.Scan(); n++ {
		switch {
		case mode == "slow":
			time.Sleep(30 * time.Millisecond)
		case (mode == "hang" || mode == "ignore-term") && n > 3:
			out.Flush()
			time.Sleep(time.Hour)
		case mode == "forkexit" && n > 2:
			// A background child that holds stdout, and an exit before the
			// answers are all given.
			out.Flush()
			return leaveChild(false)
		case mode == "greedy" && n > 2:
			out.Flush()
			hog := make([]byte, 400<<20)
			for i := range hog { // touched, so that it is resident
				hog[i] = 1
			}
			time.Sleep(time.Hour)
			return int(hog[0])
		case mode == "crash" && n > 2:
			out.Flush()
			fmt.Fprintln(os.Stderr, "helper: panic: index out of range")
			return 3
		}
		fmt.Fprintln(out, in.Text())
		out.Flush()
	}
	if mode == "child" || mode == "escape" {
		return leaveChild(mode == "escape")
	}
	return 0
}

// leaveChild starts a background child that holds stdout and stderr open,
// in a session of its own when escape is set (as setsid sleep 600 & does),
// names it on stderr, and gives the exit code 0.
func leaveChild(escape bool) int {
	c := exec.Command(os.Args[0])
	c.Env = append(os.Environ(), helperEnv+"=sleep")
	c.Stdout, c.Stderr = os.Stdout, os.Stderr
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: escape}
	c.Start()
	fmt.Fprintf(os.Stderr, "child %d\n", c.Process.Pid)
	return 0
}

func start(t *testing.T, ctx context.Context, mode string, cfg Config, requests int) *Proc {
	t.Helper()
	cfg.Argv = []string{os.Args[0]}
	// GORACE: a race-enabled helper would otherwise sleep a second at exit.
	cfg.Env = append(cfg.Env, helperEnv+"="+mode, "GORACE=atexit_sleep_ms=0")
	p, err := Start(ctx, cfg, func(w io.Writer) error {
		for k := range requests {
			if _, err := fmt.Fprintf(w, "%d\n", k); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Stop)
	return p
}

// answers reads n lines and checks each echoes its request.
func answers(p *Proc, n int) (int, error) {
	for k := range n {
		l, err := p.Line()
		if err != nil {
			return k, err
		}
		if l != strconv.Itoa(k) {
			return k, fmt.Errorf("answer %d is %q", k, l)
		}
	}
	return n, nil
}

func TestRun(t *testing.T) {
	t.Parallel() // its programs mostly wait: it runs beside the other tests
	tests := []struct {
		name     string
		mode     string
		cfg      Config
		requests int
		answered int    // answers read before the error
		err      string // from reading the answers, or from Exit
	}{
		{"answers all", "echo", Config{Silence: 5 * time.Second}, 1000, 1000, ""},
		// 20 answers 30 ms apart take 600 ms, past what a silence of 400 ms
		// would allow as a budget, but never silent for 400 ms. The helper's
		// start-up has a limit of its own (the cases below hold it), so that
		// a race-enabled helper starting slowly on a busy machine is not
		// taken for a silence.
		{"slow but steady", "slow", Config{Silence: 400 * time.Millisecond, Start: 10 * time.Second}, 20, 20, ""},
		{"hangs", "hang", Config{Silence: 300 * time.Millisecond, Start: 10 * time.Second}, 10, 3, "gave no answer for 300ms"},
		// A start-up of a second: past a silence of 300 ms, within a start
		// limit of 5 s, which bounds the first answer alone.
		{"slow to start", "slow-start", Config{Silence: 300 * time.Millisecond}, 10, 0, "gave no answer for 300ms"},
		{"slow to start, given time", "slow-start", Config{Silence: 300 * time.Millisecond, Start: 5 * time.Second}, 10, 10, ""},
		{"slow to start, past its start limit", "slow-start", Config{Silence: 5 * time.Second, Start: 300 * time.Millisecond}, 10, 0, "gave no answer within 300ms of its start (set --start-timeout"},
		{"start limit, then silence", "hang", Config{Silence: 300 * time.Millisecond, Start: 5 * time.Second}, 10, 3, "gave no answer for 300ms"},
		{"over the total", "slow", Config{Total: 200 * time.Millisecond}, 20, 6, "ran past the total limit of 200ms"},
		{"crashes", "crash", Config{Silence: 5 * time.Second}, 5, 2, "exit status 3"},
		{"over its memory", "greedy", Config{Silence: 20 * time.Second, Memory: 100 << 20}, 5, 2, "used more than 100 MiB of memory (set --memory for more)"},
		{"within its memory", "echo", Config{Silence: 5 * time.Second, Memory: 100 << 20}, 100, 100, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel() // each its own program, mostly waiting on it
			p := start(t, context.Background(), tt.mode, tt.cfg, tt.requests)
			got, err := answers(p, tt.requests)
			if errors.Is(err, io.EOF) || err == nil {
				err = p.Exit()
			}
			if tt.err == "" {
				if err != nil || got != tt.requests {
					t.Fatalf("%d answers, %v; want %d and no error (stderr %q)", got, err, tt.requests, p.Stderr())
				}
				return
			}
			// Over the total, how many answers come first depends on timing.
			if err == nil || !strings.Contains(err.Error(), tt.err) || (tt.mode != "slow" && got != tt.answered) {
				t.Fatalf("%d answers, error %v; want %d and %q", got, err, tt.answered, tt.err)
			}
			var pe *Error
			if over := errors.As(err, &pe) && pe.OverMemory; over != (tt.cfg.Memory > 0) {
				t.Errorf("OverMemory %t, want %t", over, tt.cfg.Memory > 0)
			}
		})
	}
}

func TestCrashStderr(t *testing.T) {
	t.Parallel() // its own program and run mark, mostly waiting on it
	p := start(t, context.Background(), "crash", Config{Silence: 5 * time.Second}, 5)
	answers(p, 5)
	p.Exit()
	if got := p.Stderr(); !strings.Contains(got, "helper: panic: index out of range") {
		t.Fatalf("stderr tail %q, want the panic", got)
	}
}

// A child of the program that holds its stdout neither outlives the run nor
// makes the program look as if it did not exit.
func TestChildIsStopped(t *testing.T) {
	t.Parallel() // its own program and run mark, mostly waiting on it
	p := start(t, context.Background(), "child", Config{Silence: 2 * time.Second}, 3)
	if _, err := answers(p, 3); err != nil {
		t.Fatal(err)
	}
	if err := p.Exit(); err != nil {
		t.Fatalf("Exit = %v, want the program's clean exit", err)
	}
	if extra := p.Rest(); extra != "" {
		t.Fatalf("Rest = %q, want nothing", extra)
	}
	var pid int
	if _, err := fmt.Sscanf(p.Stderr(), "child %d", &pid); err != nil {
		t.Fatalf("stderr %q names no child: %v", p.Stderr(), err)
	}
	if !proctest.WaitGone(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("child %d is still running", pid)
	}
}

// A child that leaves the program's process group for a session of its own
// is stopped all the same: it carries the run's mark.
func TestEscapedChildIsStopped(t *testing.T) {
	t.Parallel() // its own program and run mark, mostly waiting on it
	p := start(t, context.Background(), "escape", Config{Silence: 5 * time.Second}, 3)
	if _, err := answers(p, 3); err != nil {
		t.Fatal(err)
	}
	if err := p.Exit(); err != nil {
		t.Fatalf("Exit = %v, want the program's clean exit", err)
	}
	var pid int
	if _, err := fmt.Sscanf(p.Stderr(), "child %d", &pid); err != nil {
		t.Fatalf("stderr %q names no child: %v", p.Stderr(), err)
	}
	if !proctest.WaitGone(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("child %d, in a session of its own, is still running", pid)
	}
}

// A program that leaves a child holding its output and exits before its
// last answer is found out at once, not after the silence limit.
func TestForkAndExitEndsSoon(t *testing.T) {
	t.Parallel() // its own program and run mark, mostly waiting on it
	p := start(t, context.Background(), "forkexit", Config{Silence: 30 * time.Second}, 10)
	begin := time.Now()
	n, err := answers(p, 10)
	if !errors.Is(err, io.EOF) || n != 2 {
		t.Fatalf("%d answers, then %v; want 2 and the end of the output", n, err)
	}
	if d := time.Since(begin); d > 5*time.Second {
		t.Fatalf("the end came after %v, want it within a few seconds of the exit", d)
	}
}

// Stopping the run, by a cancelled context, stops a program that ignores
// SIGTERM, and says it was the context.
func TestCancelStopsProgram(t *testing.T) {
	t.Parallel() // its own program and run mark, mostly waiting on it
	ctx, cancel := context.WithCancel(context.Background())
	p := start(t, ctx, "ignore-term", Config{}, 10)
	if _, err := answers(p, 3); err != nil {
		t.Fatal(err)
	}
	go func() { time.Sleep(100 * time.Millisecond); cancel() }()
	_, err := p.Line()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Line after cancel = %v, want context.Canceled", err)
	}
	if !proctest.WaitGone(p.cmd.Process.Pid) {
		t.Fatal("the program is still running")
	}
}

func TestCannotStart(t *testing.T) {
	_, err := Start(context.Background(), Config{Argv: []string{"/nonexistent/program"}}, func(io.Writer) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "cannot start") {
		t.Fatalf("Start = %v, want cannot start", err)
	}
}

// The memory bound is said in MiB where it is a whole number of them, in
// bytes otherwise: --memory 1B is not "0 MiB".
func TestOverMemoryWords(t *testing.T) {
	tests := []struct {
		name  string
		limit uint64
		want  string
	}{
		{"a byte", 1, "used more than 1 bytes of memory"},
		{"under a MiB", 512 << 10, "used more than 524288 bytes of memory"},
		{"whole MiB", 2 << 30, "used more than 2048 MiB of memory"},
		{"past a MiB, not whole", 1<<20 + 1, "used more than 1048577 bytes of memory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := overMemory(tt.limit); !strings.HasPrefix(got, tt.want) {
				t.Errorf("overMemory(%d) = %q, want %q", tt.limit, got, tt.want)
			}
		})
	}
}
