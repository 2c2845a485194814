package cmd

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tateti-lab/tateti-lab/internal/interrupt"
	"github.com/tateti-lab/tateti-lab/plan"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// run runs the command line and returns its stdout, stderr and exit code.
func run(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (run go test ./cmd -update if the change is meant)\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

func TestGolden(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"enumerate.txt", []string{"enumerate"}},
		{"enumerate.json", []string{"enumerate", "--json"}},
		{"enumerate-3x4.txt", []string{"enumerate", "--size", "3x4"}},
		{"solve.txt", []string{"solve"}},
		{"solve.json", []string{"solve", "--json"}},
		{"solve-position.txt", []string{"solve", "--position", "XX./O../..."}},
		{"solve-position.json", []string{"solve", "--position", "XX./O../...", "--json"}},
		{"solve-position-over.txt", []string{"solve", "--position", "XOX/XOO/OXX"}},
		{"solve-uva10111.txt", []string{"solve", "--size", "4x4", "--position", "o.../.ox./.xxx/xooo"}},
		{"verify.txt", []string{"verify"}},
		{"verify-all-boards.txt", []string{"verify", "--all-boards"}},
		{"verify-all-boards.json", []string{"verify", "--all-boards", "--json"}},
		{"enumerate-gravity-3x4.txt", []string{"enumerate", "--gravity", "--size", "3x4", "--k", "4"}},
		{"solve-misere.txt", []string{"solve", "--misere"}},
		{"solve-gravity-moves.txt", []string{"solve", "--gravity", "--size", "4x4", "--k", "4", "--moves", "2332"}},
		{"solve-gravity-moves.json", []string{"solve", "--gravity", "--size", "4x4", "--k", "4", "--moves", "2,3,3,2", "--json"}},
		{"verify-gravity-misere.txt", []string{"verify", "--gravity", "--misere", "--size", "4x3", "--all-boards"}},
		{"render-position.svg", []string{"render", "--position", "XX./O../...", "--out", "-"}},
		{"render-gravity.svg", []string{"render", "--gravity", "--size", "4x4", "--k", "4", "--moves", "2332", "--out", "-"}},
		// Connect Four, 6 rows by 7 columns: past the table, answered by search.
		{"solve-connect-four.txt", []string{"solve", "--gravity", "--size", "6x7", "--k", "4", "--moves", "12345671234567"}},
		{"solve-connect-four.json", []string{"solve", "--gravity", "--size", "6x7", "--k", "4", "--moves", "12345671234567", "--json"}},
		{"enumerate-connect-four.txt", []string{"enumerate", "--gravity", "--size", "6x7", "--k", "4", "--max-ply", "8"}},
		{"solve-gravity-moves-search.txt", []string{"solve", "--gravity", "--size", "4x4", "--k", "4", "--moves", "2332", "--engine", "search"}},
		{"solve-value-only.txt", []string{"solve", "--gravity", "--size", "4x4", "--k", "4", "--moves", "2332", "--value-only"}},
		{"solve-no-depths.txt", []string{"solve", "--gravity", "--size", "4x4", "--k", "4", "--moves", "2332", "--no-depths"}},
		{"solve-no-depths-connect-four.json", []string{"solve", "--gravity", "--size", "6x7", "--k", "4", "--moves", "12345671234567", "--no-depths", "--json"}},
		{"solve-value-only-search.json", []string{"solve", "--gravity", "--size", "4x4", "--k", "4", "--moves", "2332", "--value-only", "--engine", "search", "--json"}},
		// Past Pons' layout: gravity 8x8 and free 6x6, laid out packed.
		{"solve-gravity-8x8.txt", []string{"solve", "--gravity", "--size", "8x8", "--k", "4", "--moves", "1855144135447231848288448657534587"}},
		{"solve-free-6x6.json", []string{"solve", "--size", "6x6", "--k", "4", "--position", "XOXOXO/OXOXOX/OXOXOX/XOXO../....../......", "--json"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if testing.Short() && slices.Contains(tt.args, "--size") {
				t.Skip("a board past 3x3: output checked byte for byte, heavy under -race; runs without -short")
			}
			out, errOut, code := run(t, "", tt.args...)
			if code != 0 {
				t.Fatalf("tateti-lab %s: exit %d, stderr %q", strings.Join(tt.args, " "), code, errOut)
			}
			golden(t, tt.name, out)
		})
	}
}

