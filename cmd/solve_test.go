package cmd

import (
	"encoding/json"
	"strings"
	"testing"
)

// When the enumeration does not fit the memory the tool may use, solve
// falls back on placement ranks and prints the same summary. TATETI_MEMORY
// caps the memory at 100 MB: 4x4 then needs 0.6 GB to enumerate and 14 MB
// ranked. A cap too small for either refuses with exit 2.
func TestSolveRankedFallback(t *testing.T) {
	if testing.Short() {
		t.Skip("solves free 4x4 twice; run without -short")
	}
	want, _, code := run(t, "", "solve", "--size", "4x4", "--json")
	if code != 0 {
		t.Fatalf("solve exited %d", code)
	}
	t.Setenv("TATETI_MEMORY", "100000000")
	got, stderr, code := run(t, "", "solve", "--size", "4x4", "--json")
	if code != 0 || !strings.Contains(stderr, "solving over placement ranks instead") {
		t.Fatalf("capped solve exited %d, stderr %q; want 0 and the fallback named", code, stderr)
	}
	if got != want {
		t.Fatalf("ranked summary\n%s\nwant\n%s", got, want)
	}
	t.Setenv("TATETI_MEMORY", "1000000")
	if _, stderr, code := run(t, "", "solve", "--size", "4x4"); code != 2 || !strings.Contains(stderr, "needs about") {
		t.Fatalf("solve under 1 MB exited %d, stderr %q; want 2 and the estimate", code, stderr)
	}
}

// A search cut short by --time-limit prints what it proved and exits 1:
// after X's first move in the centre column of Connect Four, 100 ms cannot
// settle the position, and what is proved must allow X's win, its value.
func TestSolveTimeLimit(t *testing.T) {
	out, stderr, code := run(t, "", "solve", "--gravity", "--size", "6x7", "--k", "4", "--moves", "4", "--time-limit", "100ms", "--json")
	if code != 1 || !strings.Contains(stderr, "not settled within --time-limit 100ms") {
		t.Fatalf("exit %d, stderr %q; want 1 and the limit named", code, stderr)
	}
	var p struct {
		Outcome string `json:"outcome"`
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
}
