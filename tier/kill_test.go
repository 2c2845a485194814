//go:build unix

package tier

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/db/dbwrite"
	"github.com/tateti-lab/tateti-lab/internal/atomicfile"
	"github.com/tateti-lab/tateti-lab/internal/longtest"
	"github.com/tateti-lab/tateti-lab/rules"
)

// killDir is where TestKilled's child solves, and killCase which of its
// cases; the child is this test binary, run again with them set.
const (
	killDir  = "TATETI_TIER_KILL_DIR"
	killCase = "TATETI_TIER_KILL_CASE"
	// killFileSize, when set, caps the bytes of each file the child
	// writes (RLIMIT_FSIZE): a write past it fails, as on a full disk.
	killFileSize = "TATETI_TIER_KILL_FSIZE"
)

// A killPoint is one of TestKilled's cases: a game, the workers of the
// child, the file whose arrival sets off the kill, and the files the kill
// must leave, for the rerun to resume from.
type killPoint struct {
	name    string
	game    rules.Spec
	maxPly  int // an opening book's last ply; -1 for the whole game
	blocks  int // the blocks a task takes (Job.WithTaskBlocks); 0 for 64
	workers int
	signal  string
	left    []string
	long    bool // a long check (TATETI_LONG=1): the others kill at the other points
	wdl     bool // the win/draw/loss solve, in tasks of blocks·4·db.BlockLen positions
}

// killCases are TestKilled's.
var killCases = []killPoint{
	// Gravity 4x5: a second or two, a task a ply.
	{"in the forward pass", spec(4, 5, 4, true, false), -1, 0, 2, ReachName(12), []string{ReachName(12)}, true, false},
	{"in the backward pass", spec(4, 5, 4, true, false), -1, 0, 2, db.TierName(14), []string{db.TierName(14)}, false, false},
	// Gravity 4x5 in tasks of a block: ply 15 has 48, which one worker
	// runs in turn; the kill comes after the first one's part.
	{"between two tasks", spec(4, 5, 4, true, false), -1, 1, 1, dbwrite.PartName(15, 0), []string{dbwrite.PartName(15, 0)}, true, false},
	// Gravity 4x5's book to ply 10: the ply searched has several tasks of
	// a block each; the kill comes after the first one's part.
	{"between two searches", spec(4, 5, 4, true, false), 10, 0, 1, dbwrite.PartName(10, 0), []string{dbwrite.PartName(10, 0)}, true, false},
	// The win/draw/loss solve of gravity 4x5: after a ply's tier, and in
	// tasks of 65,536 positions between two tasks of ply 12 (4 of them).
	{"win/draw/loss: after a ply", spec(4, 5, 4, true, false), -1, 0, 2, db.TierName(14), []string{db.TierName(14)}, true, true},
	{"win/draw/loss: between two tasks", spec(4, 5, 4, true, false), -1, 1, 1, dbwrite.PartName(12, 0), []string{dbwrite.PartName(12, 0)}, false, true},
	// ... and in the count of the positions play reaches, the database
	// finished, after a ply's counts are kept.
	{"win/draw/loss: in the count", spec(4, 5, 4, true, false), -1, 0, 2, CountsName(10), nil, true, true},
}

// solveCase solves the game of a kill case into dir: the whole game, or
// its book to maxPly, in tasks of blocks blocks (0 for 64); or its
// win/draw/loss solve, in tasks of blocks·4 blocks of codes (0 for
// WDLTaskPositions).
func solveCase(rl rules.Rules, maxPly, blocks int, dir string, workers int, wdl bool) (db.Manifest, error) {
	if wdl {
		j, err := NewWDLJob(rl)
		if err != nil {
			return db.Manifest{}, err
		}
		if blocks > 0 {
			j.taskLen = int64(blocks) * 4 * db.BlockLen
		}
		return j.solve(context.Background(), dir, workers)
	}
	j, err := cutJob(rl, maxPly, blocks)
	if err != nil {
		return db.Manifest{}, err
	}
	return build(context.Background(), j, dir, workers)
}

// cutJob gives the job of rl's game, or of its book to maxPly (JobOf), in
// tasks of blocks blocks, or of 64 for 0 (WithTaskBlocks).
func cutJob(rl rules.Rules, maxPly, blocks int) (*Job, error) {
	j, err := JobOf(rl, maxPly)
	if err != nil || blocks == 0 {
		return j, err
	}
	return j.WithTaskBlocks(blocks)
}

// TestMain runs the child of TestKilled when asked: a solve into the folder
// killDir names, until it is killed.
func TestMain(m *testing.M) {
	if dir := os.Getenv(killDir); dir != "" {
		c := killCases[0]
		for _, k := range killCases {
			if k.name == os.Getenv(killCase) {
				c = k
			}
		}
		if n, err := strconv.ParseUint(os.Getenv(killFileSize), 10, 64); err == nil {
			if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: n, Max: n}); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(4)
			}
		}
		if _, err := solveCase(rules.New(c.game), c.maxPly, c.blocks, dir, c.workers, c.wdl); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		os.Exit(0)
	}
	code := m.Run()
	if wholesDir != "" {
		os.RemoveAll(wholesDir)
	}
	os.Exit(code)
}

// The databases of the kill cases' games solved never stopped, one a
// game, book and kind, solved once for every test that compares with
// them: in wholesDir, made on first use and removed after the tests.
var (
	wholesMu  sync.Mutex
	wholesDir string
	wholes    = map[string]string{}
)