// enumerate --max-ply says what it will need before it works, and refuses
// before any work a ply that may not fit the memory allowed: bad usage,
// exit 2, naming the flag to lower and the ply to lower it to (issue 43,
// case 8: it ran to 13 GB, and refused only when it reached the ply).
func TestLayerMemory(t *testing.T) {
	t.Setenv("TATETI_MEMORY", "1048576")
	tests := []struct {
		name, maxPly string
		code         int
		stderr       string
	}{
		{"fits", "5", exitOK, "tateti-lab: counting plies 0 to 5 in memory: up to 6,196 positions, up to 453.6 kB of memory to make ply 5\n"},
		{"does not fit", "12", exitUsage, "tateti-lab: ply 6 of 6x7 board, 4 in a row, gravity, X first may take up to 1.7 MB to make, more than the 1.0 MB this run may use (TATETI_MEMORY caps it): stop at an earlier ply: lower --max-ply to 5\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, "", "enumerate", "--gravity", "--size", "6x7", "--k", "4", "--max-ply", tt.maxPly)
			if code != tt.code || errOut != tt.stderr || (code == exitOK) != (out != "") {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d and %q", code, out, errOut, tt.code, tt.stderr)
			}
		})
	}
}

// A TATETI_MEMORY no one can read is refused before any work, by every
// command, with the forms accepted (issue 43, case 9); one that can be read
// caps the run.
func TestMemoryCap(t *testing.T) {
	for _, cap := range []string{"abc", "1e9", "-5", "0", "18446744073709551616"} {
		for _, cmd := range [][]string{{"solve"}, {"enumerate"}, {"export", "--out", t.TempDir()}, {"db", "info", t.TempDir()}} {
			t.Setenv("TATETI_MEMORY", cap)
			out, errOut, code := run(t, "", cmd...)
			want := "TATETI_MEMORY=" + strconv.Quote(cap)
			if code != exitUsage || !strings.Contains(errOut, want) || !strings.Contains(errOut, "4G, 512MiB or 1.5GB") || out != "" {
				t.Errorf("%v with TATETI_MEMORY=%s: exit %d, stdout %q, stderr %q; want %d and %q", cmd, cap, code, out, errOut, exitUsage, want)
			}
		}
	}
	t.Setenv("TATETI_MEMORY", "1MiB")
	_, errOut, code := run(t, "", "enumerate", "--size", "4x4")
	if want := "the memory a run may use is 1.0 MB"; code != exitUsage || !strings.Contains(errOut, want) {
		t.Errorf("enumerate 4x4 under 1MiB: exit %d, stderr %q; want %d and %q", code, errOut, exitUsage, want)
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"size without x", []string{"enumerate", "--size", "3"}, `size "3" is not ROWSxCOLS`},
		{"empty side", []string{"enumerate", "--size", "0x3"}, "size 0x3 has an empty side"},
		{"negative side", []string{"enumerate", "--size", "-3x3"}, "size -3x3 has a negative side"},
		{"k of 0", []string{"enumerate", "--k", "0"}, "--k 0 is not a line length"},
		{"an empty move", []string{"solve", "--moves", "4,,0"}, `moves "4,,0" have an empty move between commas`},
		{"a trailing comma", []string{"solve", "--moves", "4,0,"}, "have an empty move between commas"},
		{"a sample of 0", []string{"verify", "solver", "--sample", "0", "--", "x"}, "--sample 0 is not a count of positions"},
		// Issue 43, case 7: refused at once, with the number that exists.
		{"a sample past what exists", []string{"export", "--gravity", "--size", "6x7", "--k", "4", "--sample", "200000", "--plies", "3", "--out", "never"}, "has 238 positions in progress at plies 3, and 200000 were asked for; ask for at most 238"},
		{"a sample past 2^62", []string{"grade", "--gravity", "--size", "6x7", "--k", "4", "--sample", "4611686018427387904", "--plies", "8", "--", "x"}, "has 182,383 positions in progress at plies 8"},
		{"too large to exhaust", []string{"verify", "--size", "6x5"}, "size 6x5 has 30 cells, too many to exhaust"},
		{"too large to enumerate whole", []string{"enumerate", "--size", "6x5"}, "size 6x5 has 30 cells, too many to enumerate whole (at most 25): --max-ply N counts its first N plies"},
		{"a ply below 0", []string{"enumerate", "--max-ply", "-1"}, "--max-ply -1 is not a ply of a 9-cell board, want 0 to 9"},
		{"a ply past the board", []string{"enumerate", "--gravity", "--size", "6x7", "--max-ply", "43"}, "--max-ply 43 is not a ply of a 42-cell board, want 0 to 42"},
		{"a negative time limit", []string{"solve", "--moves", "4", "--time-limit", "-1s"}, "--time-limit -1s is negative: give a duration such as 30s, or 0 for no limit"},
		{"a time limit for the whole game", []string{"solve", "--time-limit", "1m"}, "--time-limit goes with one position: give --position or --moves too"},
		{"the value alone of the whole game", []string{"solve", "--value-only"}, "--value-only goes with one position: give --position or --moves too, or leave it out to solve the whole game"},
		{"no depths of the whole game", []string{"solve", "--no-depths"}, "--no-depths goes with one position: give --position or --moves too, or leave it out to solve the whole game"},
		{"too much memory", []string{"enumerate", "--size", "5x5", "--k", "4"}, "TB to build the largest layer; the memory a run may use is"},
		{"all boards past 16 cells", []string{"verify", "--all-boards", "--gravity", "--size", "3x6", "--k", "4"}, "--all-boards: the raw boards are walked up to 16 cells (43046721 boards), and 3x6 has 18 cells (387420489 boards); leave it out or choose a smaller --size"},
		{"side that wraps the product", []string{"enumerate", "--size", "3x6148914691236517208"}, "size 3x6148914691236517208 has more cells than the game model holds"},
		{"product that wraps to 8", []string{"solve", "--size", "6148914691236517208x3"}, "has more cells than the game model holds"},
		{"product that wraps to -1", []string{"verify", "--size", "4294967297x4294967295"}, "has more cells than the game model holds"},
		{"side past int64", []string{"export", "--size", "99999999999999999999x3", "--out", "x"}, "has a side far past the 64 cells"},
		{"long board is cut", []string{"solve", "--position", strings.Repeat("X", 10000)}, `board "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX... (10000 characters)" has 10000 cells`},
		{"k too long", []string{"enumerate", "--k", "7"}, "k 7 does not fit a 3x3 board, want 1 to 3"},
		{"unknown flag", []string{"enumerate", "--sise", "3x3"}, "unknown flag: --sise"},
		{"stray argument", []string{"enumerate", "extra"}, `tateti-lab enumerate takes no arguments, and "extra" is not a flag`},
		{"unknown command", []string{"enumerat"}, `unknown command "enumerat"`},
		{"bad workers", []string{"enumerate", "--workers", "0"}, "--workers 0 is not a count"},
		{"too many workers", []string{"enumerate", "--workers", "99999999999"}, "--workers 99999999999 is not a count of goroutines this machine can use, want 1 to"},
		{"unparseable board", []string{"solve", "--position", "XQ./.../..."}, `board "XQ./.../..." has 'Q' at character 2`},
		{"board of the wrong size", []string{"solve", "--position", "XO./.X."}, `board "XO./.X." has 6 cells, want 9 for 3x3`},
		{"board that cannot arise", []string{"solve", "--position", "XXX/OOO/..."}, "cannot arise in play: both X and O have a line"},
		{"solve too large for the table", []string{"solve", "--size", "6x5", "--moves", "1", "--engine", "memory"}, "too many to exhaust"},
		{"a board past 64 cells", []string{"solve", "--gravity", "--size", "9x8", "--k", "4", "--moves", "1"}, "size 9x8 has more cells than the game model holds: at most 64"},
		{"a full column", []string{"solve", "--gravity", "--size", "6x7", "--k", "4", "--moves", "4444444"}, "move 7: column 4 is full, want a column with an empty cell"},
		{"past the end of the game", []string{"solve", "--gravity", "--size", "6x7", "--k", "4", "--moves", "12121212"}, `move 8: "2" comes after the game is over (x_won)`},
		{"an unknown oracle", []string{"solve", "--moves", "1", "--engine", "db"}, `engine "db" is unknown, want auto, memory or search`},
		{"an oracle for the whole game", []string{"solve", "--engine", "search"}, "--engine goes with one position: give --position or --moves too"},
		{"floating mark under gravity", []string{"solve", "--gravity", "--position", ".X./.../..."},
			"under gravity: a mark stands above an empty cell, but under gravity a mark drops to the lowest empty cell of its column (X on row 0, col 1 has an empty cell below it)"},
		{"misère game already over", []string{"solve", "--misere", "--position", "XXX/OO./O.."},
			"under misère: X has a line, but O has as many marks, so O moved after the game was over"},
		{"gravity column order", []string{"solve", "--gravity", "--size", "2x1", "--k", "2", "--position", "X/O"},
			"no order of legal moves in turn, X first, builds it"},
		{"move into a full column", []string{"solve", "--gravity", "--moves", "1111"}, `moves "1111": move 4: column 1 is full, want a column with an empty cell`},
		{"move after the end", []string{"solve", "--moves", "0,3,1,4,2,5"}, `move 6: "5" comes after the game is over`},
		{"column out of range", []string{"solve", "--gravity", "--moves", "4"}, `"4" is not a column, want 1 to 3`},
		{"render without out", []string{"render", "--position", "X../.../..."}, "--out is missing"},
		{"render a set to stdout", []string{"render", "--max-ply", "1", "--out", "-"}, "--out names the folder a set's pictures go into"},
		{"render a set and a position", []string{"render", "--max-ply", "1", "--position", "X../.../...", "--out", "d"}, "--position goes with one position, and --positions, --sample and --max-ply draw a set"},
		{"render into a missing folder", []string{"render", "--out", "/nonexistent/dir/x.svg"}, `--out "/nonexistent/dir/x.svg": the folder /nonexistent/dir is missing`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, "", tt.args...)
			if code != exitUsage {
				t.Errorf("exit code = %d, want %d", code, exitUsage)
			}
			if !strings.Contains(errOut, tt.want) {
				t.Errorf("stderr = %q, want it to contain %q", errOut, tt.want)
			}
			if out != "" {
				t.Errorf("stdout = %q, want nothing on an error", out)
			}
		})
	}
}

