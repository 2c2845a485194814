// Package fakeprog holds the external programs the tests run: a win checker,
// a solver, agents and UVa 10111 contestants, right or wrong on purpose, each
// able to misbehave. A test binary whose environment has Env set runs Main
// instead of its tests (see TestMain), so tests can start it as os.Args[0].
// The solver and the agents use a minimax of their own, not package solve.
package fakeprog

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Env is the variable that names the role, or a fault of the seed000
// checker (the checker modes of the first tests):
//
//	seed000        checker: cells 0,1,-1 and results 0,1,2,3, answered right
//	seed002        checker: cells 1,2,0 and results 1,2,0,-1, answered right
//	noanti         checker: seed000, but it forgets the anti-diagonals
//	solver         solver: "value depth best..." for every position, right
//	solver-wrong   solver: right but on one position, ".../.X./..." (cells X,O,.)
//	solver-noundo  solver: values from the contest-programming report's minimax that does not undo a move
//	solver-depth   solver: right values, but a depth one too many past 4 plies
//	agent-first    agent: the first legal cell
//	agent-empty    agent: the first empty cell, whatever the rules
//	agent-perfect  agent: the first best move
//	uva            UVa 10111: the first winning move, right
//	uva-last       UVa 10111: the last winning move instead
//	uva-space      UVa 10111: "(1, 2)", a space too many
//	sleep          no protocol: it sleeps for an hour (the child of fault child)
//
// Any other value is a fault (below) of the seed000 checker.
const Env = "TATETI_FAKE_CHECKER"

// Fault is the variable that names a misbehaviour for any role:
//
//	crash    it dies after 10 answers, writing to stderr (UVa: after one case)
//	hang     it stops answering after 10 and sleeps (UVa: after one case)
//	garbage  its 4th answer is "maybe"
//	extra    one answer too many at the end
//	debug    a line of its own ("debug: started") before its first answer
//	short    it exits 0 after 5 answers
//	slow     the first 10 answers take 150 ms each
//	child    at the end it leaves a background child holding its stdout
const Fault = "TATETI_FAKE_FAULT"

// PIDFile is the variable that names a file for process ids: the program
// writes its own, and with fault child the child's, one a line.
const PIDFile = "TATETI_FAKE_PIDFILE"

// OnceFile is the variable that names a file for the faults that come once
// in a whole test (silent-once): the first program to misbehave makes it,
// and none misbehaves after, whatever program is started anew.
const OnceFile = "TATETI_FAKE_ONCE"

// TestMain is for a test package's TestMain: when Env names a role, the test
// binary is that program and TestMain runs it; otherwise it runs the tests.
// Either way it returns the exit code.
//
//	func TestMain(m *testing.M) { os.Exit(fakeprog.TestMain(m)) }
func TestMain(m interface{ Run() int }) int {
	if role := os.Getenv(Env); role != "" {
		return Main(role, os.Getenv(Fault), os.Stdin, os.Stdout, os.Stderr)
	}
	// A race-enabled test binary sleeps a second at exit by default; the
	// programs these tests start are such binaries, and the timing tests
	// would see that second as a program slow to exit.
	os.Setenv("GORACE", "atexit_sleep_ms=0")
	return m.Run()
}

// notePID appends pid to the file PIDFile names, if any.
func notePID(pid int) {
	if name := os.Getenv(PIDFile); name != "" {
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err == nil {
			fmt.Fprintln(f, pid)
			f.Close()
		}
	}
}

// Main runs the program of role with fault on stdin and stdout and returns
// its exit code.
func Main(role, fault string, stdin io.Reader, stdout, stderr io.Writer) int {
	if role == "sleep" {
		time.Sleep(time.Hour)
		return 0
	}
	notePID(os.Getpid())
	answer, ok := roles[role]
	if !ok && !strings.HasPrefix(role, "uva") {
		role, fault, answer = "seed000", role, roles["seed000"]
	}
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	if fault == "slow-start" { // a start-up, as an interpreter's or a model's load
		time.Sleep(1500 * time.Millisecond)
	}
	var code int
	if strings.HasPrefix(role, "uva") {
		code = contestant(role, fault, stdin, out, stderr)
	} else {
		code = lines(answer, fault, stdin, out, stderr)
	}
	if code != 0 {
		return code
	}
	if fault == "extra" {
		fmt.Fprintln(out, "0")
	}
	if fault == "child" {
		out.Flush()
		c := exec.Command(os.Args[0])
		c.Env = append(os.Environ(), Env+"=sleep")
		c.Stdout, c.Stderr = os.Stdout, os.Stderr
		if c.Start() == nil {
			notePID(c.Process.Pid)
		}
	}
	return 0
}

// lines answers each request line with answer, misbehaving as fault says.
func lines(answer func(g *rules, fields []string) string, fault string, stdin io.Reader, out *bufio.Writer, stderr io.Writer) int {
	g := rulesFromEnv()
	in := bufio.NewScanner(stdin)
	for n := 1; in.Scan(); n++ {
		if code, stop := misbehave(fault, n, out, stderr); stop {
			return code
		}
		if fault == "debug" && n == 1 {
			fmt.Fprintln(out, "debug: started")
		}
		if fault == "garbage" && n == 4 {
			fmt.Fprintln(out, "maybe")
			continue
		}
		fmt.Fprintln(out, answer(g, strings.Fields(in.Text())))
		out.Flush() // a conversation (grade --games) asks one at a time
	}
	return 0
}

// misbehave acts out fault before the nth answer; stop says to end with code.
func misbehave(fault string, n int, out *bufio.Writer, stderr io.Writer) (code int, stop bool) {
	switch {
	case fault == "crash" && n > 10:
		out.Flush()
		fmt.Fprintln(stderr, "fakeprog: index out of range [9] with length 9")
		return 3, true
	case fault == "hang" && n > 10:
		out.Flush()
		time.Sleep(time.Hour)
	case fault == "short" && n > 5:
		return 0, true
	case fault == "slow" && n <= 10:
		out.Flush()
		time.Sleep(150 * time.Millisecond)
	case fault == "silent-once" && n == 3 && first():
		out.Flush()
		time.Sleep(4 * time.Second)
	}
	return 0, false
}

// first reports whether no program of the test has misbehaved once yet,
// and marks that one has (OnceFile).
func first() bool {
	f, err := os.OpenFile(os.Getenv(OnceFile), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return false
	}
	f.Close()
	return true
}
