package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/memfs"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/tier"
)

func TestMain(m *testing.M) {
	registerFns()
	filesystem.Register("strictfs", func(ctx context.Context) filesystem.Interface {
		return strictFS{memfs.New(ctx)}
	})
	cleanup, err := privateTemp()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	code := ptest.MainRetWithDefault(m, "prism")
	cleanup()
	os.Exit(code)
}

// The pipeline, run on Prism, writes the database the local tier solve
// writes, file for file and byte for byte; so it does when every task runs
// twice, as a retried task does.
func TestSameDatabase(t *testing.T) {
	tests := []struct {
		name   string
		spec   rules.Spec
		maxPly int // an opening book's last ply; -1 for the whole game
		blocks int // the blocks a task takes; 0 for 64, the local solve's
	}{
		// Gravity 4x4 in the local solve's tasks, 4x5 in smaller ones below:
		// 4x5 a third time added a sixth of the test's time and no path.
		{"gravity 4x4 k=4", rules.Spec{Spec: game.Spec{Rows: 4, Cols: 4, K: 4}, Gravity: true}, -1, 0},
		{"free 3x4 k=3", rules.Spec{Spec: game.Spec{Rows: 3, Cols: 4, K: 3}}, -1, 0},
		{"free 4x4 k=4, plies of two tasks", rules.Spec{Spec: game.Spec{Rows: 4, Cols: 4, K: 4}}, -1, 0},
		{"free 3x3 k=2, no game reaches plies 8 and 9", rules.Spec{Spec: game.Spec{Rows: 3, Cols: 3, K: 2}}, -1, 0},
		// An opening book: ply 10 searched, in tasks of a block each.
		{"gravity 4x5 k=4, its book to ply 10", rules.Spec{Spec: game.Spec{Rows: 4, Cols: 5, K: 4}, Gravity: true}, 10, 0},
		// Up to 14 tasks a ply, a backward task reading a few of the next
		// ply's: the same files as the local solve's tasks of 64 blocks.
		{"gravity 4x5 k=4, tasks of 4 blocks", rules.Spec{Spec: game.Spec{Rows: 4, Cols: 5, K: 4}, Gravity: true}, -1, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel() // Prism leaves cores idle between stages: two boards at once fill them
			job, err := tier.JobOf(rules.New(tt.spec), tt.maxPly)
			if err != nil {
				t.Fatal(err)
			}
			local := filepath.Join(t.TempDir(), "local")
			if _, err := tier.BuildJob(context.Background(), job, local, 2); err != nil {
				t.Fatal(err)
			}
			for _, twice := range []bool{false, true} {
				dir := filepath.Join(t.TempDir(), "beam")
				unlock, err := job.Claim(dir) // as the command does
				if err != nil {
					t.Fatal(err)
				}
				defer unlock()
				p, s := beam.NewPipelineWithRoot()
				if err := build(s, stage{Spec: tt.spec, MaxPly: tt.maxPly, TaskBlocks: tt.blocks, Store: dir}, twice); err != nil {
					t.Fatal(err)
				}
				if err := ptest.Run(p); err != nil {
					t.Fatalf("twice=%v: %v", twice, err)
				}
				sameFiles(t, dir, local)
			}
		})
	}
}