// UVa 10111 "Find the Winning Move" (the contest-programming report) from solve --position alone:
// the first winning move in row-major order, or none.
func TestUVa10111(t *testing.T) {
	tests := []struct {
		board string
		want  string
	}{
		{"..../.xo./.ox./....", "#####"},
		{"o.../.ox./.xxx/xooo", "(0,1)"},
	}
	for _, tt := range tests {
		t.Run(tt.board, func(t *testing.T) {
			out, errOut, code := run(t, "", "solve", "--size", "4x4", "--position", tt.board, "--json")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var a struct {
				ToMove string `json:"to_move"`
				Moves  []struct {
					Row, Col int
					Value    int
				} `json:"moves"`
			}
			if err := json.Unmarshal([]byte(out), &a); err != nil {
				t.Fatal(err)
			}
			if a.ToMove != "X" {
				t.Fatalf("to_move = %q, want X", a.ToMove)
			}
			got := "#####"
			for _, m := range a.Moves {
				if m.Value == 1 {
					got = fmt.Sprintf("(%d,%d)", m.Row, m.Col)
					break
				}
			}
			if got != tt.want {
				t.Fatalf("first winning move = %s, want %s", got, tt.want)
			}
		})
	}
}

// With --json an error is one object on stdout as well as a line on stderr.
func TestJSONErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"bad size", []string{"enumerate", "--size", "3", "--json"}, `size "3" is not ROWSxCOLS`},
		{"unknown flag before --json", []string{"solve", "--sise", "3x3", "--json"}, "unknown flag: --sise"},
		{"unreachable board", []string{"solve", "--json", "--position", "XXX/OOO/..."}, "cannot arise in play"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, "", tt.args...)
			var got struct {
				Error string `json:"error"`
				Exit  int    `json:"exit"`
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("stdout %q is not one JSON object: %v", out, err)
			}
			if code != exitUsage || got.Exit != exitUsage || !strings.Contains(got.Error, tt.want) || !strings.Contains(errOut, tt.want) {
				t.Fatalf("exit %d, stdout %+v, stderr %q; want exit 2 and %q in both", code, got, errOut, tt.want)
			}
		})
	}
}

