//go:build unix

package tier

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/internal/atomicfile"
	"github.com/tateti-lab/tateti-lab/rules"
)

// killDir is where TestKilled's child solves; the child is this test
// binary, run again with it set.
const killDir = "TATETI_TIER_KILL_DIR"

// killed is the game TestKilled solves: gravity 4x5, a second or two.
var killed = spec(4, 5, 4, true, false)

// TestMain runs the child of TestKilled when asked: a solve into the folder
// killDir names, until it is killed.
func TestMain(m *testing.M) {
	if dir := os.Getenv(killDir); dir != "" {
		if _, err := Solve(context.Background(), rules.New(killed), dir, 2); err != nil {
			os.Exit(3)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// A run killed outright (SIGKILL) in either pass, and run again, writes the
// same database as a run never stopped, and leaves no temporary file.
func TestKilled(t *testing.T) {
	whole := filepath.Join(t.TempDir(), "whole")
	want, err := Solve(context.Background(), rules.New(killed), whole, 2)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		signal string // the file whose arrival sets off the kill
	}{
		{"in the forward pass", reachName(12)},
		{"in the backward pass", db.TierName(14)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "db")
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), killDir+"="+dir)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			for deadline := time.Now().Add(time.Minute); !exists(filepath.Join(dir, tt.signal)); time.Sleep(time.Millisecond) {
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					t.Fatalf("%s never appeared", tt.signal)
				}
			}
			cmd.Process.Signal(syscall.SIGKILL)
			cmd.Wait()
			if exists(filepath.Join(dir, db.ManifestName)) {
				t.Fatal("the run finished before it was killed: kill it earlier")
			}
			got, err := Solve(context.Background(), rules.New(killed), dir, 1)
			if err != nil {
				t.Fatal(err)
			}
			for p := range want.Plies {
				if got.Plies[p] != want.Plies[p] {
					t.Errorf("ply %d: %+v after the kill, want %+v", p, got.Plies[p], want.Plies[p])
				}
			}
			if a, b := read(t, filepath.Join(dir, db.ManifestName)), read(t, filepath.Join(whole, db.ManifestName)); a != b {
				t.Errorf("manifest after the kill:\n%s\nwant:\n%s", a, b)
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if strings.Contains(e.Name(), atomicfile.TempInfix) || strings.HasPrefix(e.Name(), "reach-") {
					t.Errorf("%s left in the folder", e.Name())
				}
			}
		})
	}
}

func exists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}

func read(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
