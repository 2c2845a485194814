package cmd

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
)

// The committed dataset is what the code writes: regenerate it and compare
// every file byte for byte, so the data can never drift from the code.
func TestDataIsCurrent(t *testing.T) {
	dir := t.TempDir()
	_, errOut, code := run(t, "", "export", "--out", dir)
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, errOut)
	}
	names := []string{"manifest.json", "moves.csv", "moves.parquet", "states.csv", "states.parquet"}
	for _, name := range names {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("..", "data", name))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("data/%s differs from what export writes now; run: go run . export --out data", name)
		}
	}
}

func TestExportOutput(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := run(t, "", "export", "--out", dir, "--format", "csv", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// The estimate, before any file is written; no progress when stderr is
	// not a terminal.
	if want := "tateti-lab: writing about 1.9 MB into " + dir + " (moves.csv 362.2 kB, states.csv 1.5 MB)\n"; errOut != want {
		t.Errorf("stderr = %q, want the estimate alone: %q", errOut, want)
	}
	for _, want := range []string{`"name": "moves.csv"`, `"rows": 16167`, `"name": "states.csv"`, `"rows": 5478`} {
		if !strings.Contains(out, want) {
			t.Errorf("manifest JSON lacks %s:\n%s", want, out)
		}
	}
	if strings.Contains(out, "parquet") {
		t.Errorf("--format csv wrote Parquet too:\n%s", out)
	}
}

func TestExportUsage(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	badLines := filepath.Join(t.TempDir(), "bad.txt")
	if err := os.WriteFile(badLines, []byte("4453\n4444444\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no out", []string{"export"}, "--out is missing"},
		{"out is a file", []string{"export", "--out", file}, "is a file; name a folder"},
		{"out under a file", []string{"export", "--out", filepath.Join(file, "x")}, "cannot be made or read"},
		{"unknown format", []string{"export", "--out", t.TempDir(), "--format", "xlsx"}, `--format "xlsx": file format "xlsx" is unknown, want parquet, csv or both`},
		{"no format", []string{"export", "--out", t.TempDir(), "--format", ""}, `--format "": no file format named, want parquet, csv or both`},
		{"out holds a folder", []string{"export", "--out", filepath.Dir(filepath.Dir(file))}, "holds the folder"},
		{"out is the current folder", []string{"export", "--out", "."}, "is the current folder"},
		{"too large", []string{"export", "--out", t.TempDir(), "--size", "6x5"}, "export takes every position of 6x5 k=5, whose 30 cells are too many to exhaust (at most 25): add --sample N --plies RANGE (or --positions FILE, --max-ply N) to choose positions"},
		{"two choices", []string{"export", "--out", t.TempDir(), "--sample", "3", "--max-ply", "2"}, "--sample and --max-ply each choose the positions; give one of them"},
		{"a seed alone", []string{"export", "--out", t.TempDir(), "--seed", "3"}, "--seed goes with --sample N"},
		{"values alone of the whole game", []string{"export", "--out", t.TempDir(), "--value-only"}, "--value-only goes with a chosen set"},
		{"no depths of the whole game", []string{"export", "--out", t.TempDir(), "--no-depths"}, "--no-depths goes with a chosen set"},
		{"quiet positions alone", []string{"export", "--out", t.TempDir(), "--quiet-positions"}, "--quiet-positions goes with --sample N or --max-ply N"},
		{"one per class alone", []string{"export", "--out", t.TempDir(), "--one-per-class"}, "--one-per-class goes with --positions FILE, --sample N or --max-ply N"},
		{"a sample without plies", []string{"export", "--out", t.TempDir(), "--sample", "3"}, "--sample goes with --plies"},
		{"plies past the board", []string{"export", "--out", t.TempDir(), "--sample", "3", "--plies", "2-9"}, `--plies: plies "2-9" are not a ply or a range of them`},
		{"no sample", []string{"export", "--out", t.TempDir(), "--sample", "0", "--plies", "2"}, "--sample 0 is not a count of positions"},
		{"a missing file", []string{"export", "--out", t.TempDir(), "--positions", filepath.Join(file, "none")}, "name a file of positions, one a line"},
		{"an oracle for the whole game", []string{"export", "--out", t.TempDir(), "--engine", "search"}, "--engine answers a chosen set of positions"},
		{"a ply past the board", []string{"export", "--out", t.TempDir(), "--max-ply", "10"}, "--max-ply 10 is not a ply of a 9-cell board"},
		{"a board past 64 cells", []string{"export", "--out", t.TempDir(), "--size", "9x8", "--max-ply", "1"}, "size 9x8 has more cells than the game model holds: at most 64"},
		{"a bad line", []string{"export", "--out", t.TempDir(), "--gravity", "--size", "6x7", "--k", "4", "--positions", badLines}, "line 2: moves \"4444444\": move 7: column 4 is full"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := run(t, "", tt.args...)
			if code != exitUsage || !strings.Contains(errOut, tt.want) {
				t.Fatalf("exit %d, stderr %q; want exit %d and %q", code, errOut, exitUsage, tt.want)
			}
		})
	}
}