// failingWriter fails every write, as /dev/full does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// Output that cannot be written is a failure of the work, not of its
// usage: exit 1, in text and in JSON.
func TestWriteErrors(t *testing.T) {
	for _, args := range [][]string{{"verify"}, {"enumerate"}, {"solve", "--json"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var errb bytes.Buffer
			code := Run(context.Background(), args, strings.NewReader(""), failingWriter{}, &errb)
			if code != exitFailed || !strings.Contains(errb.String(), "cannot write the output: no space left on device") {
				t.Fatalf("exit %d, stderr %q; want exit 1 and the write error", code, errb.String())
			}
		})
	}
}

// A run whose context a signal cancelled exits 130 and says so, whatever the
// work was doing.
func TestInterruptedExitCode(t *testing.T) {
	for _, tt := range []struct {
		sig  os.Signal
		name string
	}{{os.Interrupt, "SIGINT"}, {syscall.SIGTERM, "SIGTERM"}} {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(context.Background())
			cancel(interrupt.Signal{Sig: tt.sig})
			var out, errb bytes.Buffer
			code := Run(ctx, []string{"enumerate", "--size", "4x4", "--json"}, strings.NewReader(""), &out, &errb)
			want := "interrupted by " + tt.name
			if code != exitInterrupted || !strings.Contains(errb.String(), want) || !strings.Contains(out.String(), `"exit": 130`) {
				t.Fatalf("exit %d, stderr %q, stdout %q; want 130 and %q", code, errb.String(), out.String(), want)
			}
		})
	}
}

