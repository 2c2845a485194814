package cmd

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/db/dbwrite"
	"github.com/tateti-lab/tateti-lab/internal/longtest"
	"github.com/tateti-lab/tateti-lab/rules"
)

// A twin is a database and its misère twin's, of one kind, whose tiers are
// swapped: the two have the same placements at every ply, so a tier of one
// is sound in itself in the other's folder.
type twin struct {
	name   string
	game   []string // the game flags
	maxPly int      // an opening book's last ply, 0 for the whole game
	fold   bool     // folded (dbwrite.Fold) after the build
	legacy string   // a folder of testdata/legacy instead of a build
	plies  []int    // the plies whose tiers are swapped
}

// Every command that reads a database refuses a tier of the game's misère
// twin put in its folder, whatever the board, the format (version 3,
// folded, and versions 1 and 2 from before tiers named their game) and
// whether a whole game or a book: exit 2 naming the file and the command
// that builds it again; db check lists it and exits 1. Each database's
// first ply named is swapped; the long checks swap each one named, and
// build gravity 4x4's whole game.
func TestForeignTierRefused(t *testing.T) {
	t.Parallel() // its programs wait on signals and time more than they work
	free, gravity := []string{"--size", "3x3", "--k", "3"}, []string{"--gravity", "--size", "4x4", "--k", "4"}
	twins := []twin{
		{name: "free whole", game: free, plies: []int{0, 4, 9}},
		{name: "free whole folded", game: free, fold: true, plies: []int{1, 5, 8}},
		{name: "free book", game: free, maxPly: 5, plies: []int{0, 3, 5}},
		{name: "free book folded", game: free, maxPly: 5, fold: true, plies: []int{2, 4, 5}},
		{name: "gravity whole", game: gravity, plies: []int{0, 8, 16}},
		{name: "gravity whole folded", game: gravity, fold: true, plies: []int{3, 9, 15}},
		{name: "gravity book", game: gravity, maxPly: 6, plies: []int{0, 4, 6}},
		{name: "gravity book folded", game: gravity, maxPly: 6, fold: true, plies: []int{1, 5, 6}},
		{name: "version 1", game: free, legacy: "3x3", plies: []int{4}},
		{name: "version 2, folded", game: free, legacy: "3x3-folded", plies: []int{6}},
	}
	swaps := 0
	for _, tw := range twins {
		t.Run(tw.name, func(t *testing.T) {
			if testing.Short() && tw.game[0] == "--gravity" {
				t.Skip("builds gravity 4x4 twice: heavy under -race; runs without -short")
			}
			if tw.game[0] == "--gravity" && tw.maxPly == 0 {
				longtest.Skip(t, "gravity 4x4's whole game built twice (its book and 3x3's whole game are swapped without it)")
			}
			normal, misere := tw.databases(t)
			plies := tw.plies
			if !longtest.Enabled() {
				plies = plies[:1] // each kind of database once; every ply named in the long checks
			}
			for _, p := range plies {
				dir := filepath.Join(t.TempDir(), "swapped")
				if err := os.CopyFS(dir, os.DirFS(normal)); err != nil {
					t.Fatal(err)
				}
				copyFile(t, filepath.Join(misere, db.TierName(p)), filepath.Join(dir, db.TierName(p)))
				for _, args := range tw.readers(t, dir) {
					checkRefused(t, args, filepath.Join(dir, db.TierName(p)), tw.game)
				}
				swaps++
			}
		})
	}
	if want := 8; longtest.Enabled() && swaps < 25 || !testing.Short() && swaps < want {
		t.Errorf("%d swaps, want at least %d (25 in the long checks)", swaps, want)
	}
}

