package tier

import (
	"bytes"
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/db/dbwrite"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/atomicfile"
	"github.com/tateti-lab/tateti-lab/internal/longtest"
	"github.com/tateti-lab/tateti-lab/internal/progress"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/search"
	"github.com/tateti-lab/tateti-lab/solve"
)

func spec(rows, cols, k int, gravity, misere bool) rules.Spec {
	return rules.Spec{Spec: game.Spec{Rows: rows, Cols: cols, K: k}, Gravity: gravity, Misere: misere}
}

// A database answers every reachable position as the exhaustive solve
// does, and holds no other: its positions by ply are the enumeration's.
func TestAgreesWithSolve(t *testing.T) {
	tests := []struct {
		name string
		spec rules.Spec
	}{
		{"3x3", spec(3, 3, 3, false, false)},
		{"misère 3x3", spec(3, 3, 3, false, true)},
		{"gravity 4x4", spec(4, 4, 4, true, false)},
		{"gravity misère 3x4 k=3", spec(3, 4, 3, true, true)},
		{"free 4x4", spec(4, 4, 4, false, false)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.spec.Cells() > 12 && !tt.spec.Gravity {
				longtest.Skip(t, "free 4x4 tier by tier")
			}
			rl := rules.New(tt.spec)
			dir := filepath.Join(t.TempDir(), "db")
			m, err := Solve(context.Background(), rl, dir, 2)
			if err != nil {
				t.Fatal(err)
			}
			want, err := solve.Lean(context.Background(), rl, 2)
			if err != nil {
				t.Fatal(err)
			}
			d, err := db.Open(dir, rl)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			e := want.Enum
			if got := m.Positions; got != int64(len(e.IDs)) {
				t.Errorf("positions %d, want %d", got, len(e.IDs))
			}
			if m.Value != want.Value[0] || m.Depth != want.Depth[0] {
				t.Errorf("empty board %d in %d, want %d in %d", m.Value, m.Depth, want.Value[0], want.Depth[0])
			}
			for i := range e.IDs {
				b := e.Board(i)
				o, ok, err := d.Probe(b)
				if err != nil || !ok || o.Value != want.Value[i] || o.Depth != want.Depth[i] {
					t.Fatalf("%s: %d in %d (%v, %v), want %d in %d", tt.spec.Format(b), o.Value, o.Depth, ok, err, want.Value[i], want.Depth[i])
				}
			}
			if err := d.Verify(context.Background()); err != nil {
				t.Error(err)
			}
		})
	}
}

// The positions by ply and value for the side to move sum to the
// positions, and a finished board counts as lost or drawn for the side
// that would move.
func TestCounts(t *testing.T) {
	m, err := Solve(context.Background(), rules.New(spec(3, 3, 3, false, false)), t.TempDir(), 1)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name                        string
		ply                         int
		positions, won, drawn, lost int64
	}{
		{"the empty board", 0, 1, 0, 1, 0},
		{"X's first moves: O to move draws", 1, 9, 0, 9, 0},
		{"the full boards: O to move has lost or drawn", 9, 16 + 62, 0, 16, 62},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := m.Plies[tt.ply]
			if got.Positions != tt.positions || got.Won != tt.won || got.Drawn != tt.drawn || got.Lost != tt.lost {
				t.Errorf("ply %d: %d positions, %d won, %d drawn, %d lost; want %d, %d, %d, %d", tt.ply, got.Positions, got.Won, got.Drawn, got.Lost, tt.positions, tt.won, tt.drawn, tt.lost)
			}
		})
	}
	if m.Positions != 5478 {
		t.Errorf("3x3: %d positions, want 5,478", m.Positions)
	}
}

// The same game solved with one worker and with two gives the same bytes:
// gravity 4x4, a task a ply, and free 4x4, whose plies 9 to 12 have two
// tasks each, run in turn by one worker and side by side by two.
func TestWorkersAgree(t *testing.T) {
	for _, g := range []rules.Spec{spec(4, 4, 4, true, false), spec(4, 4, 4, false, false)} {
		t.Run(g.String(), func(t *testing.T) {
			if !g.Gravity {
				longtest.Skip(t, "free 4x4 tier by tier, twice")
			}
			rl := rules.New(g)
			one, err := Solve(context.Background(), rl, filepath.Join(t.TempDir(), "one"), 1)
			if err != nil {
				t.Fatal(err)
			}
			two, err := Solve(context.Background(), rl, filepath.Join(t.TempDir(), "two"), 2)
			if err != nil {
				t.Fatal(err)
			}
			samePlies(t, two, one, "two workers", "one")
		})
	}
}