// serve listens on loopback, says where, answers the API, and stops on a
// signal, its normal end, saying "stopped" with exit 0: a game solved
// whole, Connect Four from its book, and misère Connect Four, which has no
// book, answered by search, whose empty board is asked and interrupted
// mid-search.
func TestServe(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		query   string
		status  int
		outcome string
	}{
		{"3x3", nil, "board=XX./O../...", http.StatusOK, `"outcome": "X wins"`},
		{"connect four, settled", []string{"--gravity", "--size", "6x7", "--k", "4"}, "board=&move=2252576253462244111563365343671351441", http.StatusOK, `"outcome": "X wins"`},
		{"connect four, from the book", []string{"--gravity", "--size", "6x7", "--k", "4"}, "board=", http.StatusOK, `"engine": "book"`},
		{"misère connect four, searching", []string{"--gravity", "--size", "6x7", "--k", "4", "--misere"}, "board=", http.StatusAccepted, `"queued": false`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			addr, stop := serveAt(t, tt.args...)
			resp, err := http.Get(addr + "api/position?" + tt.query)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.status || !strings.Contains(string(body), tt.outcome) {
				t.Fatalf("API: %d %s; want %d and %s", resp.StatusCode, body, tt.status, tt.outcome)
			}
			stop()
		})
	}
}

