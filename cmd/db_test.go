package cmd

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/db/dbwrite"
)

// db build solves the whole game tier by tier into a database and prints
// what solve prints (and each ply by value for the side to move); a second
// build and solve --db read the finished database; --moves with --db
// answers from it, as the table answers.
func TestSolveDB(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	got, stderr, code := run(t, "", "db", "build", dir)
	if code != 0 || !strings.Contains(stderr, "6,046 placements (comb layout)") {
		t.Fatalf("db build: exit %d, stderr %q; want 0 and the estimate", code, stderr)
	}
	golden(t, "solve-db.txt", got)
	answered := "answered by db (the database in " + dir + " holds the game solved, 5478 positions)\n"
	for _, args := range [][]string{{"db", "build", dir}, {"solve", "--db", dir}} {
		again, stderr, code := run(t, "", args...)
		if args[0] == "solve" {
			got = strings.Replace(got, "with perfect play\n", "with perfect play\n"+answered, 1)
		}
		if code != 0 || again != got || stderr != "" {
			t.Fatalf("%v on a finished database: exit %d, stderr %q\n%s\nwant\n%s", args, code, stderr, again, got)
		}
	}
	whole, _, _ := run(t, "", "solve", "--json")
	fromDB, _, _ := run(t, "", "solve", "--db", dir, "--json")
	for _, field := range []string{"value", "depth", "positions_by_value", "by_ply", "openings"} {
		if a, b := jsonField(t, fromDB, field), jsonField(t, whole, field); a != b {
			t.Errorf("%s: %s from the database, want %s", field, a, b)
		}
	}
	table, _, _ := run(t, "", "solve", "--moves", "4,0", "--json")
	probed, _, code := run(t, "", "solve", "--moves", "4,0", "--db", dir, "--json")
	if code != 0 || jsonField(t, probed, "engine") != `"db"` {
		t.Fatalf("solve --moves --db: exit %d, %s; want the database to answer", code, probed)
	}
	for _, field := range []string{"value", "depth", "moves", "best_line"} {
		if a, b := jsonField(t, probed, field), jsonField(t, table, field); a != b {
			t.Errorf("%s: %s from the database, want %s", field, a, b)
		}
	}
}