// Tasks of one block each write the database that tasks of 64 write:
// gravity 4x4's plies 10 to 15 then take two or three tasks, and a
// backward task reads only some of the next ply's (the Beam pipeline's
// test cuts gravity 4x5 in tasks of 4 blocks). A task of no block, or of
// more than 64, is refused.
func TestTaskBlocks(t *testing.T) {
	rl := rules.New(spec(4, 4, 4, true, false))
	j, err := NewJob(rl)
	if err != nil {
		t.Fatal(err)
	}
	small, err := j.WithTaskBlocks(1)
	if err != nil {
		t.Fatal(err)
	}
	if someReads(small) < 0 {
		t.Fatal("tasks of one block: every backward task reads all of the next ply's, want some reading a few")
	}
	want, err := build(context.Background(), j, filepath.Join(t.TempDir(), "64"), 2)
	if err != nil {
		t.Fatal(err)
	}
	got, err := build(context.Background(), small, filepath.Join(t.TempDir(), "1"), 2)
	if err != nil {
		t.Fatal(err)
	}
	samePlies(t, got, want, "tasks of one block", "of 64")
	for _, n := range []int{0, 65} {
		if _, err := j.WithTaskBlocks(n); err == nil || !strings.Contains(err.Error(), "1 to 64 blocks") {
			t.Errorf("tasks of %d blocks: %v, want the error naming 1 to 64", n, err)
		}
	}
}

// samePlies checks that the databases got and want, written as gotBy and
// wantBy say, hold the same tier files, ply by ply.
func samePlies(t *testing.T, got, want db.Manifest, gotBy, wantBy string) {
	t.Helper()
	for p := range want.Plies {
		if g, w := got.Plies[p].SHA256, want.Plies[p].SHA256; g != w {
			t.Errorf("ply %d: %s wrote %s, %s %s", p, gotBy, g, wantBy, w)
		}
	}
}

// someReads gives a ply of j one of whose backward tasks reads some but
// not all of the next ply's tasks, even were every placement reachable,
// and -1 when there is none.
func someReads(j *Job) int {
	for p := 0; p < j.Plies(); p++ {
		for k := range j.Tasks(p) {
			lo, hi := j.Range(p, k)
			have := make([]uint64, words(hi-lo))
			for i := range have {
				have[i] = ^uint64(0)
			}
			if n := len(j.NextTasks(p, lo, hi, have)); n > 0 && n < j.Tasks(p+1) {
				return p
			}
		}
	}
	return -1
}

