package export

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"hash/fnv"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/positions"
	"github.com/tateti-lab/tateti-lab/rules"
)

// readLines gives the lines of a CSV file of dir, the header first.
func readLines(t *testing.T, dir, name string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// withoutChosenCols gives the fields of each line of a chosen set's
// states.csv, joined by |, without its answered_by and history columns,
// which the whole game's lacks, after checking that every row names by and
// knows no history, and that the columns are there.
func withoutChosenCols(t *testing.T, lines []string, by string) []string {
	t.Helper()
	var out []string
	at, hist := -1, -1
	for k, line := range lines {
		f, err := csv.NewReader(strings.NewReader(line)).Read()
		if err != nil {
			t.Fatal(err)
		}
		if k == 0 {
			if at, hist = slices.Index(f, "answered_by"), slices.Index(f, "history"); at < 0 || hist != at+1 {
				t.Fatalf("a chosen set's states.csv has no answered_by column, or no history after it: %s", line)
			}
		} else if f[at] != by || f[hist] != "" {
			t.Errorf("row %d: answered_by %q, history %q; want %q and none known", k, f[at], f[hist], by)
		}
		out = append(out, strings.Join(slices.Delete(f, at, hist+1), "|"))
	}
	return out
}

// fieldsOf gives each CSV line's fields joined by |, as withoutChosenCols
// gives them.
func fieldsOf(t *testing.T, lines []string) []string {
	t.Helper()
	var out []string
	for _, line := range lines {
		f, err := csv.NewReader(strings.NewReader(line)).Read()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, strings.Join(f, "|"))
	}
	return out
}

// A chosen set of a game with state ids writes, for each of its positions,
// the very rows the whole game's dataset holds: the two sources make rows
// apart, and agree. Only the paths column's type differs (nullable), which
// CSV does not show.
func TestChosenRowsAreTheGames(t *testing.T) {
	for _, rl := range []rules.Rules{
		rules.Classic(game.Spec{Rows: 3, Cols: 4, K: 3}),
		rules.New(rules.Spec{Spec: game.Spec{Rows: 4, Cols: 4, K: 4}, Gravity: true}),
	} {
		t.Run(rl.Spec().String(), func(t *testing.T) {
			if testing.Short() && rl.Spec().Gravity {
				t.Skip("gravity 4x4, heavy under -race; runs without -short")
			}
			r := solvedUnder(t, rl)
			whole, _ := write(t, r, "csv")
			var as []perfect.Analysis
			keep := map[string]bool{}
			for i := 0; i < r.Enum.Len(); i += 97 {
				as = append(as, r.Analysis(i))
				keep[strconv.FormatUint(r.Enum.IDs[i], 10)] = true
			}
			rand.New(rand.NewPCG(1, 2)).Shuffle(len(as), func(i, j int) { as[i], as[j] = as[j], as[i] })
			dir := t.TempDir()
			w, err := Write(context.Background(), Positions(rl, as, Chosen{Choice: positions.Choice{From: "file"}, Engine: "memory"}), Options{Target: target(t, dir, Formats), Meta: meta})
			if err != nil {
				t.Fatal(err)
			}
			for _, table := range []string{"states.csv", "moves.csv"} {
				var want []string
				for k, line := range readLines(t, whole, table) {
					if k == 0 || keep[strings.Split(line, ",")[0]] {
						want = append(want, line)
					}
				}
				got := readLines(t, dir, table)
				if table == "states.csv" { // fields compared, the chosen set's answered_by aside
					got, want = withoutChosenCols(t, got, "memory"), fieldsOf(t, want)
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s: %d lines, want %d; first difference:\n%s", table, len(got), len(want), firstDiff(got, want))
				}
			}
			if w.Positions == nil || w.Positions.From != "file" || w.Files[2].Name != "states.csv" || w.Files[2].Rows != int64(len(as)) {
				t.Errorf("manifest positions %+v, files %+v; want from file and %d states", w.Positions, w.Files, len(as))
			}
		})
	}
}

