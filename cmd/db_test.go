package cmd

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// solve --db solves the whole game tier by tier into a database and prints
// what solve prints (and each ply by value for the side to move); a second
// run reads the finished database; --moves with --db answers from it, as
// the table answers.
func TestSolveDB(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	got, stderr, code := run(t, "", "solve", "--db", dir)
	if code != 0 || !strings.Contains(stderr, "6,046 placements (comb layout)") {
		t.Fatalf("solve --db: exit %d, stderr %q; want 0 and the estimate", code, stderr)
	}
	golden(t, "solve-db.txt", got)
	again, _, code := run(t, "", "solve", "--db", dir)
	if code != 0 || again != got {
		t.Fatalf("solve --db of a finished database: exit %d\n%s\nwant\n%s", code, again, got)
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
	if code != 0 || jsonField(t, probed, "oracle") != `"db"` {
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
	if _, _, code := run(t, "", "solve", "--db", solved); code != 0 {
		t.Fatalf("solve --db exited %d", code)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no database there", []string{"solve", "--moves", "4", "--db", t.TempDir()}, "holds no finished database (no manifest.json); solve it with solve --db"},
		{"another game's database", []string{"solve", "--misere", "--db", solved}, "holds the database of 3x3 k=3, not of 3x3 k=3 misère"},
		{"another game's, asked a position", []string{"solve", "--misere", "--moves", "4", "--db", solved}, "not of 3x3 k=3 misère"},
		{"a folder of other files", []string{"solve", "--db", other}, "holds files that are not a database of tateti-lab"},
		{"an oracle and a database", []string{"solve", "--moves", "4", "--oracle", "search", "--db", solved}, "--oracle search and --db each choose who answers; give one of them"},
		{"a time limit for the tiers", []string{"solve", "--db", solved, "--time-limit", "1s"}, "--time-limit goes with one position"},
		{"too little memory", []string{"solve", "--gravity", "--size", "5x6", "--k", "4", "--db", filepath.Join(t.TempDir(), "c4")}, "a tier solve holds up to"},
		{"too little memory but for the forward pass", []string{"solve", "--gravity", "--size", "5x6", "--k", "4", "--db", filepath.Join(t.TempDir(), "c4")}, "its forward pass alone fits: enumerate --reach-only with the same flags"},
		{"a set's database without a set", []string{"grade", "--db", solved, "--", "x"}, "--db answers a chosen set of positions"},
		{"enumerate by tiers and by plies", []string{"enumerate", "--db", solved, "--max-ply", "3"}, "--db counts the whole game tier by tier, and --max-ply its first plies in memory; give one of them"},
		{"the forward pass without a folder", []string{"enumerate", "--reach-only"}, "--reach-only goes with --db DIR"},
		{"the forward pass past the last ply", []string{"enumerate", "--reach-only", "--db", t.TempDir(), "--max-ply", "10"}, "--max-ply 10 is not a ply of a 9-cell board"},
		{"too little memory for the forward pass", []string{"enumerate", "--size", "5x5", "--k", "4", "--reach-only", "--db", filepath.Join(t.TempDir(), "f55")}, "the forward pass of a tier solve holds up to 6.6 GB"},
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
}

// serve --db answers from the database at once.
func TestServeDB(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	if _, _, code := run(t, "", "solve", "--gravity", "--size", "4x4", "--k", "4", "--db", dir); code != 0 {
		t.Fatalf("solve --db exited %d", code)
	}
	addr, stop := serveAt(t, "--gravity", "--size", "4x4", "--k", "4", "--db", dir)
	defer stop()
	resp, err := http.Get(addr + "api/position?board=&move=2332")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"oracle": "db"`) {
		t.Fatalf("API: %d %s; want 200 and the database answering", resp.StatusCode, body)
	}
}

// enumerate --db counts the positions and finished boards of each ply tier
// by tier, as enumerate counts them in memory.
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

// enumerate --db --reach-only counts the positions of each ply by the
// forward pass alone (up to --max-ply, or all), as enumerate counts them
// in memory, and leaves the folder for enumerate --db to solve from.
func TestEnumerateReachOnly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	game := []string{"--gravity", "--size", "4x4", "--k", "4"}
	var first struct {
		MaxPly int     `json:"max_ply"`
		ByPly  []int64 `json:"positions_by_ply"`
	}
	runJSON(t, &first, append([]string{"enumerate", "--json", "--db", dir, "--reach-only", "--max-ply", "5"}, game...)...)
	out, stderr, code := run(t, "", append([]string{"enumerate", "--db", dir, "--reach-only"}, game...)...)
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
	runJSON(t, &reached, append([]string{"enumerate", "--json", "--db", dir, "--reach-only"}, game...)...)
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
			if _, stderr, code := run(t, "", append([]string{"solve", "--db", filepath.Join(dir, "db")}, tt.args...)...); code != 0 {
				t.Fatalf("solve --db: exit %d, %s", code, stderr)
			}
			for _, c := range [][]string{{"--db", filepath.Join(dir, "db"), "--out", filepath.Join(dir, "fromdb")}, {"--out", filepath.Join(dir, "memory")}} {
				if _, stderr, code := run(t, "", append(append([]string{"export"}, c...), tt.args...)...); code != 0 {
					t.Fatalf("export %v: exit %d, %s", c, code, stderr)
				}
			}
			for _, table := range []string{"states", "moves"} {
				got, want := csvRows(t, filepath.Join(dir, "fromdb", table+".csv")), csvRows(t, filepath.Join(dir, "memory", table+".csv"))
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
func csvRows(t *testing.T, name string) map[string]string {
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