// uninterrupted gives the folder of case tt's database solved never
// stopped, with two workers in tasks of the default size.
func uninterrupted(t *testing.T, tt killPoint) string {
	t.Helper()
	wholesMu.Lock()
	defer wholesMu.Unlock()
	key := fmt.Sprint(tt.game, tt.maxPly, tt.wdl)
	if whole, ok := wholes[key]; ok {
		return whole
	}
	if wholesDir == "" {
		dir, err := os.MkdirTemp("", "tier-wholes-")
		if err != nil {
			t.Fatal(err)
		}
		wholesDir = dir
	}
	whole := filepath.Join(wholesDir, fmt.Sprint("whole-", len(wholes)))
	if _, err := solveCase(rules.New(tt.game), tt.maxPly, 0, whole, 2, tt.wdl); err != nil {
		t.Fatal(err)
	}
	wholes[key] = whole
	return whole
}

// A run killed outright (SIGKILL) in either pass, between two tasks of a
// ply, or in a win/draw/loss count of what play reaches, and run again,
// writes the same database as a run never stopped, and leaves no
// temporary or scratch file.
func TestKilled(t *testing.T) {
	t.Parallel() // its own folders and games: it runs beside the others
	if testing.Short() {
		t.Skip("runs child processes and kills them, minutes under -race; runs without -short")
	}
	for _, tt := range killCases {
		t.Run(tt.name, func(t *testing.T) {
			if tt.long {
				longtest.Skip(t, "a kill of the tier solve at one more point")
			}
			whole := uninterrupted(t, tt)
			dir := filepath.Join(t.TempDir(), "db")
			kill(t, dir, tt.name, tt.signal)
			for _, name := range tt.left {
				if !exists(filepath.Join(dir, name)) {
					t.Fatalf("%s is not there after the kill: kill it earlier", name)
				}
			}
			if _, err := solveCase(rules.New(tt.game), tt.maxPly, tt.blocks, dir, 1, tt.wdl); err != nil {
				t.Fatal(err)
			}
			sameFiles(t, dir, whole)
			noScratch(t, dir)
		})
	}
}

// kill runs the child of case name into dir and kills it with SIGKILL as
// soon as signal appears there, before the database is finished.
func kill(t *testing.T, dir, name, signal string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), killDir+"="+dir, killCase+"="+name)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); !exists(filepath.Join(dir, signal)); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("%s never appeared", signal)
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if m, err := db.ReadManifest(dir); err == nil && (!db.Packed(m.Layout) || len(m.Reached) > 0) {
		t.Fatal("the run finished before it was killed: kill it earlier")
	}
}

// sameFiles checks that dir holds the files of want, byte for byte, and
// nothing else but the marker.
func sameFiles(t *testing.T, dir, want string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	wanted, _ := os.ReadDir(want)
	if len(entries) != len(wanted) {
		t.Errorf("%d files after the kill, want %d", len(entries), len(wanted))
	}
	for _, e := range entries {
		a, b := read(t, filepath.Join(dir, e.Name())), ""
		if exists(filepath.Join(want, e.Name())) {
			b = read(t, filepath.Join(want, e.Name()))
		}
		if a != b {
			t.Errorf("%s differs from an uninterrupted run's, or is not one of its files", e.Name())
		}
	}
}

// noScratch checks that dir holds no temporary file, reach bits or part.
func noScratch(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if n := e.Name(); strings.Contains(n, atomicfile.TempInfix) || strings.HasPrefix(n, "reach-") || strings.Contains(n, ".part-") {
			t.Errorf("%s left in the folder", n)
		}
	}
}

// A run whose writes fail, as on a full disk (each file capped at 8 KiB
// here, past the first plies' tiers and parts), stops with the error and
// leaves no temporary file; run again with room, it writes the same
// database as a run never stopped: the database of values and depths and
// the win/draw/loss one alike.
func TestDiskFull(t *testing.T) {
	t.Parallel() // its own folders and games: it runs beside the others
	if testing.Short() {
		t.Skip("runs child processes; runs without -short")
	}
	for _, name := range []string{"win/draw/loss: after a ply", "in the backward pass"} {
		t.Run(name, func(t *testing.T) {
			if name == "in the backward pass" {
				longtest.Skip(t, "a full disk in the solve of values and depths too")
			}
			var tt = killCases[0]
			for _, k := range killCases {
				if k.name == name {
					tt = k
				}
			}
			whole := uninterrupted(t, tt)
			dir := filepath.Join(t.TempDir(), "db")
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), killDir+"="+dir, killCase+"="+name, killFileSize+"=8192")
			out, err := cmd.CombinedOutput()
			if code := cmd.ProcessState.ExitCode(); code != 3 || !strings.Contains(string(out), "file too large") {
				t.Fatalf("with each file capped: exit %d (%v), %q; want 3 and the write's error", code, err, out)
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if strings.Contains(e.Name(), atomicfile.TempInfix) {
					t.Errorf("%s left in the folder by the failed write", e.Name())
				}
			}
			if exists(filepath.Join(dir, db.ManifestName)) {
				t.Fatal("the run finished within the cap: cap the files lower")
			}
			if _, err := solveCase(rules.New(tt.game), tt.maxPly, tt.blocks, dir, 1, tt.wdl); err != nil {
				t.Fatal(err)
			}
			sameFiles(t, dir, whole)
			noScratch(t, dir)
		})
	}
}
