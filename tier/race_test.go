//go:build unix

package tier

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/db/dbwrite"
	"github.com/tateti-lab/tateti-lab/internal/longtest"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Two runs racing into one new folder: one builds, the other refuses at
// once (another run holds the folder, or it holds another game by then),
// or, for the same game, finds the first one's database finished; never do
// both write into it. What is left is the winner's database, byte for
// byte what a run alone writes, and db check finds it sound.
func TestClaimRace(t *testing.T) {
	pairs := 25
	if testing.Short() || !longtest.Enabled() {
		pairs = 6
	}
	normal, misere := spec(3, 4, 3, false, false), spec(3, 4, 3, false, true)
	tests := []struct {
		name string
		a, b rules.Spec
	}{
		{"another game", normal, misere},
		{"the same game", normal, normal},
	}
	want := map[rules.Spec]db.Manifest{}
	for _, sp := range []rules.Spec{normal, misere} {
		m, err := Solve(context.Background(), rules.New(sp), filepath.Join(t.TempDir(), "alone"), 1)
		if err != nil {
			t.Fatal(err)
		}
		want[sp] = m
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for i := range pairs {
				dir := filepath.Join(t.TempDir(), "race")
				got, errs := race(dir, tt.a, tt.b)
				won := 0
				for k, err := range errs {
					switch {
					case err == nil:
						won++
						checkWinner(t, dir, got[k], want[got[k].Game])
					case !refusedAtOnce(err):
						t.Errorf("pair %d: %v, want the run to build or refuse at once", i, err)
					}
				}
				if tt.a != tt.b && won != 1 {
					t.Errorf("pair %d: %d runs of two games both built into one folder (%v), want one", i, won, errs)
				}
				if tt.a == tt.b && won == 0 {
					t.Errorf("pair %d: neither run built (%v)", i, errs)
				}
			}
		})
	}
}

// race runs the builds of a and b into dir at once, and gives each one's
// manifest and error.
func race(dir string, a, b rules.Spec) ([2]db.Manifest, [2]error) {
	var got [2]db.Manifest
	var errs [2]error
	var wg sync.WaitGroup
	start := make(chan struct{})
	for k, sp := range []rules.Spec{a, b} {
		wg.Go(func() {
			<-start
			got[k], errs[k] = Solve(context.Background(), rules.New(sp), dir, 1)
		})
	}
	close(start)
	wg.Wait()
	return got, errs
}

// refusedAtOnce reports whether err is a run's refusal of a folder that
// another run holds or has filled.
func refusedAtOnce(err error) bool {
	for _, s := range []string{"another run is solving into it", "holds an unfinished build of", "holds the database of"} {
		if strings.Contains(err.Error(), s) {
			return true
		}
	}
	return false
}

// checkWinner holds the database in dir, whose build gave got, to want, a
// build of the same game alone, and to db check.
func checkWinner(t *testing.T, dir string, got, want db.Manifest) {
	t.Helper()
	disk, err := db.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if disk.Game != got.Game || fmt.Sprint(disk.Plies) != fmt.Sprint(want.Plies) {
		t.Fatalf("the folder holds %s with plies %v, want the %s built alone: %v", disk.Game, disk.Plies, got.Game, want.Plies)
	}
	checked, err := db.Check(context.Background(), dir, Rule, 2)
	if err != nil || !checked.OK {
		t.Fatalf("db check of the winner's database: %v, %+v", err, checked)
	}
}

