// Package longtest owns the one switch that runs the long checks: the
// tests that exhaust the larger boards (free 4x4 whole, Tromp's boards past
// 20 cells, the 16-cell agreement of search and the exhaustive solve, the
// gravity 5x5 tier solve). Without it, "go test ./..." runs in about two
// minutes on a 2-core machine; with TATETI_LONG=1 it runs everything, as CI
// does once.
package longtest

import (
	"os"
	"testing"
)

// Env is the environment variable that runs the long checks when it is 1.
const Env = "TATETI_LONG"

// Enabled reports whether the long checks run: TATETI_LONG=1.
func Enabled() bool { return os.Getenv(Env) == "1" }

// Skip skips t, saying what it checks and how to run it, unless the long
// checks run.
func Skip(t testing.TB, what string) {
	t.Helper()
	if !Enabled() {
		t.Skipf("a long check (%s): run it with %s=1 go test", what, Env)
	}
}