// databases gives the folders of the twin's database and of its misère
// twin's, built (and folded) here, or copied from testdata/legacy.
func (tw twin) databases(t *testing.T) (normal, misere string) {
	t.Helper()
	if tw.legacy != "" {
		base := filepath.Join("testdata", "legacy", tw.legacy)
		return base, strings.Replace(base, "3x3", "3x3-misere", 1)
	}
	dirs := [2]string{}
	for i, switches := range [][]string{nil, {"--misere"}} {
		dir := filepath.Join(t.TempDir(), "db")
		args := append(append([]string{"db", "build", "-q"}, tw.game...), switches...)
		if tw.maxPly > 0 {
			args = append(args, "--max-ply", strconv.Itoa(tw.maxPly))
		}
		if _, stderr, code := run(t, "", append(args, dir)...); code != 0 {
			t.Fatalf("%v: exit %d, %s", args, code, stderr)
		}
		dirs[i] = dir
		if tw.fold {
			m, err := db.ReadManifest(dir)
			if err != nil {
				t.Fatal(err)
			}
			dirs[i] = dir + "-folded"
			if err := dbwrite.Fold(context.Background(), dir, dirs[i], rules.New(m.Game), 2); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dirs[0], dirs[1]
}

// readers gives the commands that read the database in dir: the ten that
// take one, less judge (4x4 alone: TestForeignTierJudge) and those that
// read the whole game where dir holds a book.
func (tw twin) readers(t *testing.T, dir string) [][]string {
	moves := "4,0"
	if tw.game[0] == "--gravity" {
		moves = "2332"
	}
	set := filepath.Join(t.TempDir(), "positions.txt")
	if err := os.WriteFile(set, []byte(moves+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	cmds := [][]string{
		{"solve", "--db", dir, "--moves", moves},
		{"export", "--db", dir, "--positions", set, "--out", out},
		{"render", "--db", dir, "--moves", moves, "--out", out + ".svg"},
		{"serve", "--db", dir, "--addr", "127.0.0.1:0"},
		{"grade", "--db", dir, "--positions", set, "--", "sh", "-c", "exit 0"},
		{"verify", "solver", "--db", dir, "--positions", set, "--", "sh", "-c", "exit 0"},
		{"db", "check", dir},
	}
	if tw.maxPly == 0 {
		cmds = append(cmds, []string{"solve", "--db", dir}, []string{"enumerate", "--db", dir}, []string{"export", "--db", dir, "--out", out})
	}
	for i := range cmds {
		if cmds[i][0] != "db" {
			cmds[i] = append(append(cmds[i][:1:1], tw.game...), cmds[i][1:]...)
		}
	}
	return cmds
}

// checkRefused runs args, which read a database with the foreign tier
// file tier, and wants it refused: exit 2 (db check: 1, the verdict on
// stdout) naming the file and the command that builds the database again.
func checkRefused(t *testing.T, args []string, tier string, game []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var out, errb bytes.Buffer
	code := Run(ctx, args, strings.NewReader(""), &out, &errb)
	want, said := exitUsage, errb.String()
	if args[0] == "db" {
		want, said = exitFailed, out.String()
	}
	rebuild := "tateti-lab db build " + strings.Join(game, " ")
	if code != want || !strings.Contains(said, filepath.Base(tier)) || !strings.Contains(said, rebuild) {
		t.Errorf("%s: exit %d, stdout %q, stderr %q; want %d naming %s and %q", strings.Join(args, " "), code, out.String(), errb.String(), want, tier, rebuild)
	}
}

// copyFile copies the file from to the file to.
func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// A resumed db build that finds a tier it did not write among its own
// refuses it, naming the file, rather than seal it into the manifest: a
// tier of the misère twin's, and one of the same game from before tiers
// named their game (version 1), which a build writes no longer.
func TestResumedBuildRefusesForeignTier(t *testing.T) {
	tests := []struct {
		name    string
		args    []string // the build's, less the folder
		foreign string   // the folder the foreign tier comes from
		ply     int
		want    string
	}{
		{"the misère twin's, whole game", []string{"db", "build"}, "misere", 5, "holds a tier of 3x3 k=3 misère, not of 3x3 k=3"},
		{"the misère twin's, book", []string{"db", "build", "--max-ply", "5"}, "misere-book", 5, "holds a tier of 3x3 k=3 misère, not of 3x3 k=3"},
		{"version 1 of the same game", []string{"db", "build"}, filepath.Join("testdata", "legacy", "3x3"), 7, "format version 1, written by another tateti-lab; a build writes 3"},
	}
	base := t.TempDir()
	for _, args := range [][]string{{"--misere", filepath.Join(base, "misere")}, {"--misere", "--max-ply", "5", filepath.Join(base, "misere-book")}} {
		if _, stderr, code := run(t, "", append([]string{"db", "build", "-q"}, args...)...); code != 0 {
			t.Fatalf("db build %v: exit %d, %s", args, code, stderr)
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "db")
			if _, stderr, code := run(t, "", append(append(tt.args, "-q"), dir)...); code != 0 {
				t.Fatalf("build: exit %d, %s", code, stderr)
			}
			// As a run killed before its manifest left the folder.
			if err := os.Remove(filepath.Join(dir, db.ManifestName)); err != nil {
				t.Fatal(err)
			}
			foreign := tt.foreign
			if !filepath.IsAbs(foreign) && !strings.Contains(foreign, "testdata") {
				foreign = filepath.Join(base, foreign)
			}
			copyFile(t, filepath.Join(foreign, db.TierName(tt.ply)), filepath.Join(dir, db.TierName(tt.ply)))
			_, stderr, code := run(t, "", append(tt.args, dir)...)
			want := db.TierName(tt.ply) + ": " + tt.want
			if code != exitUsage || !strings.Contains(stderr, want) || !strings.Contains(stderr, "remove it to solve its ply again") {
				t.Errorf("resumed build: exit %d, stderr %q; want 2 and %q", code, stderr, want)
			}
			if _, err := os.Stat(filepath.Join(dir, db.ManifestName)); err == nil {
				t.Error("the build sealed a manifest over the foreign tier")
			}
		})
	}
}

// A tier whose header names the right game and whose codes are another
// game's (forged, or damaged by a tool that rewrote the header) passes
// the open; what answering then finds, a position worth one thing and its
// moves another, is damage: exit 2 naming the tier and the command that
// builds it again, never "a bug"; db check lists the tier.
func TestInconsistentTierIsDamage(t *testing.T) {
	normal, misere := twin{game: []string{"--size", "3x3", "--k", "3"}}.databases(t)
	forge(t, misere, normal, 4)
	rebuild := "build it again into a new folder: tateti-lab db build --size 3x3 --k 3 " + normal + "-new"
	want := db.TierName(4) + ": gives XO./XO./... draw in 5 plies, and its moves weigh X wins in 1: ply 4 and the ply after it are not of one game; " + rebuild
	for _, args := range [][]string{
		{"solve", "--db", normal, "--position", "XO./XO./..."},
		{"render", "--db", normal, "--position", "XO./XO./...", "--out", filepath.Join(t.TempDir(), "r.svg")},
	} {
		if _, stderr, code := run(t, "", args...); code != exitUsage || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, stderr %q; want 2 and %q", args[0], code, stderr, want)
		}
	}
	if out, _, code := run(t, "", "db", "check", normal); code != exitFailed || !strings.Contains(out, "4  ply-04.tier  DAMAGED") || !strings.Contains(out, rebuild) {
		t.Errorf("db check: exit %d\n%s\nwant 1, ply 4 damaged and %q", code, out, rebuild)
	}
}

// forge writes the codes of ply p of the database in from into the
// database in to, in a tier whose header names to's game.
func forge(t *testing.T, from, to string, p int) {
	t.Helper()
	fm, err := db.ReadManifest(from)
	if err != nil {
		t.Fatal(err)
	}
	tm, err := db.ReadManifest(to)
	if err != nil {
		t.Fatal(err)
	}
	codes := make([]byte, fm.Plies[p].Placements)
	if err := db.ReadTier(context.Background(), from, fm.Game, p, codes, 1); err != nil {
		t.Fatal(err)
	}
	part, _, err := dbwrite.EncodePart(p, 0, codes)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := dbwrite.AssembleTier(to, tm.Game, p, int64(len(codes)), []dbwrite.Part{part}); err != nil {
		t.Fatal(err)
	}
}

// serve answers from a database whose tier turns out inconsistent with a
// 503 that names the tier and the command that builds it again: the
// server's data is damaged, not the request, nor is it a bug.
func TestServeInconsistentTier(t *testing.T) {
	normal, misere := twin{game: []string{"--size", "3x3", "--k", "3"}}.databases(t)
	forge(t, misere, normal, 4)
	addr, stop := serveAt(t, "--db", normal)
	defer stop()
	resp, err := http.Get(addr + "api/position?board=XO./XO./...")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	want := db.TierName(4) + ": gives XO./XO./... draw in 5 plies"
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), want) || !strings.Contains(string(body), "tateti-lab db build --size 3x3 --k 3") {
		t.Errorf("got %d %s; want 503 naming %q and the build", resp.StatusCode, body, want)
	}
}