// jsonField gives one field of a JSON object, as compact JSON.
func jsonField(t *testing.T, text, field string) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, text)
	}
	b, err := json.Marshal(m[field])
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// What --db refuses, before any work: exit 2.
func TestDBUsage(t *testing.T) {
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "notes.txt"), []byte("mine"), 0o666); err != nil {
		t.Fatal(err)
	}
	solved := filepath.Join(t.TempDir(), "db")
	if _, _, code := run(t, "", "db", "build", solved); code != 0 {
		t.Fatalf("db build exited %d", code)
	}
	book := filepath.Join(t.TempDir(), "book")
	if _, _, code := run(t, "", "db", "build", "--max-ply", "4", book); code != 0 {
		t.Fatalf("db build --max-ply exited %d", code)
	}
	unfinished := filepath.Join(t.TempDir(), "unfinished")
	if _, _, code := run(t, "", "db", "build", "--reach-only", "--max-ply", "3", unfinished); code != 0 {
		t.Fatalf("db build --reach-only exited %d", code)
	}
	afile := filepath.Join(other, "notes.txt")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no database there", []string{"solve", "--moves", "4", "--db", "nothing-here"}, `folder "nothing-here" holds no finished database (no manifest.json); build it with: tateti-lab db build --size 3x3 --k 3 nothing-here`},
		{"--db never builds", []string{"solve", "--gravity", "--size", "4x4", "--k", "4", "--db", "typo"}, "holds no finished database (no manifest.json); build it with: tateti-lab db build --gravity --size 4x4 --k 4 typo"},
		{"--db never resumes", []string{"enumerate", "--db", unfinished}, "holds no finished database"},
		{"another game's database", []string{"solve", "--misere", "--db", solved}, "holds the database of 3x3 k=3, not of 3x3 k=3 misère"},
		{"another game's, asked a position", []string{"solve", "--misere", "--moves", "4", "--db", solved}, "not of 3x3 k=3 misère"},
		{"a folder of other files", []string{"db", "build", other}, "holds files that are not a database of tateti-lab"},
		{"a book on the whole game's forward pass", []string{"db", "build", "--max-ply", "4", unfinished}, `holds an unfinished build of the database of 3x3 k=3 (begun by db build or db build --reach-only), not of the opening book of 3x3 k=3 to ply 4`},
		{"a folder of other files, read", []string{"solve", "--db", other}, "holds no finished database"},
		{"an oracle and a database", []string{"solve", "--moves", "4", "--engine", "search", "--db", solved}, "--engine search and --db each choose who answers; give one of them"},
		{"a time limit for the tiers", []string{"solve", "--db", solved, "--time-limit", "1s"}, "--time-limit goes with one position"},
		{"a set's database without a set", []string{"grade", "--db", solved, "--", "x"}, "--db answers a chosen set of positions"},
		{"enumerate by tiers and by plies", []string{"enumerate", "--db", solved, "--max-ply", "3"}, "--db reads the whole game's counts, and --max-ply counts its first plies in memory; give one of them"},
		{"build: no folder", []string{"db", "build"}, "tateti-lab db build takes one database folder"},
		{"build: two folders", []string{"db", "build", "a", "b"}, "got 2 arguments"},
		{"build: a book to the last ply", []string{"db", "build", "--max-ply", "9", t.TempDir()}, "--max-ply 9: an opening book holds plies 0 to N, want N from 1 to 8; leave --max-ply out for the whole game's database"},
		{"build: a book of the empty board", []string{"db", "build", "--max-ply", "0", t.TempDir()}, "--max-ply 0: an opening book holds plies 0 to N, want N from 1 to 8"},
		// One range, said once, for any ply a book cannot end at.
		{"build: a book of a negative ply", []string{"db", "build", "--max-ply", "-1", t.TempDir()}, "--max-ply -1: an opening book holds plies 0 to N, want N from 1 to 8"},
		{"build: reach past the board", []string{"db", "build", "--reach-only", "--max-ply", "10", t.TempDir()}, "--max-ply 10 is not a ply of a 9-cell board, want 0 to 9"},
		{"build: a file for --db", []string{"solve", "--db", afile}, `"` + afile + `" is a file, not a database folder; name the folder db build wrote`},
		{"build: a book past the board", []string{"db", "build", "--gravity", "--size", "6x7", "--k", "4", "--max-ply", "43", t.TempDir()}, "--max-ply 43: an opening book holds plies 0 to N, want N from 1 to 41"},
		{"build: a book of another game there", []string{"db", "build", "--misere", "--max-ply", "4", book}, "holds the opening book of 3x3 k=3 to ply 4, not the opening book of 3x3 k=3 misère to ply 4"},
		{"build: a book to another ply there", []string{"db", "build", "--max-ply", "5", book}, "not the opening book of 3x3 k=3 to ply 5"},
		{"build: the whole game where a book is", []string{"db", "build", book}, "holds the opening book of 3x3 k=3 to ply 4, not the database of 3x3 k=3"},
		{"a book read as the whole game", []string{"solve", "--db", book}, "holds an opening book of 3x3 k=3 to ply 4, not the whole game"},
		{"build: the forward pass past the last ply", []string{"db", "build", "--reach-only", "--max-ply", "10", t.TempDir()}, "--max-ply 10 is not a ply of a 9-cell board"},
		{"build: too little memory for the forward pass", []string{"db", "build", "--size", "5x5", "--k", "4", "--reach-only", filepath.Join(t.TempDir(), "f55")}, "the forward pass of a tier solve holds up to 6.6 GB"},
		{"check: game flags", []string{"db", "check", "--size", "4x4", solved}, "--size does not go with tateti-lab db check: the database's manifest names its game"},
		{"check: no database", []string{"db", "check", t.TempDir()}, "holds no finished database"},
		{"check: unfinished", []string{"db", "check", unfinished}, "holds no finished database (no manifest.json); build it with: tateti-lab db build --size 3x3 --k 3 " + unfinished},
		{"info: no database", []string{"db", "info", other}, "holds no database of tateti-lab, finished or not"},
		{"info: game flags", []string{"db", "info", "--gravity", solved}, "--gravity does not go with tateti-lab db info"},
	}
	t.Setenv("TATETI_MEMORY", "1000000000")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, "", tt.args...)
			if code != exitUsage || !strings.Contains(errOut, tt.want) || out != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d, nothing, and %q", code, out, errOut, exitUsage, tt.want)
			}
		})
	}
	if _, err := os.Stat("typo"); err == nil {
		os.RemoveAll("typo")
		t.Errorf("solve --db made the folder it was asked to read")
	}
}