// serveAt starts serve on a free loopback port with args, and gives its
// address and a function that signals it and checks that it stops, says
// so, and exits 0.
func serveAt(t *testing.T, args ...string) (string, func()) {
	t.Helper()
	return serveWith(t, plan.Open, args...)
}

// serveWith is serveAt, the engine opened by engines.
func serveWith(t *testing.T, engines plan.Opener, args ...string) (string, func()) {
	t.Helper()
	t.Setenv("TATETI_MEMORY", "536870912") // a 256 MiB table for search
	ctx, cancel := context.WithCancelCause(context.Background())
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	var errOut bytes.Buffer
	go func() {
		done <- runWith(ctx, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...), strings.NewReader(""), outW, &errOut, engines)
		outW.Close()
	}()
	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil {
		t.Fatalf("serve said nothing: %v", err)
	}
	_, addr, ok := strings.Cut(strings.TrimSpace(line), " at ")
	addr, _, _ = strings.Cut(addr, " ")
	if !ok || !strings.HasPrefix(addr, "http://127.0.0.1:") {
		t.Fatalf("serve said %q, want where it listens on loopback", line)
	}
	go io.Copy(io.Discard, outR)
	return addr, func() {
		t.Helper()
		cancel(interrupt.Signal{Sig: syscall.SIGTERM})
		select {
		case code := <-done:
			if want := "tateti-lab: stopped\n"; code != exitOK || !strings.HasSuffix(errOut.String(), want) {
				t.Fatalf("exit %d, stderr %q after SIGTERM; want 0 and %q", code, errOut.String(), want)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("serve did not stop on the interrupt")
		}
	}
}

// A per-position command asked for the table estimates the memory of what
// can follow its position before it allocates, and refuses at once when
// that will not fit (auto would ask search instead).
func TestPositionMemory(t *testing.T) {
	t.Setenv("TATETI_MEMORY", "1000000000") // 1 GB
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"free 4x5 k=5 from the empty board", []string{"solve", "--size", "4x5", "--k", "5", "--position", "....................", "--engine", "memory"}, "4x5 k=5 needs about"},
		{"render free 4x5", []string{"render", "--size", "4x5", "--k", "4", "--out", "-", "--engine", "memory"}, "4x5 k=4 needs about"},
		{"free 5x5 after one move", []string{"solve", "--size", "5x5", "--k", "4", "--moves", "12", "--engine", "memory"}, "5x5 k=4 from ...../...../..X../...../..... needs about"},
		{"gravity 2x12 after one move, by the table", []string{"solve", "--gravity", "--size", "2x12", "--k", "3", "--moves", "12", "--engine", "memory"}, "needs about"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, errOut, code := run(t, "", tt.args...)
			if code != exitUsage || !strings.Contains(errOut, tt.want) || !strings.Contains(errOut, "the memory a run may use is 1.0 GB") {
				t.Fatalf("exit %d, stderr %q; want 2, %q and the cap", code, errOut, tt.want)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Fatalf("refused after %v, want at once", d)
			}
		})
	}
	// What does fit still runs: a late position of the same free 4x5 board.
	out, errOut, code := run(t, "", "solve", "--size", "4x5", "--k", "5", "--position", "XOXO./OXOX./XOXO./.....")
	if code != 0 || !strings.Contains(out, "value:") {
		t.Fatalf("exit %d, stderr %q; want the late position solved", code, errOut)
	}
}

