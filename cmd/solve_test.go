package cmd

import (
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