// A folder that holds other files is refused; one that holds another
// game's database too.
func TestFolders(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o666); err != nil {
		t.Fatal(err)
	}
	if _, err := Solve(context.Background(), rules.New(spec(3, 3, 3, false, false)), dir, 1); err == nil {
		t.Error("a folder of other files was taken")
	}
	other := filepath.Join(t.TempDir(), "db")
	if _, err := Solve(context.Background(), rules.New(spec(3, 3, 3, false, false)), other, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := Solve(context.Background(), rules.New(spec(3, 3, 3, false, true)), other, 1); err == nil {
		t.Error("another game's database was taken")
	}
	// A folder that another run has just made, its marker still being
	// written, is no stranger's: the run racing it goes on to meet its
	// lock (issue 43, case 11: it said "holds files that are not a
	// database" in 3 of 6 races).
	racing := t.TempDir()
	if err := os.WriteFile(filepath.Join(racing, "."+db.MarkerName+atomicfile.TempInfix+"1"), nil, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := CheckFolder(racing, spec(3, 3, 3, false, false)); err != nil {
		t.Errorf("a folder whose marker is being written: %v, want it taken", err)
	}
	// A link to nothing is named as such, not "file exists" (issue 43,
	// case 11).
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(filepath.Join(t.TempDir(), "gone"), link); err != nil {
		t.Fatal(err)
	}
	if _, err := Solve(context.Background(), rules.New(spec(3, 3, 3, false, false)), link, 1); err == nil || !strings.Contains(err.Error(), "which does not exist") {
		t.Errorf("a dangling link: %v, want it named a link to nothing", err)
	}
}

// A folder's scratch files are a run's own: a build that finishes a folder
// a killed Beam run left removes that run's reach bits and pieces, and
// parts; a file named as one of them that is not is refused before the run
// begins, and never removed (issue 43, case 11: they were deleted without
// a word).
func TestScratchFiles(t *testing.T) {
	g := spec(3, 3, 3, false, false)
	bits := EncodeBits([]uint64{5})
	_, part, err := dbwrite.EncodePart(2, 0, []byte{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	ours := map[string][]byte{
		TaskReachName(3, 0):                  bits,
		TaskReachName(4, 1) + ".from-000000": bits,
		TaskReachName(5, 0):                  nil, // none reachable
		ReachName(6):                         bits,
		dbwrite.PartName(2, 0):               slices.Concat(part...),
		SearchedName(7):                      searchedHeader(g, 7),
	}
	tests := []struct {
		name    string
		foreign string // a file named as scratch that is not, "" for none
		dir     bool   // the foreign name is a folder
	}{
		{"a killed Beam run's", "", false},
		{"reach bits of someone else's", ReachName(5), false},
		{"a task's range of someone else's", TaskReachName(7, 0), false},
		{"a part of someone else's", dbwrite.PartName(4, 0), false},
		{"searched codes of someone else's", SearchedName(8), false},
		{"a folder named as reach bits", ReachName(2), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "db")
			unlock, err := Claim(dir, g)
			if err != nil {
				t.Fatal(err)
			}
			unlock()
			for name, data := range ours {
				if err := os.WriteFile(filepath.Join(dir, name), data, 0o666); err != nil {
					t.Fatal(err)
				}
			}
			want := []string{db.MarkerName}
			if tt.foreign != "" {
				want = append(want, tt.foreign)
				writeForeign(t, filepath.Join(dir, tt.foreign), tt.dir)
			}
			err = CheckFolder(dir, g)
			switch {
			case tt.foreign == "" && err != nil:
				t.Fatalf("the folder a run left is refused: %v", err)
			case tt.foreign != "" && (err == nil || !strings.Contains(err.Error(), tt.foreign+", named as a scratch file of tateti-lab but not one")):
				t.Fatalf("error %v, want %s named as no scratch file", err, tt.foreign)
			}
			if err := Tidy(dir); err != nil {
				t.Fatal(err)
			}
			slices.Sort(want)
			if got := listNames(t, dir); !slices.Equal(got, want) {
				t.Errorf("after Tidy the folder holds %v, want %v", got, want)
			}
		})
	}
}

// writeForeign makes a file, or a folder, of someone else's at path.
func writeForeign(t *testing.T, path string, dir bool) {
	t.Helper()
	var err error
	if dir {
		err = os.Mkdir(path, 0o777)
	} else {
		err = os.WriteFile(path, []byte("mine, not a run's"), 0o666)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// BenchmarkSolve solves gravity boards tier by tier into a fresh folder:
// Solve/5x5 takes about half a minute on two cores.
func BenchmarkSolve(b *testing.B) {
	for _, sp := range []rules.Spec{spec(4, 5, 4, true, false), spec(5, 5, 4, true, false)} {
		b.Run(sp.Size(), func(b *testing.B) {
			for b.Loop() {
				if _, err := Solve(context.Background(), rules.New(sp), b.TempDir(), 2); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// Gravity 5x5 (k=4), too large to check whole here, agrees with search,
// an independent solver, on 300 positions drawn by random play.
func TestGravity5x5Sample(t *testing.T) {
	longtest.Skip(t, "gravity 5x5 tier by tier, about 25 s")
	t.Parallel() // its own folder: it runs beside the others
	sp := spec(5, 5, 4, true, false)
	rl := rules.New(sp)
	dir := filepath.Join(t.TempDir(), "db")
	if _, err := Solve(context.Background(), rl, dir, 2); err != nil {
		t.Fatal(err)
	}
	d, err := db.Open(dir, rl)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	s, err := search.New(sp, search.Options{TableBits: 22, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 5))
	for range 300 {
		var b game.Board
		for ply := 6 + rng.IntN(15); ply > 0; ply-- {
			moves := uint64(rl.Moves(b))
			if moves == 0 {
				break
			}
			for skip := rng.IntN(bits.OnesCount64(moves)); skip > 0; skip-- {
				moves &= moves - 1
			}
			b = b.Play(bits.TrailingZeros64(moves), b.ToMove())
		}
		want, err := s.Solve(context.Background(), uint64(b.X), uint64(b.O))
		if err != nil {
			t.Fatal(err)
		}
		o, ok, err := d.Probe(b)
		if err != nil || !ok || o.Value != want.Value || o.Depth != want.Depth {
			t.Fatalf("%s: %d in %d (%v, %v) from the database, search says %d in %d", sp.Format(b), o.Value, o.Depth, ok, err, want.Value, want.Depth)
		}
	}
}

// A rerun takes the part a former run finished as done rather than solving
// its range again: a part written here by hand, every placement of 3x3's
// last ply a win for X, shows in the tier file and the counts.
func TestPartResumed(t *testing.T) {
	g := spec(3, 3, 3, false, false)
	dir := filepath.Join(t.TempDir(), "db")
	unlock, err := Claim(dir, g) // the folder as a former run leaves it
	if err != nil {
		t.Fatal(err)
	}
	unlock()
	codes := bytes.Repeat([]byte{db.Pack(1, 0)}, 126) // C(9, 5) placements
	if _, err := dbwrite.WritePart(dir, 9, 0, 0, codes); err != nil {
		t.Fatal(err)
	}
	m, err := Solve(context.Background(), rules.New(g), dir, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Plies[9]; got.Positions != 126 || got.Lost != 126 {
		t.Errorf("ply 9: %d positions, %d lost for O; want the part's 126 and 126", got.Positions, got.Lost)
	}
	if exists(filepath.Join(dir, dbwrite.PartName(9, 0))) {
		t.Errorf("%s left after its tier was written", dbwrite.PartName(9, 0))
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

// reports records what a run reports as its progress.
type reports struct {
	mu  sync.Mutex
	got map[string][]int64 // the placements done, in order, by phase
}

func (r *reports) Report(phase string, _ int, done, _ int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got[phase] = append(r.got[phase], done)
}

// A solve reports its progress after each task, not only at the end of a
// ply, so that a ply of hours shows how far it is: gravity 4x4 cut in
// tasks of a block has plies of two and three tasks.
func TestProgressByTask(t *testing.T) {
	job, err := cutJob(rules.New(spec(4, 4, 4, true, false)), -1, 1)
	if err != nil {
		t.Fatal(err)
	}
	var tasks, total int64
	for p := 0; p <= job.Plies(); p++ {
		tasks, total = tasks+int64(job.Tasks(p)), total+job.Size(p)
	}
	r := &reports{got: map[string][]int64{}}
	ctx := progress.With(context.Background(), r)
	if _, err := build(ctx, job, filepath.Join(t.TempDir(), "db"), 1); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		phase string
		want  int // reports: one a task, one a ply
		last  int64
	}{
		{"reachable placements", int(tasks-int64(job.Tasks(job.Plies()))) + job.Plies(), total - job.Size(job.Plies())},
		{"solve", int(tasks) + job.Plies() + 1, total},
	}
	for _, tt := range tests {
		got := r.got[tt.phase]
		if len(got) != tt.want || !slices.IsSorted(got) || got[len(got)-1] != tt.last {
			t.Errorf("%s: %d reports ending at %d, want %d ending at %d, in order", tt.phase, len(got), got[len(got)-1], tt.want, tt.last)
		}
	}
}

// A resume refuses a damaged bits file by name, with the fix, rather than
// solve from it; once it is removed, the ply is marked again and the
// database is the one a run never stopped builds (issue 43, case 4).
func TestDamagedBits(t *testing.T) {
	g := spec(3, 3, 3, false, false)
	whole, err := Solve(context.Background(), rules.New(g), filepath.Join(t.TempDir(), "db"), 1)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		damage func(b []byte) []byte
		want   string
	}{
		{"a word's bit flipped", func(b []byte) []byte { b[3] ^= 0x10; return b }, "reach-03.bits: it fails its checksum; remove it to mark the ply again"},
		{"the checksum flipped", func(b []byte) []byte { b[len(b)-1] ^= 1; return b }, "reach-03.bits: it fails its checksum; remove it to mark the ply again"},
		{"another magic", func(b []byte) []byte { b[len(b)-16] = 'X'; return b }, "reach-03.bits, named as a scratch file of tateti-lab but not one (or one cut short)"},
		{"cut short", func(b []byte) []byte { return b[:7] }, "reach-03.bits, named as a scratch file of tateti-lab but not one (or one cut short)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "db")
			if _, err := ReachTo(context.Background(), rules.New(g), dir, 1, 5); err != nil {
				t.Fatal(err)
			}
			name := filepath.Join(dir, ReachName(3))
			b, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(name, tt.damage(b), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err = Solve(context.Background(), rules.New(g), dir, 1)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want it to say %q", err, tt.want)
			}
			if err := os.Remove(name); err != nil {
				t.Fatal(err)
			}
			got, err := Solve(context.Background(), rules.New(g), dir, 1)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, whole) {
				t.Errorf("manifest after the ply is marked again:\n%+v\nwant\n%+v", got, whole)
			}
		})
	}
}

// listNames gives the names in dir, sorted.
func listNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// The bits a Beam task reads back are checked as a local resume's are:
// what EncodeBits gave decodes to the same words, anything else is refused.
func TestDecodeBits(t *testing.T) {
	w := []uint64{0x8000000000000001, 0x2a}
	good := EncodeBits(w)
	tests := []struct {
		name string
		buf  []byte
		want string // the error; "" for none
	}{
		{"as written", good, ""},
		{"a bit flipped", flipped(good, 9), "fails its checksum"},
		{"the magic changed", flipped(good, 16), "not a bits file of this version"},
		{"without its trailer", good[:16], "16 bytes, want 32"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DecodeBits(tt.buf, 100)
			switch {
			case tt.want == "" && (err != nil || !reflect.DeepEqual(got, w)):
				t.Errorf("DecodeBits = %x, %v; want %x", got, err, w)
			case tt.want != "" && (err == nil || err.Error() != tt.want):
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
}

// flipped gives a copy of b with a bit of byte i flipped.
func flipped(b []byte, i int) []byte {
	c := append([]byte(nil), b...)
	c[i] ^= 4
	return c
}

// An opening book holds the whole game's first plies: gravity 4x5's book
// (4x4's under -short) to ply 6, its last ply searched, has every tier file of plies 0 to 6
// byte for byte as the exhaustive solve writes it, the same counts and the
// empty board's value, with 1 worker or 2, and with the whole game's ply 5
// bounding its searches (WithPrior); a book to another ply, or of the
// whole game, is refused in its folder.
func TestBook(t *testing.T) {
	sp := spec(4, 5, 4, true, false)
	if testing.Short() {
		sp = spec(4, 4, 4, true, false) // a tenth of the work, for the race detector
	}
	rl := rules.New(sp)
	wholeDir := filepath.Join(t.TempDir(), "whole")
	whole, err := Solve(context.Background(), rl, wholeDir, 2)
	if err != nil {
		t.Fatal(err)
	}
	prior, err := db.Open(wholeDir, rl)
	if err != nil {
		t.Fatal(err)
	}
	defer prior.Close()
	dir := ""
	for _, c := range []struct {
		name    string
		workers int
		prior   perfect.Prober
	}{{"1 worker", 1, nil}, {"2 workers", 2, nil}, {"2 workers, the whole game's first plies bounding the searches", 2, prior}} {
		dir = filepath.Join(t.TempDir(), "book")
		job, err := NewBook(rl, 6)
		if err != nil {
			t.Fatal(err)
		}
		if c.prior != nil {
			job = job.WithPrior(c.prior)
		}
		book, err := build(context.Background(), job, dir, c.workers)
		if err != nil {
			t.Fatal(err)
		}
		want := whole
		want.Plies, want.MaxPly, want.Positions = whole.Plies[:7], book.MaxPly, 0
		for _, p := range want.Plies {
			want.Positions += p.Positions
		}
		book.Checksum, want.Checksum = "", ""
		if book.MaxPly == nil || *book.MaxPly != 6 || !reflect.DeepEqual(book, want) {
			t.Fatalf("%s: the book's manifest\n%+v\nwant the whole game's first plies\n%+v", c.name, book, want)
		}
	}
	tests := []struct {
		name string
		err  func() error
		want string
	}{
		{"another ply", func() error { _, err := SolveBook(context.Background(), rl, 5, dir, 1); return err }, fmt.Sprintf("holds the opening book of %s to ply 6, not the opening book of %s to ply 5", sp, sp)},
		{"the whole game", func() error { _, err := Solve(context.Background(), rl, dir, 1); return err }, "not the database of " + sp.String()},
		{"past the board", func() error { _, err := SolveBook(context.Background(), rl, sp.Cells(), t.TempDir(), 1); return err }, fmt.Sprintf("an opening book's last ply is 0 to %d, not %d", sp.Cells()-1, sp.Cells())},
	}
	for _, tt := range tests {
		if err := tt.err(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}