// version says the tool's version, in text and in JSON; shell completion
// offers the values of the flags that take a few known ones.
func TestVersionAndCompletion(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"version", []string{"version"}, []string{"tateti-lab " + Version + " (go"}},
		{"version as JSON", []string{"version", "--json"}, []string{`"version": "` + Version + `"`}},
		{"--size", []string{"__complete", "enumerate", "--size", ""}, []string{"3x3\n", "4x4\n"}},
		{"--format", []string{"__complete", "export", "--format", ""}, []string{"parquet\n", "csv\n"}},
		{"--move-format", []string{"__complete", "grade", "--move-format", ""}, []string{"cell\n", "row,col\n", "column\n"}},
		{"--cells", []string{"__complete", "verify", "checker", "--cells", ""}, []string{"0,1,-1\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, "", tt.args...)
			for _, w := range tt.want {
				if code != 0 || !strings.Contains(out, w) {
					t.Fatalf("exit %d, stdout %q, stderr %q; want %q", code, out, errOut, w)
				}
			}
		})
	}
}

// render draws SVG: --json is refused, not ignored.
func TestRenderJSON(t *testing.T) {
	out, errOut, code := run(t, "", "render", "--json", "--out", "-")
	if code != exitUsage || !strings.Contains(errOut, "--json does not go with render, which draws SVG") || strings.Contains(out, "<svg") {
		t.Fatalf("exit %d, stdout %q, stderr %q; want 2, the refusal and no SVG", code, out, errOut)
	}
}

// On a stderr that is no terminal, progress comes as plain lines (a line a
// minute; here at once), and --quiet mutes them.
func TestProgressLog(t *testing.T) {
	defer func(every time.Duration) { logEvery = every }(logEvery)
	logEvery = 0
	tests := []struct {
		name string
		args []string
		want bool
	}{
		{"a log", []string{"enumerate", "--size", "3x4", "--k", "3"}, true},
		{"quiet", []string{"enumerate", "--size", "3x4", "--k", "3", "-q"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, code := run(t, "", tt.args...)
			if got := strings.Contains(stderr, "enumerate: ply 1, 13 positions so far\n"); code != 0 || got != tt.want || strings.Contains(stderr, "\r") {
				t.Fatalf("exit %d, stderr %q; want a progress line: %v, and no carriage return", code, stderr, tt.want)
			}
		})
	}
}

// Under --quiet a command leaves only errors on stderr: no progress, even
// where a log would have a line at once, and no estimate, plan or note.
func TestQuietIsQuiet(t *testing.T) {
	defer func(every time.Duration) { logEvery = every }(logEvery)
	logEvery = 0
	for _, tt := range quietCases(t.TempDir()) {
		t.Run(tt.name, func(t *testing.T) {
			skipHeavyQuiet(t, tt.name)
			_, stderr, code := run(t, "", append(tt.args, "-q")...)
			if code != 0 || stderr != "" {
				t.Errorf("exit %d, stderr %q; want 0 and nothing", code, stderr)
			}
		})
	}
}

// quietCases are commands that write progress, estimates, plans or notes
// on stderr, writing into dir.
func quietCases(dir string) []struct {
	name string
	args []string
} {
	return []struct {
		name string
		args []string
	}{
		{"enumerate", []string{"enumerate", "--size", "3x4", "--k", "3"}},
		{"enumerate its first plies", []string{"enumerate", "--game", "connect-four", "--max-ply", "3"}},
		{"solve", []string{"solve", "--size", "3x3", "--k", "3"}},
		{"a size taken for Connect Four's", []string{"enumerate", "--gravity", "--size", "7x6", "--k", "4", "--max-ply", "2"}},
		{"export", []string{"export", "--size", "3x3", "--k", "3", "--out", filepath.Join(dir, "whole")}},
		{"export a sample", []string{"export", "--game", "connect-four", "--sample", "20", "--plies", "8-10", "--epsilon", "0.25", "--out", filepath.Join(dir, "sample")}},
		{"db build", []string{"db", "build", "--size", "3x3", "--k", "3", filepath.Join(dir, "db")}},
		{"verify", []string{"verify", "--size", "3x3", "--k", "3"}},
	}
}

// skipHeavyQuiet skips under -short the quiet case that draws a sample by
// noisy perfect play, seconds of search that the race run can spare.
func skipHeavyQuiet(t *testing.T, name string) {
	if testing.Short() && name == "export a sample" {
		t.Skip("draws by noisy perfect play; runs without -short")
	}
}