// The win/draw/loss solve on Prism writes the tiers and manifest the local
// solve writes, byte for byte, in tasks of 65,536 positions or of a ply,
// once or twice each; the manifest once db build on the folder has
// counted the positions play reaches, which the local build counts
// itself.
func TestSameWDLDatabase(t *testing.T) {
	tests := []struct {
		name   string
		spec   rules.Spec
		blocks int // tasks of blocks·4 blocks of positions; 0 for tier.WDLTaskPositions
	}{
		{"gravity 4x5 k=4, tasks of 65,536 positions", rules.Spec{Spec: game.Spec{Rows: 4, Cols: 5, K: 4}, Gravity: true}, 1},
		{"gravity misère 4x4 k=3, a task a ply", rules.Spec{Spec: game.Spec{Rows: 4, Cols: 4, K: 3}, Gravity: true, Misere: true}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel() // Prism leaves cores idle between stages: two boards at once fill them
			rl := rules.New(tt.spec)
			local := filepath.Join(t.TempDir(), "local")
			if _, err := tier.SolveWDL(context.Background(), rl, local, 2); err != nil {
				t.Fatal(err)
			}
			j, err := tier.NewWDLJob(rl)
			if err != nil {
				t.Fatal(err)
			}
			for _, twice := range []bool{false, true} {
				dir := filepath.Join(t.TempDir(), "beam")
				unlock, err := j.Claim(dir) // as the command does
				if err != nil {
					t.Fatal(err)
				}
				p, s := beam.NewPipelineWithRoot()
				if err := buildWDL(s, stage{Spec: tt.spec, TaskBlocks: tt.blocks, Store: dir, WDL: true}, twice); err != nil {
					t.Fatal(err)
				}
				err = ptest.Run(p)
				unlock()
				if err != nil {
					t.Fatalf("twice=%v: %v", twice, err)
				}
				if _, err := tier.SolveWDL(context.Background(), rl, dir, 2); err != nil { // counts what play reaches
					t.Fatal(err)
				}
				sameFiles(t, dir, local)
			}
		})
	}
}

// Through a filesystem of Beam's rather than the operating system's (its
// in-memory one here, as gs:// on a cluster), the pipeline writes the same
// files but the folder's marker, which only a local folder has.
func TestObjectStore(t *testing.T) {
	g := rules.Spec{Spec: game.Spec{Rows: 3, Cols: 4, K: 3}}
	local := filepath.Join(t.TempDir(), "local")
	if _, err := tier.Solve(context.Background(), rules.New(g), local, 2); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(local, ".tateti-db"))
	const root = "memfs://tateti/free-3x4"
	p, s := beam.NewPipelineWithRoot()
	if err := build(s, stage{Spec: g, MaxPly: -1, Store: root}, false); err != nil {
		t.Fatal(err)
	}
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
	copied := t.TempDir()
	fsys := memfs.New(context.Background())
	names, err := fsys.List(context.Background(), root+"/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		data, err := store(root).read(context.Background(), filepath.Base(name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(copied, filepath.Base(name)), data, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	sameFiles(t, copied, local)
}

// sameFiles checks that dir, the pipeline's, holds the files of want, the
// local run's, and no others, with the same bytes.
func sameFiles(t *testing.T, dir, want string) {
	t.Helper()
	got, _ := os.ReadDir(dir)
	wanted, _ := os.ReadDir(want)
	names := map[string]bool{}
	for _, e := range got {
		names[e.Name()] = true
	}
	for _, e := range wanted {
		a, errA := os.ReadFile(filepath.Join(dir, e.Name()))
		b, errB := os.ReadFile(filepath.Join(want, e.Name()))
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			t.Errorf("%s: not the local run's bytes (%v, %v)", e.Name(), errA, errB)
		}
		delete(names, e.Name())
	}
	for name := range names {
		t.Errorf("%s: left in the folder, not in the local run's", name)
	}
}

// strictFS is Beam's in-memory filesystem but for removing: a file that is
// not there is an error, as an object store's delete of a missing object
// is.
type strictFS struct{ filesystem.Interface }

func (f strictFS) Remove(ctx context.Context, name string) error {
	if _, err := f.Size(ctx, name); err != nil {
		return fmt.Errorf("%s: no such object", name)
	}
	// memfs keys its files by "memfs://" and the name, and its Remove takes
	// the key.
	return f.Interface.(filesystem.Remover).Remove(ctx, "memfs://"+name)
}

// Removing a file a step removed already, as a retried step does, is no
// error in an object store whose delete of a missing object is one.
func TestRemoveTwice(t *testing.T) {
	ctx := context.Background()
	s := store("strictfs://tateti/db")
	if err := s.write(ctx, "ply-03.part-000000", []byte("codes")); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if err := s.remove(ctx, "ply-03.part-000000"); err != nil {
			t.Errorf("removal %d: %v", i+1, err)
		}
	}
	if _, err := s.read(ctx, "ply-03.part-000000"); err == nil {
		t.Error("the file is still there")
	}
}