// A tier that is missing, or is no regular file (a FIFO, which would
// block its reader, a link to an endless device, a folder), is refused by
// every command that reads the database, in one wording and with one
// code: exit 2 naming the file and the command that builds the database
// again; db check lists it and exits 1. None waits.
func TestUnreadableTierRefused(t *testing.T) {
	tests := []struct {
		name  string
		spoil func(t *testing.T, tier string)
		want  string
	}{
		{"missing", func(t *testing.T, tier string) {}, "the file is missing"},
		{"a FIFO", func(t *testing.T, tier string) {
			if err := syscall.Mkfifo(tier, 0o644); err != nil {
				t.Fatal(err)
			}
		}, "is not a regular file"},
		{"a link to /dev/zero", func(t *testing.T, tier string) {
			if err := os.Symlink("/dev/zero", tier); err != nil {
				t.Fatal(err)
			}
		}, "is not a regular file"},
		{"a folder", func(t *testing.T, tier string) {
			if err := os.Mkdir(tier, 0o755); err != nil {
				t.Fatal(err)
			}
		}, "is not a regular file"},
	}
	built := filepath.Join(t.TempDir(), "db")
	if _, stderr, code := run(t, "", "db", "build", "-q", built); code != 0 {
		t.Fatalf("db build: exit %d, %s", code, stderr)
	}
	tw := twin{game: []string{"--size", "3x3", "--k", "3"}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "db")
			if err := os.CopyFS(dir, os.DirFS(built)); err != nil {
				t.Fatal(err)
			}
			tier := filepath.Join(dir, db.TierName(5))
			if err := os.Remove(tier); err != nil {
				t.Fatal(err)
			}
			tt.spoil(t, tier)
			for _, args := range tw.readers(t, dir) {
				checkRefused(t, args, tier, tw.game)
			}
		})
	}
}

// judge reads a 4x4 game's database, and refuses one with a tier of the
// misère twin's as every other reader does.
func TestForeignTierJudge(t *testing.T) {
	t.Parallel() // its programs wait on signals and time more than they work
	if testing.Short() {
		t.Skip("builds free 4x4 twice: heavy under -race; runs without -short")
	}
	longtest.Skip(t, "free 4x4 built twice for one more reader")
	tw := twin{game: []string{"--size", "4x4", "--k", "4"}}
	normal, misere := tw.databases(t)
	copyFile(t, filepath.Join(misere, db.TierName(8)), filepath.Join(normal, db.TierName(8)))
	checkRefused(t, []string{"judge", "uva10111", "--db", normal, "--", "sh", "-c", "exit 0"}, filepath.Join(normal, db.TierName(8)), tw.game)
}