// db check catches a tier of the same board under other rules put in place
// of one of a database's, its manifest rewritten to its sums and counts:
// every count agrees, the backward rule does not. Both kinds of database:
// values and depths, and win/draw/loss (whose last tier, full boards with
// no line, is drawn under either rule, and the same).
func TestCheckOtherGamesTier(t *testing.T) {
	t.Parallel() // its own folders and games: it runs beside the others
	normal, misere := spec(3, 4, 3, false, false), spec(3, 4, 3, false, true)
	type solver func(context.Context, rules.Rules, string, int) (db.Manifest, error)
	tests := []struct {
		name   string
		solve  solver
		ply    int
		sample int // positions a ply held to the rules (db.CheckSampled); 0 for all
		want   string
	}{
		{"a middle tier", Solve, 6, 0, "ply 5 is not what the rules of 3x4 k=3 make of ply 6's codes"},
		{"the first tier", Solve, 0, 0, "ply 0 is not what the rules of 3x4 k=3 make of ply 1's codes"},
		{"the last tier", Solve, 12, 0, "is not what the rules of 3x4 k=3 say of it"},
		{"a middle tier, sampled", Solve, 6, 300, "ply 5 is not what the rules of 3x4 k=3 make of ply 6's codes"},
		{"win/draw/loss: a middle tier", SolveWDL, 6, 0, "ply 5 is not what the rules of 3x4 k=3 make of ply 6's codes"},
		{"win/draw/loss: the first tier", SolveWDL, 0, 0, "ply 0 is not what the rules of 3x4 k=3 make of ply 1's codes"},
		{"win/draw/loss: a middle tier, sampled", SolveWDL, 6, 300, "ply 5 is not what the rules of 3x4 k=3 make of ply 6's codes"},
	}
	type built struct {
		other, normal string // the folders of the misère game and the normal one
		m             db.Manifest
	}
	builds, tmp := map[string]built{}, t.TempDir() // by the first case of each kind of solve, which builds them
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kind := strings.Split(tt.name, ":")[0]
			b, ok := builds[kind]
			if !ok {
				b.other, b.normal = filepath.Join(tmp, kind, "misere"), filepath.Join(tmp, kind, "normal")
				if _, err := tt.solve(context.Background(), rules.New(misere), b.other, 2); err != nil {
					t.Fatal(err)
				}
				var err error
				if b.m, err = tt.solve(context.Background(), rules.New(normal), b.normal, 2); err != nil {
					t.Fatal(err)
				}
				builds[kind] = b
			}
			other, m := b.other, b.m
			m.Plies = slices.Clone(m.Plies) // swapTier rewrites one
			dir := filepath.Join(t.TempDir(), "normal")
			if err := os.CopyFS(dir, os.DirFS(b.normal)); err != nil {
				t.Fatal(err)
			}
			checked, err := db.CheckSampled(context.Background(), dir, Rule, 2, tt.sample)
			if err != nil || !checked.OK {
				t.Fatalf("before: %v, %+v, want it sound", err, checked)
			}
			swapTier(t, dir, other, tt.ply, m)
			checked, err = db.CheckSampled(context.Background(), dir, Rule, 2, tt.sample)
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprint(checked.Problems, checked.Damaged(), checked.Tiers[tt.ply].Problem); checked.OK || !strings.Contains(got, tt.want) {
				t.Errorf("got ok %t: %s, want %q", checked.OK, got, tt.want)
			}
		})
	}
}

// swapTier puts ply p's codes of the database in other in place of
// dir's, whose manifest is m, in a tier whose header names dir's game (a
// forgery: a tier of another game says so, and is refused where it is
// opened), and rewrites the manifest to the new tier's size, sum and
// counts, as a build that took another game's codes would.
func swapTier(t *testing.T, dir, other string, p int, m db.Manifest) {
	t.Helper()
	om, err := db.ReadManifest(other)
	if err != nil {
		t.Fatal(err)
	}
	job, err := Rule(m.Game, m.MaxPly, m.Layout)
	if err != nil {
		t.Fatal(err)
	}
	codes := make([]byte, db.CodeBytes(m.Layout, job.Size(p)))
	if err := db.ReadTier(context.Background(), other, om.Game, p, codes, 1); err != nil {
		t.Fatal(err)
	}
	part, _, err := dbwrite.EncodePart(p, 0, codes)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := dbwrite.AssembleTier(dir, m.Game, p, int64(len(codes)), []dbwrite.Part{part}); err != nil {
		t.Fatal(err)
	}
	c := job.Count(p, codes)
	c.File = m.Plies[p].File
	c.Bytes, c.SHA256, err = db.FileSum(context.Background(), filepath.Join(dir, c.File))
	if err != nil {
		t.Fatal(err)
	}
	m.Positions += c.Positions - m.Plies[p].Positions
	m.Plies[p] = c
	switch {
	case p == 0 && db.Packed(m.Layout):
		m.Value = Root(codes)
	case p == 0:
		m.Value, m.Depth, _ = db.Unpack(codes[0])
	}
	if err := dbwrite.WriteManifest(dir, m); err != nil {
		t.Fatal(err)
	}
}
