package cmd

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/oracle/oracletest"
	"github.com/tateti-lab/tateti-lab/plan"
	"github.com/tateti-lab/tateti-lab/rules"
)

// pastBook is a Connect Four position of ply 14, past the opening book,
// where search takes seconds: X wins by move 39.
const pastBook = "15121653633156"

// fakeEngines gives an opener of Shallow engines of Connect Four, in
// place of the engines themselves (Factory.Engines), and the engines it
// opened.
func fakeEngines(t *testing.T) (plan.Opener, func() []*oracletest.Shallow) {
	t.Helper()
	ng, err := rules.Named("connect-four")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var opened []*oracletest.Shallow
	open := func(_ context.Context, _ plan.Plan, o oracle.Options) (oracle.Oracle, error) {
		mu.Lock()
		defer mu.Unlock()
		s := oracletest.NewShallow(rules.New(ng.Spec), o.ValueOnly, o.NoDepths)
		opened = append(opened, s)
		return s, nil
	}
	return open, func() []*oracletest.Shallow {
		mu.Lock()
		defer mu.Unlock()
		return opened
	}
}

// asked sums the positions the engines were asked.
func asked(engines []*oracletest.Shallow) (n int64) {
	for _, e := range engines {
		n += e.Asked()
	}
	return n
}

// The commands that answer positions open their engine by the factory
// (Factory.Engines): given a fake, solve and export answer by it, at once,
// on Connect Four past its book, where search takes seconds, and print
// what it says.
func TestFakeEngines(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	tests := []struct {
		name string
		args []string
		want string // in stdout
	}{
		{"solve a position", []string{"solve", "--game", "connect-four", "--moves", pastBook}, "answered by shallow"},
		{"solve, value only", []string{"solve", "--game", "connect-four", "--moves", pastBook, "--value-only", "--json"}, `"answered_by": "shallow"`},
		{"solve, no depths", []string{"solve", "--game", "connect-four", "--moves", pastBook, "--no-depths", "--json"}, `"no_depths": true`},
		{"solve --stdin", []string{"solve", "--game", "connect-four", "--stdin", "--json"}, `"answered_by":"shallow"`},
		{"solve --stdin, no depths", []string{"solve", "--game", "connect-four", "--stdin", "--no-depths"}, `"no_depths":true`},
		{"export a sample", []string{"export", "--game", "connect-four", "--sample", "40", "--plies", "20-24", "--format", "csv", "--out", out}, "states.csv"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			open, opened := fakeEngines(t)
			var stdout, stderr bytes.Buffer
			code := runWith(context.Background(), tt.args, strings.NewReader(pastBook+"\n"), &stdout, &stderr, open)
			if code != exitOK || !strings.Contains(stdout.String(), tt.want) {
				t.Fatalf("exit %d, stdout:\n%s\nstderr:\n%s\nwant exit 0 and %q", code, stdout.String(), stderr.String(), tt.want)
			}
			if got := asked(opened()); got == 0 {
				t.Errorf("the fake engines were asked %d positions, want some", got)
			}
		})
	}
	states := readCSV(t, filepath.Join(out, "states.csv"))
	if len(states.rows) != 40 {
		t.Errorf("the export has %d rows, want 40", len(states.rows))
	}
	for _, r := range states.rows {
		if got := r[states.col["answered_by"]]; got != string(oracletest.ShallowName) {
			t.Fatalf("a row of %s answered by %q, want %q", r[states.col["board"]], got, oracletest.ShallowName)
		}
	}
}

// serve answers the explorer's API by the factory's engine: a fake one
// answers Connect Four past its book at once.
func TestServeFakeEngine(t *testing.T) {
	open, opened := fakeEngines(t)
	addr, stop := serveWith(t, open, "--game", "connect-four")
	resp, err := http.Get(addr + "api/position?board=&move=" + pastBook)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if want := `"answered_by": "shallow"`; resp.StatusCode != http.StatusOK || !strings.Contains(string(body), want) {
		t.Fatalf("API: %d %s; want 200 and %s", resp.StatusCode, body, want)
	}
	stop()
	if got := asked(opened()); got == 0 {
		t.Errorf("the fake engine was asked %d positions, want some", got)
	}
}