// db build fits the memory it may use: values and depths where they fit,
// else under gravity the win/draw/loss database where it fits (under
// gravity the plan says why it chose either), else a refusal that says
// what would fit.
func TestDBBuildMemory(t *testing.T) {
	tests := []struct {
		name   string
		memory string
		args   []string
		code   int
		want   string
	}{
		{"too little memory", "300000000", []string{"--size", "4x5", "--k", "4"}, exitUsage, "a tier solve holds up to 482.8 MB"},
		{"too little memory but for the forward pass", "300000000", []string{"--size", "4x5", "--k", "4"}, exitUsage, "its forward pass alone fits: db build --reach-only with the same flags"},
		// Gravity 3x6's win/draw/loss solve holds up to 67.5 MB, its values
		// and depths' 68.4 MB.
		{"too little for either kind", "60000000", []string{"--gravity", "--size", "3x6", "--k", "3", "--workers", "1"}, exitUsage, "a tier solve holds up to 68.4 MB"},
		{"values and depths where they fit, the plan says why", "70000000", []string{"--gravity", "--size", "3x6", "--k", "3", "--workers", "1"}, 0,
			"building values and depths, they fit: a tier solve holds up to 68.4 MB at once, within the 70.0 MB this run may use (--wdl builds the win/draw/loss database instead"},
		{"win/draw/loss where values and depths do not fit", "68000000", []string{"--gravity", "--size", "3x6", "--k", "3", "--workers", "1"}, 0,
			"building the win/draw/loss database, values and depths do not fit: a tier solve holds up to 68.4 MB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if testing.Short() && tt.code == 0 {
				t.Skip("builds gravity 3x6's win/draw/loss database, slow under -race; runs without -short")
			}
			t.Setenv("TATETI_MEMORY", tt.memory)
			args := append([]string{"db", "build", filepath.Join(t.TempDir(), "db")}, tt.args...)
			_, errOut, code := run(t, "", args...)
			if code != tt.code || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errOut, tt.code, tt.want)
			}
		})
	}
}