// A chosen set is written as the whole game's rows of those positions, and
// the manifest says which positions are in: every position up to ply 3 of
// 3x3 by the table and by search, the quiet positions of ply 4, and a
// file of Connect Four positions.
func TestExportChosen(t *testing.T) {
	file := connectFourPositions
	c, err := enumerate.Shallow(context.Background(), rules.Classic(game.Spec{Rows: 3, Cols: 3, K: 3}), 4, 1, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	quiet := fmt.Sprintf(`"rows": %d,`, c.ByPly[4].QuietClasses)
	tests := []struct {
		name string
		args []string
		want []string
		by   string // every row's answered_by, compared where given
	}{
		{"up to ply 3 by the table", []string{"--max-ply", "3", "--engine", "memory"}, []string{`"from": "max_ply"`, `"max_ply": 3`, `"engine": "memory"`, `"rows": 334`, `"memory": 334`}, "memory"}, // 1 + 9 + 72 + 252
		{"up to ply 3 by search", []string{"--max-ply", "3", "--engine", "search"}, []string{`"engine": "search"`, `"search": 334`}, "search"},
		{"quiet at ply 4", []string{"--max-ply", "4", "--quiet-positions"}, []string{`"quiet": true`, quiet}, ""},
		// Tic-tac-toe's classes to ply 3: 1 + 3 + 12 + 38.
		{"one of each class to ply 3", []string{"--max-ply", "3", "--one-per-class"}, []string{`"one_per_class": true`, `"rows": 54,`, `"classes": 54`}, ""},
		{"connect four from a file", []string{"--gravity", "--size", "6x7", "--k", "4", "--positions", file},
			[]string{`"from": "file"`, `"file": "` + file + `"`, `"sha256": "`, `"rows": 2,`, `"primary_key": [
        "board"`}, ""},
	}
	csvs := map[string]map[string]string{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			out, errOut, code := run(t, "", append([]string{"export", "--out", dir, "--json"}, tt.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			for _, want := range tt.want {
				if !strings.Contains(out, want) {
					t.Errorf("manifest lacks %s:\n%s", want, out)
				}
			}
			if tt.by != "" {
				csvs[tt.name] = csvRows(t, filepath.Join(dir, "states.csv"), tt.by)
			}
		})
	}
	if !maps.Equal(csvs["up to ply 3 by the table"], csvs["up to ply 3 by search"]) {
		t.Errorf("the table and search write different states for plies 0 to 3")
	}
}

// exportWithAndWithout exports with args, without the flag (dirs[false])
// and with it (dirs[true]), each into a folder of its own, and holds the
// manifest's key to saying true exactly with the flag.
func exportWithAndWithout(t *testing.T, flag, key string, args ...string) (dirs map[bool]string) {
	t.Helper()
	dirs = map[bool]string{false: t.TempDir(), true: t.TempDir()}
	for with, dir := range dirs {
		all := append([]string{"export", "--out", dir, "--json"}, args...)
		if with {
			all = append(all, flag)
		}
		out, errOut, code := run(t, "", all...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", all, code, errOut)
		}
		if got := strings.Contains(out, `"`+key+`": true`); got != with {
			t.Errorf("%v: the manifest says %s %v, want %v", all, key, got, with)
		}
	}
	return dirs
}

// --value-only writes each position's value and depth as the whole answers
// do, its legal moves from the rules, no column of the moves' values, and
// no moves.
func TestExportValueOnly(t *testing.T) {
	dirs := exportWithAndWithout(t, "--value-only", "value_only", "--max-ply", "3", "--engine", "search")
	whole, alone := readCSV(t, filepath.Join(dirs[false], "states.csv")), readCSV(t, filepath.Join(dirs[true], "states.csv"))
	if got, want := len(alone.rows), len(whole.rows); got != want {
		t.Fatalf("%d states with values alone, want %d", got, want)
	}
	for _, name := range []string{"best_moves", "n_winning", "n_drawing", "n_losing", "move_values", "policy"} {
		if _, ok := alone.col[name]; ok {
			t.Errorf("values alone have the column %s, which the moves' values make", name)
		}
	}
	for i, row := range alone.rows {
		for _, name := range []string{"state_id", "value", "depth", "n_moves", "legal", "mover_value", "split"} {
			if got, want := row[alone.col[name]], whole.rows[i][whole.col[name]]; got != want {
				t.Fatalf("row %d: %s %s with values alone, want %s", i, name, got, want)
			}
		}
	}
	if moves := readCSV(t, filepath.Join(dirs[true], "moves.csv")); len(moves.rows) != 0 {
		t.Errorf("%d moves with values alone, want none", len(moves.rows))
	}
}

// --no-depths writes each position's value and every move's as the whole
// answers do, with no column of depths, and the best moves those of the
// best value for the side to move.
func TestExportNoDepths(t *testing.T) {
	sample := "12"
	if testing.Short() { // searches past the book: heavy under -race
		sample = "6"
	}
	dirs := exportWithAndWithout(t, "--no-depths", "no_depths", "--game", "connect-four", "--sample", sample, "--plies", "11-13", "--seed", "4", "--format", "csv")
	whole, values := readCSV(t, filepath.Join(dirs[false], "states.csv")), readCSV(t, filepath.Join(dirs[true], "states.csv"))
	wholeMoves, valueMoves := readCSV(t, filepath.Join(dirs[false], "moves.csv")), readCSV(t, filepath.Join(dirs[true], "moves.csv"))
	if _, ok := values.col["depth"]; ok {
		t.Errorf("the states without depths have a depth column")
	}
	if _, ok := valueMoves.col["child_depth"]; ok {
		t.Errorf("the moves without depths have a child_depth column")
	}
	if got, want := len(values.rows), len(whole.rows); got != want {
		t.Fatalf("%d states without depths, want %d", got, want)
	}
	for i, row := range values.rows {
		for _, name := range []string{"board", "value", "move_values", "n_winning", "n_drawing", "n_losing", "answered_by"} {
			if got, want := row[values.col[name]], whole.rows[i][whole.col[name]]; got != want {
				t.Fatalf("row %d: %s %s without depths, want %s", i, name, got, want)
			}
		}
	}
	if got, want := len(valueMoves.rows), len(wholeMoves.rows); got != want {
		t.Fatalf("%d moves without depths, want %d", got, want)
	}
	mover := map[string]string{}
	for _, row := range values.rows {
		mover[row[values.col["state_id"]]] = row[values.col["to_move"]]
	}
	best := map[string]int{} // by state, the best child value (for X) for the side to move
	childValue := func(row []string) (string, int) {
		v, _ := strconv.Atoi(row[valueMoves.col["child_value"]])
		return row[valueMoves.col["state_id"]], v
	}
	for _, row := range valueMoves.rows {
		id, v := childValue(row)
		if b, ok := best[id]; !ok || mover[id] == "X" && v > b || mover[id] == "O" && v < b {
			best[id] = v
		}
	}
	for i, row := range valueMoves.rows {
		id, v := childValue(row)
		if got, want := row[valueMoves.col["is_best"]], strconv.FormatBool(v == best[id]); got != want {
			t.Errorf("move row %d (child value %d, the best %d): is_best %s, want %s", i, v, best[id], got, want)
		}
	}
}

// The figures of data/README.md are the files' own: every row of its Figures
// table is counted again from the CSV files.
func TestDataCard(t *testing.T) {
	card, err := os.ReadFile(filepath.Join("..", "data", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	states, moves := readCSV(t, filepath.Join("..", "data", "states.csv")), readCSV(t, filepath.Join("..", "data", "moves.csv"))
	count := func(column, value string) int {
		n := 0
		for _, row := range states.rows {
			if row[states.col[column]] == value {
				n++
			}
		}
		return n
	}
	classes := map[string]bool{}
	for _, row := range states.rows {
		classes[row[states.col["canonical_id"]]] = true
	}
	want := map[string]int{
		"states rows":                              len(states.rows),
		"moves rows":                               len(moves.rows),
		"states whose value is 1 (X wins)":         count("value", "1"),
		"states whose value is 0 (draw)":           count("value", "0"),
		"states whose value is -1 (O wins)":        count("value", "-1"),
		"terminal states, x_won":                   count("status", "x_won"),
		"terminal states, o_won":                   count("status", "o_won"),
		"terminal states, draw":                    count("status", "draw"),
		"symmetry classes (distinct canonical_id)": len(classes),
		"states in split train":                    count("split", "train"),
		"states in split validation":               count("split", "validation"),
		"states in split test":                     count("split", "test"),
	}
	_, table, ok := strings.Cut(string(card), "| figure | value |\n|---|---|\n")
	if !ok {
		t.Fatal("data/README.md has no Figures table")
	}
	seen := 0
	for _, line := range strings.Split(table, "\n") {
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) != 2 {
			break
		}
		name, value := strings.TrimSpace(cells[0]), strings.ReplaceAll(strings.TrimSpace(cells[1]), ",", "")
		w, known := want[name]
		if !known {
			t.Errorf("the card's figure %q is not checked here", name)
			continue
		}
		if got, err := strconv.Atoi(value); err != nil || got != w {
			t.Errorf("the card says %s is %s, the files give %d", name, cells[1], w)
		}
		seen++
	}
	if seen != len(want) {
		t.Errorf("the card has %d of the %d figures", seen, len(want))
	}
}

// The card's data dictionary names every column the files have, in a row of
// its own: a column added to the schema must be documented.
func TestDataCardColumns(t *testing.T) {
	card, err := os.ReadFile(filepath.Join("..", "data", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var manifest struct {
		Tables []struct {
			Name    string
			Columns []struct{ Name string }
		}
	}
	b, err := os.ReadFile(filepath.Join("..", "data", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &manifest); err != nil {
		t.Fatal(err)
	}
	for _, table := range manifest.Tables {
		_, section, _ := strings.Cut(string(card), "\n## "+table.Name+"\n")
		section, _, _ = strings.Cut(section, "\n## ")
		documented := map[string]bool{} // the names in the first cell of each table row
		for _, line := range strings.Split(section, "\n") {
			if !strings.HasPrefix(line, "| `") {
				continue
			}
			first, _, _ := strings.Cut(strings.TrimPrefix(line, "| "), " |")
			for _, name := range strings.Split(first, ", ") {
				documented[strings.Trim(name, "`")] = true
			}
		}
		for _, c := range table.Columns {
			if !documented[c.Name] && !(strings.HasPrefix(c.Name, "cell_") && documented["cell_0` … `cell_8"]) {
				t.Errorf("data/README.md, section %s: no row for the column %s", table.Name, c.Name)
			}
		}
	}
}

type csvTable struct {
	col  map[string]int
	rows [][]string
}

// readCSV reads the CSV file at path, its header naming the columns.
func readCSV(t *testing.T, path string) csvTable {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	all, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	tab := csvTable{col: map[string]int{}, rows: all[1:]}
	for i, h := range all[0] {
		tab.col[h] = i
	}
	return tab
}

// render draws a set into a folder, each picture the one render draws of
// that position alone; the folder's other files are kept, and earlier
// pictures the new set does not hold are gone.
func TestRenderSet(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"notes.txt", "position-99.svg"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("earlier"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, errOut, code := run(t, "", "render", "--max-ply", "1", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "wrote 10 pictures into") || !strings.Contains(out, "the earlier pictures position-99.svg are gone") {
		t.Errorf("stdout:\n%s", out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for k := 1; k <= 10; k++ {
		fields := strings.Fields(lines[k])
		name, board := fields[0], fields[1]
		if want := fmt.Sprintf("position-%02d.svg", k); name != want {
			t.Fatalf("picture %d is %s, want %s", k, name, want)
		}
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		want, _, _ := run(t, "", "render", "--position", board, "--out", "-")
		if string(got) != want {
			t.Errorf("%s differs from render --position %s", name, board)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 11 {
		t.Errorf("%d files in the folder, want the 10 pictures and notes.txt", len(entries))
	}
}

// cancelAt is a stderr that cancels the run once a line it is given holds
// text.
type cancelAt struct {
	text   string
	cancel context.CancelFunc
}

func (c cancelAt) Write(p []byte) (int, error) {
	if bytes.Contains(p, []byte(c.text)) {
		c.cancel()
	}
	return len(p), nil
}

// An export of a chosen set stopped part way keeps its answers in a
// journal beside --out; run again, it asks only for the rest, says so, and
// writes the same bytes as an export never stopped; the journal is gone
// once the dataset is committed.
func TestExportResumes(t *testing.T) {
	defer func(every time.Duration) { logEvery = every }(logEvery)
	logEvery = 0 // every progress line, at once
	args := []string{"export", "--gravity", "--size", "4x5", "--k", "4", "--sample", "30", "--plies", "6-9", "--engine", "search", "--workers", "1"}
	whole := filepath.Join(t.TempDir(), "whole")
	if _, errOut, code := run(t, "", append(args, "--out", whole)...); code != 0 {
		t.Fatalf("the export never stopped: exit %d: %s", code, errOut)
	}
	parent := t.TempDir()
	out := filepath.Join(parent, "out")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var said bytes.Buffer
	if code := Run(ctx, append(args, "--out", out), strings.NewReader(""), io.Discard, io.MultiWriter(&said, cancelAt{"position 11 of 30", cancel})); code == 0 {
		t.Fatal("the stopped export exited 0")
	}
	if want := "the answers so far are kept in " + filepath.Join(parent, ".out.answers"); !strings.Contains(said.String(), want) {
		t.Errorf("the stopped export said %q, want %q", said.String(), want)
	}
	if got := listDir(t, parent); !strings.HasPrefix(got, ".out.answers:") || strings.Contains(got, ",") {
		t.Fatalf("beside --out after the stop: %s, want the journal alone", got)
	}
	_, errOut, code := run(t, "", append(args, "--out", out)...)
	before := regexp.MustCompile(`position \d+ of 30 \((\d+) answered before\)`).FindStringSubmatch(errOut)
	if n, _ := strconv.Atoi(append(before, "", "")[1]); code != 0 || n < 10 || n >= 30 {
		t.Fatalf("the resumed export: exit %d, stderr %q; want it to go on from the 10 or so answered before", code, errOut)
	}
	for _, name := range []string{"states.parquet", "moves.parquet", "states.csv", "moves.csv", "manifest.json"} {
		a, _ := os.ReadFile(filepath.Join(whole, name))
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s differs from the export never stopped (%v)", name, err)
		}
	}
	if got := listDir(t, parent); got != "out" {
		t.Errorf("beside --out after the export: %s, want out alone", got)
	}
}

// With --time-limit a position not settled in time is left out of the
// tables and named in the manifest, never guessed: X's first move in the
// centre, by search (named: the book holds it); the tables of the rest are
// written, and the run exits 1 with the count.
func TestExportTimeLimit(t *testing.T) {
	file := filepath.Join(t.TempDir(), "positions.txt")
	if err := os.WriteFile(file, []byte("4\n2252576253462244111563365343671351441\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	out, errOut, code := run(t, "", "export", "--game", "connect-four", "--positions", file, "--engine", "search", "--time-limit", "100ms", "--out", dir, "--json")
	if want := "1 of the chosen positions were not settled within --time-limit 100ms"; code != exitFailed || !strings.Contains(errOut, want) {
		t.Fatalf("exit %d, stderr %q; want 1 and %q", code, errOut, want)
	}
	var m struct {
		Positions struct{ Unsettled []string }
		Files     []struct {
			Name string
			Rows int
		}
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	if got, want := m.Positions.Unsettled, []string{".../.../.../.../.../...X..."}; len(got) != 1 || !strings.HasSuffix(got[0], "...X...") {
		t.Errorf("unsettled %v, want the position after column 4 alone (%v)", got, want)
	}
	for _, f := range m.Files {
		if f.Name == "states.csv" && f.Rows != 1 {
			t.Errorf("states.csv has %d rows, want 1: the settled position alone", f.Rows)
		}
	}
}

// A file, folder or link at the journal's path that is no journal of ours
// is bad input: one line naming it, exit 2, left as it is, and nothing
// said of answers kept there.
func TestExportForeignJournal(t *testing.T) {
	t.Parallel() // its programs wait on signals and time more than they work
	tests := []struct {
		name string
		make func(path string) error
	}{
		{"random bytes", func(path string) error { return os.WriteFile(path, []byte("\x8a\x01someone else's bytes"), 0o644) }},
		{"a folder", func(path string) error { return os.Mkdir(path, 0o755) }},
		{"a link", func(path string) error { return os.Symlink("/etc/hostname", path) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parent := t.TempDir()
			journal := filepath.Join(parent, ".out.answers")
			if err := tt.make(journal); err != nil {
				t.Fatal(err)
			}
			_, errOut, code := run(t, "", "export", "--game", "connect-four", "--sample", "3", "--plies", "9", "--out", filepath.Join(parent, "out"))
			want := "tateti-lab: " + journal + " is no journal of answers of this tool: move it away, or name another --out\n"
			if code != exitUsage || errOut != want {
				t.Fatalf("exit %d, stderr %q; want 2 and %q alone", code, errOut, want)
			}
			if got := listDir(t, parent); !strings.HasPrefix(got, ".out.answers") || strings.Contains(got, " ") {
				t.Errorf("beside --out: %s, want the foreign file alone", got)
			}
		})
	}
}

// A chosen set's rows say the moves that led to each position, as
// actions, where they are known: a sample's games replay to their boards,
// a file's move sequence is its columns from 0, and a board given as such
// has none (an empty field).
func TestExportHistory(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "positions.txt")
	if err := os.WriteFile(file, []byte("4453\n......./......./......./......./......./...X...\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want map[string]string // board to history field, where given
	}{
		{"a noisy sample", []string{"--sample", "60", "--plies", "0-8", "--epsilon", "0.5", "--seed", "2"}, nil},
		{"a file of moves and a board", []string{"--game", "connect-four", "--positions", file, "--value-only"}, map[string]string{
			"......./......./......./......./...O.../..OXX..": "[3,3,4,2]",
			"......./......./......./......./......./...X...": "",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-"))
			if _, stderr, code := run(t, "", append([]string{"export", "--format", "csv", "--out", out}, tt.args...)...); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			states := readCSV(t, filepath.Join(out, "states.csv"))
			for _, row := range states.rows {
				board, history := row[states.col["board"]], row[states.col["history"]]
				if tt.want != nil {
					if want, ok := tt.want[board]; !ok || history != want {
						t.Errorf("%s: history %q, want %q", board, history, want)
					}
					continue
				}
				var moves []int
				if err := json.Unmarshal([]byte(history), &moves); err != nil {
					t.Fatalf("%s: history %q: %v", board, history, err)
				}
				b, err := rules.Play(rules.Classic(game.Default), game.Board{}, strings.Trim(strings.ReplaceAll(fmt.Sprint(moves), " ", ","), "[]"))
				if err != nil || game.Default.Format(b) != board {
					t.Errorf("%s: history %q replays to %s (%v)", board, history, game.Default.Format(b), err)
				}
			}
			if tt.want != nil && len(states.rows) != len(tt.want) {
				t.Errorf("%d rows, want %d", len(states.rows), len(tt.want))
			}
		})
	}
}
