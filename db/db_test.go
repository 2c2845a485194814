package db_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/tier"
)

// solved gives a fresh database of 3x3 in a folder of its own.
func solved(t *testing.T) (string, rules.Rules) {
	t.Helper()
	rl := rules.Classic(game.Spec{Rows: 3, Cols: 3, K: 3})
	dir := filepath.Join(t.TempDir(), "db")
	if _, err := tier.Solve(context.Background(), rl, dir, 1); err != nil {
		t.Fatal(err)
	}
	return dir, rl
}

// FileSum reads a regular file alone, and stops when its context is
// done: db check's hashing of a tier ends on an interrupt.
func TestFileSum(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "big")
	if err := os.WriteFile(name, make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := db.FileSum(ctx, name); !errors.Is(err, context.Canceled) {
		t.Errorf("FileSum after the interrupt: %v, want context.Canceled", err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.FileSum(context.Background(), filepath.Join(dir, "zero")); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("FileSum of /dev/zero: %v, want it refused as no regular file", err)
	}
}

// A damaged database is refused: when opened if its manifest or a file's
// header or block table is wrong, when probed if a block is, and by Verify
// whatever byte changed.
func TestDamage(t *testing.T) {
	x := game.Board{X: 1 << 4} // X in the centre: in ply 1's only block
	tests := []struct {
		name    string
		damage  func(dir string) error
		at      string // "open" or "probe": where it must be refused
		message string
	}{
		{"no manifest", func(dir string) error { return os.Remove(filepath.Join(dir, db.ManifestName)) }, "open", "no finished database"},
		{"a header byte", flip(1, 13), "open", "header does not match"},
		{"a block table byte", flip(1, 33), "open", "fails its checksum"},
		{"a block's byte", flip(1, -1), "probe", "block 0 fails its checksum"},
		{"a file cut short", func(dir string) error { return os.Truncate(filepath.Join(dir, db.TierName(1)), 40) }, "open", "too short"},
		{"a manifest cut short", func(dir string) error { return os.Truncate(filepath.Join(dir, db.ManifestName), 40) }, "open", "not a solved game's manifest (cut short, or another tool's); remove the folder"},
		{"a file missing", func(dir string) error { return os.Remove(filepath.Join(dir, db.TierName(9))) }, "open", "ply-09.tier: the file is missing; build it again into a new folder: tateti-lab db build --size 3x3 --k 3 "},
		{"a manifest that is a FIFO", func(dir string) error {
			name := filepath.Join(dir, db.ManifestName)
			return errors.Join(os.Remove(name), syscall.Mkfifo(name, 0o644))
		}, "open", "manifest.json: cannot be read (manifest.json is not a regular file (p---------)); remove the folder"},
		{"a tier linked to an endless device", func(dir string) error {
			name := filepath.Join(dir, db.TierName(3))
			return errors.Join(os.Remove(name), os.Symlink("/dev/zero", name))
		}, "open", "ply-03.tier: is not a regular file (Dc---------), and a tier is one; build it again"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, rl := solved(t)
			if err := tt.damage(dir); err != nil {
				t.Fatal(err)
			}
			d, err := db.Open(dir, rl)
			if tt.at == "open" {
				if err == nil || !strings.Contains(err.Error(), tt.message) {
					t.Fatalf("open: %v, want an error saying %q", err, tt.message)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			if _, _, err := d.Probe(x); err == nil || !strings.Contains(err.Error(), tt.message) {
				t.Errorf("probe: %v, want an error saying %q", err, tt.message)
			}
			if err := d.Verify(context.Background()); err == nil {
				t.Error("Verify passed a damaged file")
			}
		})
	}
}

// flip damages byte at (from the end when negative) of ply p's file.
func flip(p, at int) func(dir string) error {
	return func(dir string) error {
		name := filepath.Join(dir, db.TierName(p))
		b, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		if at < 0 {
			at += len(b)
		}
		b[at] ^= 0x40
		return os.WriteFile(name, b, 0o666)
	}
}

// A database opens only for its own game.
func TestOtherGame(t *testing.T) {
	dir, _ := solved(t)
	_, err := db.Open(dir, rules.New(rules.Spec{Spec: game.Spec{Rows: 3, Cols: 3, K: 3}, Misere: true}))
	if err == nil || !strings.Contains(err.Error(), "not of 3x3 k=3 misère") {
		t.Errorf("open for misère: %v, want a refusal naming both games", err)
	}
}

// Codes keep a value and a depth, and 0 says a board play cannot reach.
func TestCodes(t *testing.T) {
	for _, v := range []perfect.Value{perfect.OWins, perfect.Draw, perfect.XWins} {
		for _, d := range []perfect.Depth{0, 1, 30, db.MaxDepth} {
			c := db.Pack(v, d)
			gv, gd, ok := db.Unpack(c)
			if c == 0 || !ok || gv != v || gd != d {
				t.Errorf("Pack(%d, %d) = %d, unpacked %d, %d, %v", v, d, c, gv, gd, ok)
			}
		}
	}
	if _, _, ok := db.Unpack(0); ok {
		t.Error("code 0 unpacked as a position")
	}
}

// Example: solve 3x3 into a database, then probe a position.
func ExampleDB_Probe() {
	rl := rules.Classic(game.Spec{Rows: 3, Cols: 3, K: 3})
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	if _, err := tier.Solve(context.Background(), rl, filepath.Join(dir, "db"), 2); err != nil {
		panic(err)
	}
	d, err := db.Open(filepath.Join(dir, "db"), rl)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	b, _ := rl.Spec().Parse("X../.O./..X")
	o, ok, _ := d.Probe(b)
	fmt.Println(o.Value, o.Depth, ok)
	// Output: draw 6 true
}

// probeDB names the database BenchmarkProbe probes: -args -probe-db=DIR,
// such as Connect Four 6x5's; a fresh gravity 4x5 one when empty.
var probeDB = flag.String("probe-db", "", "BenchmarkOpen, BenchmarkProbe: the database folder to open and probe")

// benchDB gives the database -probe-db names (the Connect Four book's
// folder, ../book/connect-four, say), or a 4x5 gravity one built here,
// opened.
func benchDB(b *testing.B) *db.DB {
	dir := *probeDB
	rl := rules.New(rules.Spec{Spec: game.Spec{Rows: 4, Cols: 5, K: 4}, Gravity: true})
	if dir == "" {
		dir = filepath.Join(b.TempDir(), "db")
		if _, err := tier.Solve(context.Background(), rl, dir, 2); err != nil {
			b.Fatal(err)
		}
	} else if m, err := db.ReadManifest(dir); err == nil {
		rl = rules.New(m.Game)
	}
	d, err := db.Open(dir, rl)
	if err != nil {
		b.Fatal(err)
	}
	return d
}

// BenchmarkOpen opens the database: its manifest, each tier's header, game
// and table checked, and a legacy tier (version 1 or 2) read whole for its
// SHA-256 (docs/performance.md: the Connect Four book in under 50 ms).
func BenchmarkOpen(b *testing.B) {
	d := benchDB(b)
	dir := filepath.Dir(d.TierPath(0))
	d.Close()
	for b.Loop() {
		d, err := db.Open(dir, d.Rules)
		if err != nil {
			b.Fatal(err)
		}
		d.Close()
	}
}

// BenchmarkProbe probes positions drawn by random play, 4,096 of them, of
// plies 8 to 15 or the database's last, far more blocks than the cache
// keeps in a large database: most probes read and inflate a block.
func BenchmarkProbe(b *testing.B) {
	d := benchDB(b)
	defer d.Close()
	rl := d.Rules
	rng := rand.New(rand.NewPCG(1, 2))
	boards := make([]game.Board, 4096)
	for i := range boards {
		for ply := min(8+rng.IntN(8), d.Manifest.Last()); ply > 0; ply-- {
			moves := uint64(rl.Moves(boards[i]))
			if moves == 0 {
				break
			}
			for skip := rng.IntN(bits.OnesCount64(moves)); skip > 0; skip-- {
				moves &= moves - 1
			}
			boards[i] = boards[i].Play(bits.TrailingZeros64(moves), boards[i].ToMove())
		}
	}
	i := 0
	for b.Loop() {
		if _, ok, err := d.Probe(boards[i%len(boards)]); err != nil || !ok {
			b.Fatalf("%v, %v", ok, err)
		}
		i++
	}
}
