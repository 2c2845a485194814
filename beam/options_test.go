package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The flags are checked before any work: a missing folder, a bad size or
// a folder of other files are refused with words that say how to mend it.
func TestCheck(t *testing.T) {
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "notes.txt"), []byte("mine"), 0o666); err != nil {
		t.Fatal(err)
	}
	never := filepath.Join(t.TempDir(), "dataset") // a dataset folder a bad command must not make
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no folder", []string{"--size", "3x3"}, "name one with --db DIR"},
		{"a bad size", []string{"--size", "3by3", "--db", t.TempDir()}, "3by3"},
		{"k past the board", []string{"--size", "3x3", "--k", "4", "--db", t.TempDir()}, "k"},
		{"a folder of other files", []string{"--size", "3x3", "--db", other}, "not a database of tateti-lab"},
		{"more than the disk holds", []string{"--gravity", "--size", "6x7", "--k", "4", "--db", t.TempDir()}, "free some space or name a folder on another disk"},
		{"a label with no dataset folder", []string{"--game", "connect-four", "--positions", goodFile(t)}, "name one with --out DIR"},
		{"a database that is none", []string{"--game", "connect-four", "--positions", goodFile(t), "--db", t.TempDir(), "--out", never}, "holds no finished database"},
		{"a database beside an engine", []string{"--game", "connect-four", "--positions", goodFile(t), "--db", t.TempDir(), "--engine", "search", "--out", never}, "--engine search and --db each choose who answers"},
		{"a book beside a sample", []string{"--game", "connect-four", "--sample", "10", "--plies", "4", "--max-ply", "4", "--out", never}, "--max-ply builds an opening book into --db"},
		{"value-only without a set", []string{"--size", "3x3", "--db", t.TempDir(), "--value-only"}, "--value-only goes with a chosen set: give --positions FILE or --sample N"},
		{"a negative time limit", []string{"--game", "connect-four", "--positions", goodFile(t), "--time-limit", "-1s", "--out", never}, "--time-limit -1s is negative"},
		{"quiet positions of a file", []string{"--game", "connect-four", "--positions", goodFile(t), "--quiet-positions", "--out", never}, "--quiet-positions goes with --sample N"},
		{"one of each class of nothing", []string{"--size", "3x3", "--db", t.TempDir(), "--one-per-class"}, "--one-per-class goes with --positions FILE or --sample N"},
		{"a label of an unknown format", []string{"--game", "connect-four", "--positions", goodFile(t), "--out", t.TempDir(), "--format", "xlsx"}, "xlsx"},
		{"a positions file with a bad line", []string{"--game", "connect-four", "--positions", badFile(t), "--out", t.TempDir()}, "line 2"},
		{"an unknown game", []string{"--game", "go", "--positions", goodFile(t), "--out", t.TempDir()}, "go"},
		{"an epsilon with no sample", []string{"--game", "connect-four", "--positions", goodFile(t), "--epsilon", "0.25", "--out", never}, "--epsilon goes with --sample N"},
		{"an epsilon past 1", []string{"--game", "connect-four", "--sample", "10", "--plies", "4-8", "--epsilon", "1.5", "--out", never}, "--epsilon 1.5"},
		{"a sample with no plies", []string{"--game", "connect-four", "--sample", "10", "--out", never}, "--sample goes with --plies"},
		{"a sample of none", []string{"--game", "connect-four", "--sample", "0", "--plies", "4", "--out", never}, "--sample 0 is not a count"},
		{"a sample and a label", []string{"--game", "connect-four", "--sample", "10", "--plies", "4", "--positions", goodFile(t), "--out", never}, "--positions and --sample each choose the positions"},
		{"a sample of more than exist", []string{"--game", "connect-four", "--sample", "8", "--plies", "1", "--out", never}, "7"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var o options
			fl := flag.NewFlagSet("tateti-beam", flag.ContinueOnError)
			o.bind(fl)
			if err := fl.Parse(tt.args); err != nil {
				t.Fatal(err)
			}
			if err := o.check(); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error saying %q", err, tt.want)
			}
			if _, err := os.Stat(never); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("after the check, stat %s: %v; want nothing written", never, err)
			}
		})
	}
}

// goodFile and badFile write a positions file of Connect Four, the second
// with a bad second line (a full column).
func goodFile(t *testing.T) string { return positionsFile(t, "4453\n44\n") }
func badFile(t *testing.T) string  { return positionsFile(t, "4453\n4444444\n") }

func positionsFile(t *testing.T, text string) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), "positions.txt")
	if err := os.WriteFile(name, []byte(text), 0o666); err != nil {
		t.Fatal(err)
	}
	return name
}

// The command says what the solve needs before it starts, and what the
// database holds when it ends; run again, it reports the finished one.
func TestRun(t *testing.T) {
	var o options
	fs := flag.NewFlagSet("tateti-beam", flag.ContinueOnError)
	o.bind(fs)
	dir := filepath.Join(t.TempDir(), "db")
	if err := fs.Parse([]string{"--size", "3x3", "--db", dir}); err != nil {
		t.Fatal(err)
	}
	if err := o.check(); err != nil {
		t.Fatal(err)
	}
	var first, second bytes.Buffer
	if err := run(context.Background(), o, &first); err != nil {
		t.Fatal(err)
	}
	if err := run(context.Background(), o, &second); err != nil {
		t.Fatal(err)
	}
	done := dir + ": 5478 positions; the empty board's value 0 for X, depth 9\n"
	if got := first.String(); !strings.Contains(got, "in 10 tasks") || !strings.HasSuffix(got, done) {
		t.Errorf("first run wrote %q, want the plan and then %q", got, done)
	}
	if got := second.String(); got != done {
		t.Errorf("second run wrote %q, want %q", got, done)
	}
}

// A run's temporary folder is its own and gone after it, with what Beam
// left there, and TMPDIR is as it was.
func TestPrivateTemp(t *testing.T) {
	before := os.TempDir()
	cleanup, err := privateTemp()
	if err != nil {
		t.Fatal(err)
	}
	dir := os.TempDir()
	if dir == before || filepath.Dir(dir) != before {
		t.Errorf("the run's temporary folder is %s, want a new one in %s", dir, before)
	}
	f, err := os.CreateTemp("", "beamloopbackworker-*") // as Beam's Go SDK leaves one
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	cleanup()
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("after the run, stat %s: %v, want it gone", dir, err)
	}
	if got := os.TempDir(); got != before {
		t.Errorf("after the run, os.TempDir() = %s, want %s", got, before)
	}
}
