package cmd

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/tateti-lab/tateti-lab/internal/longtest"
)

// When the enumeration does not fit the memory the tool may use, solve
// solves tier by tier in a temporary folder and prints the same summary,
// with each ply's counts for the side to move beside; the folder is gone
// after. TATETI_MEMORY caps the memory at 100 MB: 4x4 then needs 0.4 GB to
// enumerate and about 70 MB tier by tier. A cap too small for either
// refuses with exit 2.
func TestSolveTierFallback(t *testing.T) {
	longtest.Skip(t, "free 4x4 solved twice")
	want, _, code := run(t, "", "solve", "--size", "4x4", "--json")
	if code != 0 {
		t.Fatalf("solve exited %d", code)
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	t.Setenv("TATETI_MEMORY", "100000000")
	got, stderr, code := run(t, "", "solve", "--size", "4x4", "--json")
	if code != 0 || !strings.Contains(stderr, "solving tier by tier into a temporary folder") {
		t.Fatalf("capped solve exited %d, stderr %q; want 0 and the tier solve named", code, stderr)
	}
	var g, w map[string]any
	if err := json.Unmarshal([]byte(got), &g); err != nil || json.Unmarshal([]byte(want), &w) != nil {
		t.Fatalf("not JSON: %v\n%s", err, got)
	}
	if g["by_ply_to_move"] == nil {
		t.Errorf("no counts for the side to move in the tier solve's summary")
	}
	if g["engine"] != "tiers" || w["engine"] != "memory" {
		t.Errorf("engines %v and %v, want tiers under the cap and table without", g["engine"], w["engine"])
	}
	for _, planned := range []string{"by_ply_to_move", "engine", "why"} {
		delete(g, planned)
		delete(w, planned)
	}
	if !reflect.DeepEqual(g, w) {
		t.Fatalf("tier summary\n%s\nwant\n%s", got, want)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("%d files left in the temporary folder, want none", len(left))
	}
	t.Setenv("TATETI_MEMORY", "1000000")
	if _, stderr, code := run(t, "", "solve", "--size", "4x4"); code != 2 || !strings.Contains(stderr, "needs about") || !strings.Contains(stderr, "a tier solve holds up to") {
		t.Fatalf("solve under 1 MB exited %d, stderr %q; want 2 and both estimates", code, stderr)
	}
}

// A search cut short by --time-limit prints what it proved and exits 1:
// after X's first move in the centre column of Connect Four, 100 ms of
// search (named, not the book) cannot settle the position, and what is
// proved must allow X's win, its value.
func TestSolveTimeLimit(t *testing.T) {
	out, stderr, code := run(t, "", "solve", "--gravity", "--size", "6x7", "--k", "4", "--moves", "4", "--engine", "search", "--time-limit", "100ms", "--json")
	if code != 1 || !strings.Contains(stderr, "not settled within --time-limit 100ms") {
		t.Fatalf("exit %d, stderr %q; want 1 and the limit named", code, stderr)
	}
	var p struct {
		Outcome string `json:"outcome"`
		Value   *int8  `json:"value"`
		Depth   *int8  `json:"depth"`
		Proved  *struct {
			Low, High int8
			Says      string
		} `json:"proved"`
	}
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, out)
	}
	if p.Outcome != "not settled" || p.Proved == nil || p.Proved.High != 1 || p.Proved.Low > p.Proved.High {
		t.Fatalf("outcome %q, proved %+v; want not settled, bounds that allow X's win", p.Outcome, p.Proved)
	}
	if p.Value != nil || p.Depth != nil { // issue 43, case 10
		t.Fatalf("value or depth not null in\n%s\nwant both null, not settled", out)
	}
}

// solve --stdin answers the lines a program sends at once side by side,
// one a worker, and writes their answers in the lines' order: the same
// bytes whatever the workers.
func TestSolveStdinWorkers(t *testing.T) {
	lines := []string{ // Connect Four games of random play, 14 to 20 moves, none over
		"75774457522754657", "143215766154466", "57163372531157141", "34117612214464415627",
		"3313314712261115537", "not a position", "21377531224756511", "243175373411125",
		"327526226652644", "141111532664347543", "261224567551322611",
	}
	in := strings.Join(lines, "\n") + "\n"
	var one string
	for _, workers := range []string{"1", "2", "3"} {
		t.Run("workers="+workers, func(t *testing.T) {
			out, stderr, code := run(t, in, "solve", "--game", "connect-four", "--engine", "search", "--stdin", "--workers", workers)
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d, stderr %q; want 0 and nothing", code, stderr)
			}
			got := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if len(got) != len(lines) {
				t.Fatalf("%d lines answered, want %d:\n%s", len(got), len(lines), out)
			}
			for i, l := range got {
				if want := fmt.Sprintf(`{"line":%d,`, i+1); !strings.HasPrefix(l, want) {
					t.Errorf("answer %d begins %.20q, want %q: the lines' order", i+1, l, want)
				}
			}
			if workers == "1" {
				one = out
			} else if out != one {
				t.Errorf("%s workers' answers differ from one worker's:\n%s\nwant:\n%s", workers, out, one)
			}
		})
	}
}

// solve --stdin answers each line as it comes, a line of JSON each, in
// order: a position's answer, or a bad line's error, and goes on.
func TestSolveStdin(t *testing.T) {
	in := "4\nXX./OO./...\n9\n\nXXX/OOO/...\n"
	out, stderr, code := run(t, in, "solve", "--stdin")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q; want 0 and nothing", code, stderr)
	}
	tests := []struct {
		name      string
		value     float64
		outcome   string
		wantError string
	}{
		{"moves", 0, "draw", ""},
		{"a board", 1, "X wins", ""},
		{"not a cell", 0, "", `moves "9": move 1: `},
		{"an empty line: the empty board", 0, "draw", ""},
		{"a board that cannot arise", 0, "", "XXX/OOO/..."},
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(tests) {
		t.Fatalf("%d lines answered, want %d:\n%s", len(lines), len(tests), out)
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got struct {
				Line    int     `json:"line"`
				Value   float64 `json:"value"`
				Outcome string  `json:"outcome"`
				Moves   []any   `json:"moves"`
				Error   string  `json:"error"`
			}
			if err := json.Unmarshal([]byte(lines[i]), &got); err != nil {
				t.Fatalf("line %d: %v: %s", i+1, err, lines[i])
			}
			if got.Line != i+1 || got.Value != tt.value || got.Outcome != tt.outcome || !strings.Contains(got.Error, tt.wantError) || (tt.wantError == "") != (got.Error == "") {
				t.Errorf("got %+v; want line %d, value %v, outcome %q, error with %q", got, i+1, tt.value, tt.outcome, tt.wantError)
			}
			if tt.wantError == "" && len(got.Moves) == 0 {
				t.Errorf("no move's value in %s", lines[i])
			}
		})
	}
	if _, stderr, code := run(t, "", "solve", "--stdin", "--moves", "4"); code != 2 || !strings.Contains(stderr, "leave out --moves") {
		t.Errorf("--stdin with --moves: exit %d, stderr %q; want 2 and why", code, stderr)
	}
}
