// Package fakechecker is an external checker program for tests. A test binary
// whose environment has TATETI_FAKE_CHECKER set runs Main instead of its tests
// (see TestMain in verify and cmd), so tests can start it with os.Args[0]. It
// speaks the external checker protocol in the seed articles' conventions and
// can misbehave on purpose.
package fakechecker

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// Env is the variable that names the mode.
const Env = "TATETI_FAKE_CHECKER"

// PIDFile is the variable that names a file for the process ids.
const PIDFile = "TATETI_FAKE_PIDFILE"

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

// The modes:
//
//	seed000   cells 0,1,-1 and results 0,1,2,3, answered right
//	seed002   cells 1,2,0 and results 1,2,0,-1, answered right
//	noanti    seed000, but it forgets the anti-diagonals
//	crash     seed000, but it dies after 10 answers, writing to stderr
//	hang      seed000, but it stops answering after 10 and sleeps
//	garbage   seed000, but its 4th answer is "maybe"
//	extra     seed000, with one answer too many at the end
//	short     seed000, but it exits 0 after 5 answers
//	slow      seed000, but the first 10 answers take 100 ms each
//	child     seed000, and at the end it leaves a background child that
//	          holds its stdout and stderr open
//	sleep     no protocol: it sleeps for an hour (the child of "child")
//
// With PIDFile set, the program writes its process id, and in mode child the
// child's, one a line, to that file.
type convention struct {
	cells   map[string]int // token to 1 for X, 2 for O, 0 for empty
	results [4]string      // X wins, O wins, draw, in progress
}

var conventions = map[string]convention{
	"seed000": {map[string]int{"0": 1, "1": 2, "-1": 0}, [4]string{"0", "1", "2", "3"}},
	"seed002": {map[string]int{"1": 1, "2": 2, "0": 0}, [4]string{"1", "2", "0", "-1"}},
}

// TestMain is for a test package's TestMain: when Env names a mode, the test
// binary is the checker program and TestMain runs it; otherwise it runs the
// tests. Either way it returns the exit code.
//
//	func TestMain(m *testing.M) { os.Exit(fakechecker.TestMain(m)) }
func TestMain(m interface{ Run() int }) int {
	if mode := os.Getenv(Env); mode != "" {
		return Main(mode, os.Stdin, os.Stdout, os.Stderr)
	}
	// A race-enabled test binary sleeps a second at exit by default; the
	// checkers these tests start are such binaries, and the timing tests
	// would see that second as a checker slow to exit.
	os.Setenv("GORACE", "atexit_sleep_ms=0")
	return m.Run()
}

// Main runs the checker in mode on stdin and stdout and returns its exit code.
func Main(mode string, stdin io.Reader, stdout, stderr io.Writer) int {
	if mode == "sleep" {
		time.Sleep(time.Hour)
		return 0
	}
	notePID(os.Getpid())
	conv, ok := conventions[mode]
	if !ok {
		conv = conventions["seed000"]
	}
	rows, _ := strconv.Atoi(os.Getenv("TATETI_ROWS"))
	cols, _ := strconv.Atoi(os.Getenv("TATETI_COLS"))
	k, _ := strconv.Atoi(os.Getenv("TATETI_K"))
	in := bufio.NewScanner(stdin)
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	for n := 1; in.Scan(); n++ {
		switch {
		case mode == "crash" && n > 10:
			out.Flush()
			fmt.Fprintln(stderr, "fakechecker: index out of range [9] with length 9")
			return 3
		case mode == "hang" && n > 10:
			out.Flush()
			time.Sleep(time.Hour)
		case mode == "garbage" && n == 4:
			fmt.Fprintln(out, "maybe")
			continue
		case mode == "short" && n > 5:
			return 0
		case mode == "slow" && n <= 10:
			out.Flush()
			time.Sleep(100 * time.Millisecond)
		}
		fields := strings.Fields(in.Text())
		cells := make([]int, len(fields))
		for i, f := range fields {
			cells[i] = conv.cells[f]
		}
		fmt.Fprintln(out, conv.results[status(cells, rows, cols, k, mode != "noanti")])
	}
	if mode == "extra" {
		fmt.Fprintln(out, conv.results[3])
	}
	if mode == "child" {
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

// status gives 0 X wins, 1 O wins, 2 draw, 3 in progress, by walking every
// window of k cells.
func status(cells []int, rows, cols, k int, anti bool) int {
	dirs := [][2]int{{0, 1}, {1, 0}, {1, 1}}
	if anti {
		dirs = append(dirs, [2]int{1, -1})
	}
	for r := range rows {
		for c := range cols {
			for _, d := range dirs {
				v := cells[r*cols+c]
				j := 1
				for ; v != 0 && j < k; j++ {
					rr, cc := r+j*d[0], c+j*d[1]
					if rr >= rows || cc < 0 || cc >= cols || cells[rr*cols+cc] != v {
						break
					}
				}
				if v != 0 && j == k {
					return v - 1
				}
			}
		}
	}
	for _, v := range cells {
		if v == 0 {
			return 3
		}
	}
	return 2
}
