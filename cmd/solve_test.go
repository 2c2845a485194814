package cmd

import (
	"encoding/json"
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