func firstDiff(got, want []string) string {
	for k := range min(len(got), len(want)) {
		if got[k] != want[k] {
			return "got  " + got[k] + "\nwant " + want[k]
		}
	}
	return "one is a prefix of the other"
}

// Past 40 cells the board keys the tables: Connect Four positions answered
// by search are written with board, canonical_board and child_board, and
// the split follows the hash of canonical_board.
func TestChosenPastStateIDs(t *testing.T) {
	rl := rules.New(rules.Spec{Spec: game.Spec{Rows: 6, Cols: 7, K: 4}, Gravity: true})
	o, err := oracle.Search(rl, oracle.Options{Memory: 64 << 20, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	var as []perfect.Analysis
	for _, moves := range []string{"2252576253462244111563365343671351441", "7422341735647741166133573473242566"} {
		b, err := rules.Play(rl, game.Board{}, moves)
		if err != nil {
			t.Fatal(err)
		}
		a, err := o.Analyze(context.Background(), b)
		if err != nil {
			t.Fatal(err)
		}
		as = append(as, a)
	}
	dir := t.TempDir()
	w, err := Write(context.Background(), Positions(rl, as, Chosen{Choice: positions.Choice{From: "file"}, Engine: "search"}), Options{Target: target(t, dir, Formats), Meta: meta})
	if err != nil {
		t.Fatal(err)
	}
	states := readCSV(t, filepath.Join(dir, "states.csv"))
	if got, want := states[0][:2], []string{"board", "cell_0"}; !slices.Equal(got, want) {
		t.Fatalf("states columns start %v, want %v", got, want)
	}
	s := rl.Spec()
	for k, row := range states[1:] {
		a := as[len(as)-1-k] // of plies 37 and 34: the rows go by ply
		// The arrays for learning have an entry a column, as RL libraries
		// number Connect Four's actions, true where a move is legal.
		var legal []bool
		if err := json.Unmarshal([]byte(row[slices.Index(states[0], "legal")]), &legal); err != nil {
			t.Fatal(err)
		}
		wantLegal := make([]bool, s.Cols)
		for _, m := range a.Moves {
			wantLegal[m.Col] = true
		}
		if !slices.Equal(legal, wantLegal) {
			t.Errorf("row %d: legal %v, want %v", k, legal, wantLegal)
		}
		var best []int
		if err := json.Unmarshal([]byte(row[slices.Index(states[0], "best_moves")]), &best); err != nil {
			t.Fatal(err)
		}
		for _, c := range best {
			if c < 0 || c >= s.Cols || !wantLegal[c] {
				t.Errorf("row %d: best_moves %v, want legal columns from 0 to %d", k, best, s.Cols-1)
			}
		}
		for _, name := range []string{"move_values", "policy"} {
			var entries []any
			if err := json.Unmarshal([]byte(row[slices.Index(states[0], name)]), &entries); err != nil || len(entries) != s.Cols {
				t.Errorf("row %d: %s has %d entries (%v), want %d, one a column", k, name, len(entries), err, s.Cols)
			}
		}
		canon, _ := game.Least(a.Board, rl.Symmetries())
		h := fnv.New64a()
		h.Write([]byte(s.Format(canon)))
		want := map[string]string{"board": s.Format(a.Board), "canonical_board": s.Format(canon), "paths": "", "split": SplitOf(int64(h.Sum64() % 10)),
			"value": strconv.Itoa(int(a.Value))}
		for name, v := range want {
			if got := row[slices.Index(states[0], name)]; got != v {
				t.Errorf("row %d: %s = %q, want %q", k, name, got, v)
			}
		}
	}
	moves := readCSV(t, filepath.Join(dir, "moves.csv"))
	if got, want := moves[0], []string{"board", "move", "cell", "child_board", "child_value", "child_depth", "is_best"}; !slices.Equal(got, want) {
		t.Fatalf("moves columns %v, want %v", got, want)
	}
	// Under gravity a move is an action, the column from 0, and its cell
	// has a column of its own.
	for _, row := range moves[1:] {
		b, _ := s.Parse(row[0])
		action, _ := strconv.Atoi(row[1])
		cell, _ := strconv.Atoi(row[2])
		if action != cell%s.Cols {
			t.Errorf("move %s of %s: cell %d is not in column %d", row[1], row[0], cell, action)
		}
		if child := s.Format(b.Play(cell, b.ToMove())); row[3] != child {
			t.Errorf("move %s of %s: child_board %s, want %s", row[1], row[0], row[3], child)
		}
	}
	for _, f := range w.Files {
		if f.Format != "parquet" {
			continue
		}
		pf, err := parquet.OpenFile(mustOpen(t, filepath.Join(dir, f.Name)), f.Bytes)
		if err != nil {
			t.Fatal(err)
		}
		if pf.NumRows() != f.Rows {
			t.Errorf("%s: %d rows, the manifest says %d", f.Name, pf.NumRows(), f.Rows)
		}
	}
	if key := w.Tables[1].PrimaryKey; !slices.Equal(key, []string{"board", "move"}) || len(w.Tables[1].ForeignKeys) != 1 {
		t.Errorf("moves keyed by %v with foreign keys %+v; want board, move and only the one to states", key, w.Tables[1].ForeignKeys)
	}
}

func mustOpen(t *testing.T, name string) *os.File {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// A chosen set's paths column is null in Parquet where the paths were not
// counted, and holds the count where they were.
func TestChosenPathsNull(t *testing.T) {
	rl := rules.Classic(game.Default)
	r := solvedUnder(t, rl)
	var as []perfect.Analysis
	known := positions.Known{}
	for i := 0; i < r.Enum.Len(); i += 400 {
		a := r.Analysis(i)
		a.Paths = -1 // not counted, unless paths says
		as, known.Paths = append(as, a), append(known.Paths, -1)
		var h positions.History // every third known: the cells of X and O in turn
		if len(as)%3 != 0 {
			h = interleave(a.Board)
		}
		known.Histories = append(known.Histories, h)
		if len(as)%2 == 0 {
			known.Paths[len(known.Paths)-1] = r.Enum.Paths[i]
		}
	}
	dir := t.TempDir()
	if _, err := Write(context.Background(), Label(rl, as, known, positions.Choice{From: "file"}), Options{Target: target(t, dir, Formats), Meta: meta}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "states.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type row struct {
		Paths   *int64  `parquet:"paths"`
		History []int32 `parquet:"history,optional,list"`
	}
	got := make([]row, len(as)+1)
	n, _ := parquet.NewGenericReader[row](f).Read(got)
	if n != len(as) {
		t.Fatalf("%d rows, want %d", n, len(as))
	}
	lines := readLines(t, dir, "states.csv")[1:]
	for k, p := range known.Paths { // the rows are in the game's order, as as
		if g := got[k].Paths; (g == nil) != (p < 0) || g != nil && *g != p {
			t.Errorf("row %d: paths %v, want %d (null where negative)", k, g, p)
		}
		h, want := got[k].History, known.Histories[k]
		if (h == nil) != (want == nil) || len(h) != len(want) {
			t.Errorf("row %d: history %v, want %v (null where not known)", k, h, want)
		}
		for j := range min(len(h), len(want)) {
			if h[j] != int32(want[j]) {
				t.Errorf("row %d: history %v, want %v", k, h, want)
				break
			}
		}
		if csvNull := strings.Contains(lines[k], ",,"+"\"["); (want == nil) != csvNull {
			t.Errorf("row %d of states.csv: %s; want its history null (an empty field) %v", k, lines[k], want == nil)
		}
	}
}

// interleave gives cells of b's X and O marks in turn, X's first, each
// side's in cell order: a history of b where no line is made on the way.
func interleave(b game.Board) positions.History {
	var h positions.History
	x, o := uint64(b.X), uint64(b.O)
	for x != 0 || o != 0 {
		if x != 0 {
			h, x = append(h, int8(bits.TrailingZeros64(x))), x&(x-1)
		}
		if o != 0 {
			h, o = append(h, int8(bits.TrailingZeros64(o))), o&(o-1)
		}
	}
	if h == nil {
		h = positions.History{} // the empty board's: known, and empty
	}
	return h
}