// serve --db answers from the database at once.
func TestServeDB(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	if _, _, code := run(t, "", "db", "build", "--gravity", "--size", "4x4", "--k", "4", dir); code != 0 {
		t.Fatalf("db build exited %d", code)
	}
	addr, stop := serveAt(t, "--gravity", "--size", "4x4", "--k", "4", "--db", dir)
	defer stop()
	resp, err := http.Get(addr + "api/position?board=&move=2332")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"engine": "db"`) {
		t.Fatalf("API: %d %s; want 200 and the database answering", resp.StatusCode, body)
	}
}

// enumerate --db reads the positions and finished boards of each ply from a
// database db build wrote, as enumerate counts them in memory.
func TestEnumerateDB(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"3x3", nil},
		{"misère 3x3", []string{"--misere"}},
		{"gravity 4x4", []string{"--gravity", "--size", "4x4", "--k", "4"}},
	}
	type ply struct {
		Ply        int   `json:"ply"`
		Positions  int64 `json:"positions"`
		Terminal   int64 `json:"terminal"`
		TerminalBy struct {
			XWon int64 `json:"x_won"`
			OWon int64 `json:"o_won"`
			Draw int64 `json:"draw"`
		} `json:"terminal_by_status"`
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got, want struct {
				Positions int64 `json:"positions"`
				ByPly     []ply `json:"by_ply"`
			}
			dir := filepath.Join(t.TempDir(), "db")
			runJSON(t, &struct{}{}, append([]string{"db", "build", "--json", dir}, tt.args...)...)
			runJSON(t, &got, append([]string{"enumerate", "--json", "--db", dir}, tt.args...)...)
			runJSON(t, &want, append([]string{"enumerate", "--json"}, tt.args...)...)
			if got.Positions != want.Positions || len(got.ByPly) != len(want.ByPly) {
				t.Fatalf("%d positions in %d plies, want %d in %d", got.Positions, len(got.ByPly), want.Positions, len(want.ByPly))
			}
			for i := range got.ByPly {
				if got.ByPly[i] != want.ByPly[i] {
					t.Errorf("ply %d: %+v tier by tier, want %+v", i, got.ByPly[i], want.ByPly[i])
				}
			}
		})
	}
}

// db build --reach-only counts the positions of each ply by the forward
// pass alone (up to --max-ply, or all), as enumerate counts them in memory,
// and leaves the folder for db build to go on from.
func TestEnumerateReachOnly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	game := []string{"--gravity", "--size", "4x4", "--k", "4"}
	var first struct {
		MaxPly int     `json:"max_ply"`
		ByPly  []int64 `json:"positions_by_ply"`
	}
	runJSON(t, &first, append([]string{"db", "build", "--json", "--reach-only", "--max-ply", "5", dir}, game...)...)
	out, stderr, code := run(t, "", append([]string{"db", "build", "--reach-only", dir}, game...)...)
	if code != 0 {
		t.Fatalf("exit %d, %s", code, stderr)
	}
	golden(t, "enumerate-reach-only.txt", out)
	var reached struct {
		Positions int64   `json:"positions"`
		ByPly     []int64 `json:"positions_by_ply"`
	}
	var whole struct {
		Positions int64 `json:"positions"`
		ByPly     []struct {
			Positions int64 `json:"positions"`
		} `json:"by_ply"`
	}
	runJSON(t, &reached, append([]string{"db", "build", "--json", "--reach-only", dir}, game...)...)
	runJSON(t, &struct{}{}, append([]string{"db", "build", "--json", dir}, game...)...)
	runJSON(t, &whole, append([]string{"enumerate", "--json", "--db", dir}, game...)...)
	if reached.Positions != whole.Positions || len(reached.ByPly) != len(whole.ByPly) {
		t.Fatalf("%d positions in %d plies, the solve %d in %d", reached.Positions, len(reached.ByPly), whole.Positions, len(whole.ByPly))
	}
	for p, n := range reached.ByPly {
		if got, want := n, whole.ByPly[p].Positions; got != want {
			t.Errorf("ply %d: %d reached, want the solve's %d", p, got, want)
		}
	}
	if got, want := first.ByPly, reached.ByPly[:6]; first.MaxPly != 5 || !slices.Equal(got, want) {
		t.Errorf("--max-ply 5: %v (max_ply %d), want %v", got, first.MaxPly, want)
	}
}

// runJSON runs the command args, which must succeed, and reads its JSON
// into dst.
func runJSON(t *testing.T, dst any, args ...string) {
	t.Helper()
	out, stderr, code := run(t, "", args...)
	if code != 0 {
		t.Fatalf("%v: exit %d, %s", args, code, stderr)
	}
	if err := json.Unmarshal([]byte(out), dst); err != nil {
		t.Fatal(err)
	}
}

// export --db writes the whole game from its database a ply at a time: the
// same rows as export from memory, in another order (by ply, then rank),
// with paths null, as the tiers do not count them.
func TestExportDB(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"3x3", nil},
		{"gravity misère 3x4", []string{"--gravity", "--misere", "--size", "3x4", "--k", "3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if _, stderr, code := run(t, "", append([]string{"db", "build", filepath.Join(dir, "db")}, tt.args...)...); code != 0 {
				t.Fatalf("db build: exit %d, %s", code, stderr)
			}
			// Issue 43, case 1: the database's own folder as --out is
			// refused before any work, and the database stays whole.
			into := append([]string{"export", "--db", filepath.Join(dir, "db"), "--out", filepath.Join(dir, "db")}, tt.args...)
			if _, stderr, code := run(t, "", into...); code != exitUsage || !strings.Contains(stderr, "holds a database") {
				t.Fatalf("export into the database: exit %d, %s; want %d, holds a database", code, stderr, exitUsage)
			}
			if _, stderr, code := run(t, "", "db", "check", filepath.Join(dir, "db")); code != 0 {
				t.Fatalf("db check after the refused export: exit %d, %s", code, stderr)
			}
			for _, c := range [][]string{{"--db", filepath.Join(dir, "db"), "--out", filepath.Join(dir, "fromdb")}, {"--out", filepath.Join(dir, "memory")}} {
				if _, stderr, code := run(t, "", append(append([]string{"export"}, c...), tt.args...)...); code != 0 {
					t.Fatalf("export %v: exit %d, %s", c, code, stderr)
				}
			}
			for _, table := range []string{"states", "moves"} {
				got, want := csvRows(t, filepath.Join(dir, "fromdb", table+".csv"), "db"), csvRows(t, filepath.Join(dir, "memory", table+".csv"), "")
				if len(got) != len(want) {
					t.Fatalf("%s: %d rows from the database, want %d", table, len(got), len(want))
				}
				for key, row := range want {
					if got[key] != row {
						t.Fatalf("%s %s: from the database\n%s\nwant\n%s", table, key, got[key], row)
					}
				}
			}
		})
	}
}

// csvRows reads a table's CSV rows by their key (the first field, and the
// move's cell in moves), with the paths column emptied: null, or not.
func csvRows(t *testing.T, name, by string) map[string]string {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	records, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	paths, move := slices.Index(records[0], "paths"), slices.Index(records[0], "move")
	// A chosen set's export says who answered each row, by, which an
	// export of the whole game does not: the column is checked and left out.
	if at := slices.Index(records[0], "answered_by"); at >= 0 {
		for _, r := range records[1:] {
			if r[at] != by {
				t.Fatalf("%s: answered_by %q, want %q", r[0], r[at], by)
			}
		}
		for i, r := range records {
			records[i] = slices.Delete(r, at, at+1)
		}
	}
	rows := map[string]string{}
	for _, r := range records[1:] {
		key := r[0]
		if move >= 0 {
			key += "/" + r[move]
		}
		if paths >= 0 {
			r[paths] = ""
		}
		rows[key] = strings.Join(r, "|")
	}
	return rows
}

// db check holds every tier to its checksum and counts: a sound database
// passes, and one whose tier has a byte changed, or whose manifest
// miscounts a ply, fails with exit 1 naming the tier. db info says what a
// folder holds, finished or not.
func TestDBCheckAndInfo(t *testing.T) {
	game := []string{"--gravity", "--size", "4x4", "--k", "4"}
	fresh := func(t *testing.T) string {
		dir := filepath.Join(t.TempDir(), "db")
		if _, stderr, code := run(t, "", append([]string{"db", "build", dir}, game...)...); code != 0 {
			t.Fatalf("db build: exit %d, %s", code, stderr)
		}
		return dir
	}
	tests := []struct {
		name   string
		damage func(t *testing.T, dir string)
		code   int
		want   string
	}{
		{"sound", func(*testing.T, string) {}, 0, "ok: every tier holds to its checksum and its counts"},
		{"a byte of a tier changed", func(t *testing.T, dir string) { flipByte(t, filepath.Join(dir, "ply-08.tier"), 200) },
			1, "ply-08.tier  DAMAGED: "},
		{"the verdict names it", func(t *testing.T, dir string) { flipByte(t, filepath.Join(dir, "ply-08.tier"), 200) },
			1, "FAIL: 1 damaged tier [ply-08.tier], 0 problems of the manifest"},
		{"a tier missing", func(t *testing.T, dir string) { os.Remove(filepath.Join(dir, "ply-15.tier")) },
			1, "ply-15.tier  DAMAGED: the file is missing"},
		{"a ply miscounted", func(t *testing.T, dir string) { editManifest(t, dir, `"positions": 5084,`, `"positions": 5085,`) },
			1, "ply-08.tier  DAMAGED: its codes count 5084 positions (1313 won, 3012 drawn, 759 lost), the manifest 5085 (1313, 3012, 759)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := fresh(t)
			tt.damage(t, dir)
			out, stderr, code := run(t, "", "db", "check", dir)
			if code != tt.code || !strings.Contains(out, tt.want) {
				t.Fatalf("db check: exit %d, stderr %q, stdout\n%s\nwant exit %d and %q", code, stderr, out, tt.code, tt.want)
			}
		})
	}
	dir := fresh(t)
	out, _, code := run(t, "", "db", "info", dir)
	if code != 0 {
		t.Fatalf("db info: exit %d", code)
	}
	golden(t, "db-info.txt", strings.ReplaceAll(out, dir, "DIR"))
	unfinished := filepath.Join(t.TempDir(), "db")
	if _, _, code := run(t, "", append([]string{"db", "build", "--reach-only", "--max-ply", "5", unfinished}, game...)...); code != 0 {
		t.Fatalf("db build --reach-only: exit %d", code)
	}
	out, _, code = run(t, "", "db", "info", unfinished)
	if want := "unfinished: the forward pass has 6 of 17 plies, the backward pass 0 tiers"; code != 0 || !strings.Contains(out, want) {
		t.Fatalf("db info of an unfinished build: exit %d\n%s\nwant %q", code, out, want)
	}
}

// flipByte changes the byte at offset at of the file name.
func flipByte(t *testing.T, name string, at int64) {
	t.Helper()
	f, err := os.OpenFile(name, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := make([]byte, 1)
	if _, err := f.ReadAt(b, at); err != nil {
		t.Fatal(err)
	}
	b[0] ^= 0x55
	if _, err := f.WriteAt(b, at); err != nil {
		t.Fatal(err)
	}
}

// editManifest replaces the first old with new in dir's manifest.
func editManifest(t *testing.T, dir, old, new string) {
	t.Helper()
	name := filepath.Join(dir, "manifest.json")
	data, err := os.ReadFile(name)
	if err != nil || !strings.Contains(string(data), old) {
		t.Fatalf("the manifest holds no %q (%v)", old, err)
	}
	if err := os.WriteFile(name, []byte(strings.Replace(string(data), old, new, 1)), 0o666); err != nil {
		t.Fatal(err)
	}
}

// A damaged tier gives exit 1 naming the file, from the CSV export as from
// the Parquet one, and leaves nothing behind (issue 43, case 2: the CSV
// export panicked on a row the damage kept it from making, ply 2's here,
// in the first batch).
func TestExportDamagedDB(t *testing.T) {
	dir := t.TempDir()
	dbDir := filepath.Join(dir, "db")
	if _, stderr, code := run(t, "", "db", "build", "--size", "3x4", dbDir); code != 0 {
		t.Fatalf("db build: exit %d, %s", code, stderr)
	}
	tier := filepath.Join(dbDir, "ply-02.tier")
	fi, err := os.Stat(tier)
	if err != nil {
		t.Fatal(err)
	}
	flipByte(t, tier, fi.Size()-10)
	for _, format := range []string{"csv", "parquet"} {
		_, stderr, code := run(t, "", "export", "--size", "3x4", "--db", dbDir, "--out", filepath.Join(dir, "out"), "--format", format)
		if want := "ply-02.tier: block 0 fails its checksum; build it again into a new folder: tateti-lab db build --size 3x4 --k 3 " + dbDir + "-new"; code != exitUsage || !strings.Contains(stderr, want) || strings.Contains(stderr, "panic") {
			t.Errorf("%s export of a damaged database: exit %d, %q; want 2 and %q", format, code, stderr, want)
		}
		if left, _ := os.ReadDir(dir); len(left) != 1 {
			t.Errorf("%s export of a damaged database left %d entries beside the database, want none", format, len(left)-1)
		}
	}
}

// A manifest edited by hand is refused by every command that reads it; one
// whose counts are sealed but wrong (as a faulty writer could leave it) is
// caught where the tiers are read: export and db check (issue 43, case 3).
func TestManifestCounts(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	if _, stderr, code := run(t, "", "db", "build", dir); code != 0 {
		t.Fatalf("db build: exit %d, %s", code, stderr)
	}
	m, err := db.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	editManifest(t, dir, `"positions": 252,`, `"positions": 253,`)
	for _, args := range [][]string{{"solve", "--db", dir}, {"export", "--db", dir, "--out", filepath.Join(t.TempDir(), "out")}, {"db", "info", dir}} {
		if _, stderr, code := run(t, "", args...); code != exitUsage || !strings.Contains(stderr, "manifest.json: fails its checksum") {
			t.Errorf("%v on a manifest edited by hand: exit %d, %q; want 2 and a failed checksum", args, code, stderr)
		}
	}
	m.Plies[6].Positions, m.Plies[6].Won, m.Positions = m.Plies[6].Positions+1, m.Plies[6].Won+1, m.Positions+1
	if err := dbwrite.WriteManifest(dir, m); err != nil {
		t.Fatal(err)
	}
	want := "ply-06.tier holds 1520 positions, and the manifest says 1521"
	if _, stderr, code := run(t, "", "export", "--db", dir, "--out", filepath.Join(t.TempDir(), "out")); code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("export of sealed wrong counts: exit %d, %q; want 1 and %q", code, stderr, want)
	}
	if out, _, code := run(t, "", "db", "check", dir); code != 1 || !strings.Contains(out, "ply-06") {
		t.Errorf("db check of sealed wrong counts: exit %d\n%s\nwant 1 naming ply 6", code, out)
	}
}

// An opening book is built, checked and described as a database of its
// first plies: db build says so, db check holds it to its checksums and
// counts, db info names its last ply, and --db answers a position from
// it, its children past it by search.
func TestBookCheckAndInfo(t *testing.T) {
	book := filepath.Join(t.TempDir(), "book")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"db", "build", "--max-ply", "4", book}, "an opening book: every position of plies 0 to 4, those of ply 4 valued by search\n"},
		{[]string{"db", "check", book}, "ok: every tier holds to its checksum and its counts"},
		{[]string{"db", "info", book}, "an opening book: plies 0 to 4, ply 4 valued by search\nfinished: a draw by move 9; 1,090 positions in 1,090 placements"},
		{[]string{"solve", "--db", book, "--moves", "4,0,8,2"}, "value: a draw by move 9 with perfect play\nstate id 6662, canonical id 830, answered by book (the opening book in " + book + " holds every position to ply 4, 1,090 of them; search answers past it)"},
	}
	for _, tt := range tests {
		out, errOut, code := run(t, "", tt.args...)
		if code != 0 || !strings.Contains(out, tt.want) {
			t.Errorf("%s: exit %d, stderr %q\n%s\nwant it to say %q", strings.Join(tt.args[:2], " "), code, errOut, out, tt.want)
		}
	}
}

// One rule for a damaged file of a database folder (docs/reference.md):
// whatever the file, a build or a read that meets it exits 2, naming the
// file and the fix; db check lists a damaged tier and exits 1.
func TestDamagedFilesExit(t *testing.T) {
	tests := []struct {
		name   string
		damage func(t *testing.T, dir string) // on a 3x3 folder after --reach-only
		args   func(dir string) []string
		code   int
		want   string
	}{
		{"reach bits failing their checksum", func(t *testing.T, dir string) { flipByte(t, filepath.Join(dir, "reach-03.bits"), 3) },
			build, exitUsage, "reach-03.bits: it fails its checksum; remove it to mark the ply again"},
		{"reach bits cut short", func(t *testing.T, dir string) { truncate(t, filepath.Join(dir, "reach-03.bits"), 7) },
			build, exitUsage, "reach-03.bits, named as a scratch file of tateti-lab but not one (or one cut short)"},
		{"a part failing its checksum", func(t *testing.T, dir string) {
			if _, err := dbwrite.WritePart(dir, 9, 0, 0, bytes.Repeat([]byte{db.Pack(1, 0)}, 126)); err != nil {
				t.Fatal(err)
			}
			name := filepath.Join(dir, dbwrite.PartName(9, 0))
			fi, _ := os.Stat(name)
			flipByte(t, name, fi.Size()-3)
		}, build, exitUsage, dbwrite.PartName(9, 0) + ": block 0 fails its checksum; remove it to run its task again"},
		{"a tier of a finished database", damageTier, func(dir string) []string { return []string{"export", "--db", dir, "--out", dir + "-out"} }, exitUsage, "ply-02.tier: block 0 fails its checksum; build it again into a new folder: tateti-lab db build --size 3x3 --k 3 "},
		{"the same tier, checked", damageTier, func(dir string) []string { return []string{"db", "check", dir} }, exitFailed, "ply-02.tier"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "db")
			if _, _, code := run(t, "", "db", "build", "--reach-only", dir); code != 0 {
				t.Fatalf("db build --reach-only exited %d", code)
			}
			tt.damage(t, dir)
			out, errOut, code := run(t, "", tt.args(dir)...)
			if code != tt.code || !strings.Contains(out+errOut, tt.want) {
				t.Fatalf("exit %d, stdout %q, stderr %q; want %d and %q", code, out, errOut, tt.code, tt.want)
			}
		})
	}
}

// damageTier builds the whole game into dir and flips a byte of its
// ply-02.tier, in a block.
func damageTier(t *testing.T, dir string) {
	if _, _, code := run(t, "", "db", "build", dir); code != 0 {
		t.Fatal("db build failed")
	}
	name := filepath.Join(dir, "ply-02.tier")
	fi, _ := os.Stat(name)
	flipByte(t, name, fi.Size()-3)
}

// build gives the arguments of db build into dir.
func build(dir string) []string { return []string{"db", "build", dir} }

// truncate cuts the file name to n bytes.
func truncate(t *testing.T, name string, n int64) {
	t.Helper()
	if err := os.Truncate(name, n); err != nil {
		t.Fatal(err)
	}
}

// db build --wdl writes the win/draw/loss database: its summary says the
// values are alone; db info and db check read it; solve --db refuses it,
// saying so, and --wdl with a book's or the forward pass's flags is
// refused before any work.
func TestDBBuildWDL(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "wdl")
	game := []string{"--gravity", "--size", "4x4", "--k", "4"}
	out, stderr, code := run(t, "", append([]string{"db", "build", "--wdl", dir}, game...)...)
	if code != 0 || !strings.Contains(stderr, "boards with no line (diagram layout)") || !strings.Contains(out, "a draw with perfect play") || !strings.Contains(out, "values alone; solve --db DIR finds") {
		t.Fatalf("db build --wdl: exit %d, stderr %q\n%s\nwant 0, the estimate and a draw with values alone", code, stderr, out)
	}
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"info", []string{"db", "info", dir}, 0, "finished: a draw; 161,029 positions play reaches"},
		{"check", []string{"db", "check", dir}, 0, "ok: every tier holds"},
		{"check --sample", []string{"db", "check", "--sample", "50", dir}, 0, "and 50 positions of each ply, drawn at random, to the rules"},
		{"check --sample -1", []string{"db", "check", "--sample", "-1", dir}, exitUsage, "--sample -1 is not a count"},
		{"solve --db", append([]string{"solve", "--db", dir}, game...), 0, "a draw by move 16 with perfect play\nanswered by db (the win/draw/loss database"},
		{"solve --db --moves", append([]string{"solve", "--db", dir, "--moves", "122"}, game...), 0, "value: O wins by move 16 with perfect play"},
		{"enumerate --db", append([]string{"enumerate", "--db", dir}, game...), exitUsage, "holds the win/draw/loss database of 4x4 k=4 gravity, values alone (layout diagram), which answers positions"},
		{"with --max-ply", append([]string{"db", "build", "--wdl", "--max-ply", "3", dir + "-book"}, game...), exitUsage, "--wdl builds the whole game"},
		{"into a database of values and depths", append([]string{"db", "build", "--wdl", dir + "-heights"}, game...), exitUsage, "holds the database of 4x4 k=4 gravity, not the win/draw/loss database"},
	}
	if _, _, code := run(t, "", append([]string{"db", "build", dir + "-heights"}, game...)...); code != 0 {
		t.Fatalf("db build: exit %d", code)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, stderr, code := run(t, "", tt.args...)
			if code != tt.code || !strings.Contains(out+stderr, tt.want) {
				t.Errorf("exit %d\n%s%s\nwant exit %d and %q", code, out, stderr, tt.code, tt.want)
			}
		})
	}
	// Its summary is the game solved in memory's: the positions play
	// reaches by value, the root's depth and the first moves.
	var fromDB, inMemory map[string]any
	for _, r := range []struct {
		args []string
		into *map[string]any
	}{{[]string{"solve", "--db", dir, "--json"}, &fromDB}, {[]string{"solve", "--json"}, &inMemory}} {
		out, _, code := run(t, "", append(r.args, game...)...)
		if err := json.Unmarshal([]byte(out), r.into); code != 0 || err != nil {
			t.Fatalf("%v: exit %d, %v", r.args, code, err)
		}
	}
	for _, k := range []string{"engine", "why", "by_ply_to_move"} {
		delete(fromDB, k)
		delete(inMemory, k)
	}
	if !reflect.DeepEqual(fromDB, inMemory) {
		t.Errorf("solve --db of the win/draw/loss database gives\n%v\nthe game in memory\n%v", fromDB, inMemory)
	}
	// Its forward pass counts what the tier solve's does, ply by ply.
	heights, _, code := run(t, "", append([]string{"db", "build", "--reach-only", dir + "-reach"}, game...)...)
	wdl, _, code2 := run(t, "", append([]string{"db", "build", "--wdl", "--reach-only", dir + "-wdl-reach"}, game...)...)
	if code != 0 || code2 != 0 || wdl != heights || !strings.Contains(wdl, "reachable positions") {
		t.Errorf("db build --wdl --reach-only: exit %d\n%s\nwant the forward pass's counts\n%s", code2, wdl, heights)
	}
	// Unfinished, it is resumed as what it is, without --wdl, whatever fits.
	if err := os.Remove(filepath.Join(dir, db.ManifestName)); err != nil {
		t.Fatal(err)
	}
	out, stderr, code = run(t, "", append([]string{"db", "build", dir}, game...)...)
	if code != 0 || strings.Contains(stderr, "do not fit") || !strings.Contains(stderr, "boards with no line") || !strings.Contains(out, "values alone") {
		t.Errorf("db build of an unfinished win/draw/loss database: exit %d, stderr %q\n%s\nwant it resumed as one", code, stderr, out)
	}
}
