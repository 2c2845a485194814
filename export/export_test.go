package export

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/atomicfile"
	"github.com/tateti-lab/tateti-lab/internal/longtest"
	"github.com/tateti-lab/tateti-lab/internal/progress"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
)

func solved(t testing.TB, s game.Spec) *solve.Result {
	t.Helper()
	return solvedUnder(t, rules.Classic(s))
}

func solvedUnder(t testing.TB, rl rules.Rules) *solve.Result {
	t.Helper()
	r, err := solve.Game(context.Background(), rl, 2)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

var meta = Meta{Tool: "tateti-lab", Version: "test"}

// A column without its field in the records panics when the schema is
// built: build both tables' for every shape (a game's, a chosen set's, one
// of values alone) on boards of every size up to game.MaxCells, and hold
// their leaf columns to the manifest's, in order, each with its type and
// whether it may be null.
func TestParquetSchema(t *testing.T) {
	leafTypes := map[string]string{"int8": "INT(8,true)", "int64": "INT(64,true)", "string": "STRING", "bool": "BOOLEAN",
		"list<int8>": "INT(8,true)", "list<bool>": "BOOLEAN", "list<float>": "FLOAT"}
	for n := 1; n <= game.MaxCells; n++ {
		for _, gravity := range []bool{false, true} {
			spec := rules.Spec{Spec: game.Spec{Rows: 1, Cols: n, K: 1}, Gravity: gravity}
			for _, sh := range []shape{{game: spec}, {game: spec, chosen: true}, {game: spec, chosen: true, played: true}, {game: spec, chosen: true, played: true, valueOnly: true}} {
				t.Run(fmt.Sprintf("%d cells, gravity %v, chosen %v, values only %v", n, gravity, sh.chosen, sh.valueOnly), func(t *testing.T) {
					for _, want := range sh.tables() {
						schema, _ := parquetTable(sh, want.Name)
						got := schema.Columns()
						if len(got) != len(want.Columns) {
							t.Fatalf("%s: %d Parquet columns, want %d", want.Name, len(got), len(want.Columns))
						}
						for i, c := range want.Columns {
							path, nullable := []string{c.Name}, c.Nullable
							if strings.HasPrefix(c.Type, "list<") {
								path, nullable = append(path, "list", "element"), c.ElementsNullable
							}
							leaf, _ := schema.Lookup(got[i]...)
							if !slices.Equal(got[i], path) || leaf.Node.Type().String() != leafTypes[c.Type] || leaf.Node.Optional() != nullable {
								t.Fatalf("%s column %d: %v, %v, optional %v; want %v, %s, optional %v",
									want.Name, i, got[i], leaf.Node.Type(), leaf.Node.Optional(), path, leafTypes[c.Type], nullable)
							}
						}
					}
				})
			}
			want := n + 24 // past state ids, state_id is gone and canonical_board takes canonical_id's place
			if !spec.HasIDs() {
				want--
			}
			if got := len(Schema(spec)[0].Columns); got != want {
				t.Fatalf("%d states columns on %d cells, want %d", got, n, want)
			}
		}
	}
}

func write(t *testing.T, r *solve.Result, formats ...string) (string, *Written) {
	t.Helper()
	dir := t.TempDir()
	m, err := Write(context.Background(), Game(r), Options{Target: target(t, dir, formats), Meta: meta})
	if err != nil {
		t.Fatal(err)
	}
	return dir, m
}

// expected gives every state and move row as written.
func expected(r *solve.Result) ([]State, []Move) {
	states := make([]State, r.Enum.Len())
	var ms []Move
	rm := Game(r).rows()
	for i := range states {
		rm.state(i, &states[i])
		ms = rm.moves(i, ms)
	}
	return states, ms
}

// Every column of every row of the Parquet files reads back as written,
// through parquet-go's own decoder into the schema's struct type.
func TestParquetReadBack(t *testing.T) {
	for _, s := range []game.Spec{game.Default, {Rows: 3, Cols: 4, K: 3}} {
		t.Run(s.String(), func(t *testing.T) {
			if s != game.Default {
				longtest.Skip(t, "every row of 3x4 read back by reflection, about 20 s")
			}
			r := solved(t, s)
			dir, m := write(t, r, "parquet")
			states, ms := expected(r)

			f, err := os.Open(filepath.Join(dir, "states.parquet"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			tables := Schema(rules.Spec{Spec: s})
			typ := readerType(tables[0].Columns)
			rd := parquet.NewReader(f, parquet.SchemaOf(reflect.New(typ).Interface()))
			for i, want := range states {
				want.cellsCSV = nil // CSV only
				row := reflect.New(typ)
				if err := rd.Read(row.Interface()); err != nil {
					t.Fatalf("row %d: %v", i, err)
				}
				if got := fromStruct(row.Elem(), s.Cells()); !reflect.DeepEqual(got, want) {
					t.Fatalf("states row %d reads back as\n%+v\nwant\n%+v", i, got, want)
				}
			}
			if err := rd.Read(reflect.New(typ).Interface()); !errors.Is(err, io.EOF) {
				t.Fatalf("after %d rows: %v, want EOF", len(states), err)
			}

			mf, err := os.Open(filepath.Join(dir, "moves.parquet"))
			if err != nil {
				t.Fatal(err)
			}
			defer mf.Close()
			typ = readerType(tables[1].Columns)
			rd = parquet.NewReader(mf, parquet.SchemaOf(reflect.New(typ).Interface()))
			for i, want := range ms {
				want.Cell = 0 // a column of the table under gravity only
				row := reflect.New(typ)
				if err := rd.Read(row.Interface()); err != nil {
					t.Fatalf("moves row %d: %v", i, err)
				}
				if got := moveFromStruct(row.Elem()); !reflect.DeepEqual(got, want) {
					t.Fatalf("moves row %d reads back as %+v, want %+v", i, got, want)
				}
			}
			if err := rd.Read(reflect.New(typ).Interface()); !errors.Is(err, io.EOF) {
				t.Fatalf("after %d moves: %v, want EOF", len(ms), err)
			}
			if m.Files[0].Rows != int64(len(ms)) || m.Files[1].Rows != int64(len(states)) {
				t.Fatalf("manifest rows %d and %d, want %d moves and %d states", m.Files[0].Rows, m.Files[1].Rows, len(ms), len(states))
			}
		})
	}
}

// readerType is a struct type that rows of a table of cols decode into,
// made from what the manifest says of each column, apart from the
// writer's records: a field a column, tagged with its name.
func readerType(cols []Column) reflect.Type {
	types := map[string]reflect.Type{"int8": reflect.TypeFor[int8](), "int64": reflect.TypeFor[int64](), "string": reflect.TypeFor[string](),
		"bool": reflect.TypeFor[bool](), "list<int8>": reflect.TypeFor[[]int8](), "list<bool>": reflect.TypeFor[[]bool](), "list<float>": reflect.TypeFor[[]float32]()}
	fields := make([]reflect.StructField, len(cols))
	for i, c := range cols {
		typ, tag := types[c.Type], c.Name
		switch {
		case c.Nullable:
			typ = reflect.PointerTo(typ)
		case c.ElementsNullable:
			typ = reflect.SliceOf(reflect.PointerTo(typ.Elem()))
		}
		if strings.HasPrefix(c.Type, "list<") {
			tag += ",list"
		}
		fields[i] = reflect.StructField{Name: fmt.Sprintf("F%d", i), Type: typ, Tag: reflect.StructTag(`parquet:"` + tag + `"`)}
	}
	return reflect.StructOf(fields)
}

// field gives the field of v, a row decoded into a schema's struct type,
// that holds the named column.
func field(v reflect.Value, name string) reflect.Value {
	for i := range v.NumField() {
		if strings.Split(v.Type().Field(i).Tag.Get("parquet"), ",")[0] == name {
			return v.Field(i)
		}
	}
	panic("no column " + name)
}

// moveFromStruct reads a moves row decoded into the schema's struct type.
func moveFromStruct(v reflect.Value) Move {
	i8 := func(name string) int8 { return int8(field(v, name).Int()) }
	return Move{StateID: field(v, "state_id").Int(), Move: i8("move"), ChildID: field(v, "child_id").Int(),
		ChildValue: i8("child_value"), ChildDepth: i8("child_depth"), IsBest: field(v, "is_best").Bool()}
}

// fromStruct reads a states row decoded into the schema's struct type.
func fromStruct(v reflect.Value, cells int) State {
	f := func(name string) reflect.Value { return field(v, name) }
	i8 := func(name string) int8 { return int8(f(name).Int()) }
	s := State{StateID: f("state_id").Int(), Board: []byte(f("board").String()), Ply: i8("ply"), Status: f("status").String(),
		Value: i8("value"), Outcome: f("outcome").String(), Depth: i8("depth"),
		NMoves: i8("n_moves"), NWinning: i8("n_winning"), NDrawing: i8("n_drawing"), NLosing: i8("n_losing"),
		CanonicalID: f("canonical_id").Int(), OrbitSize: i8("orbit_size"), Paths: f("paths").Int(), IsTerminal: f("is_terminal").Bool()}
	for c := range cells {
		s.Cells = append(s.Cells, i8(fmt.Sprintf("cell_%d", c)))
	}
	if p := f("to_move"); !p.IsNil() {
		s.ToMove = p.Elem().String()
	}
	s.BestMoves = append(s.BestMoves, f("best_moves").Interface().([]int8)...)
	if cs := f("cells").Interface().([]int8); !slices.Equal(cs, s.Cells) {
		panic(fmt.Sprintf("cells %v, cell columns %v", cs, s.Cells))
	}
	s.MoverCells = f("mover_cells").Interface().([]int8)
	s.MoverValue = i8("mover_value")
	for _, p := range f("move_values").Interface().([]*int8) {
		v := int8(nullElem)
		if p != nil {
			v = *p
		}
		s.MoveValues = append(s.MoveValues, v)
	}
	s.Legal = f("legal").Interface().([]bool)
	s.Policy = f("policy").Interface().([]float32)
	s.Split = f("split").String()
	return s
}

// The CSV files read back as written: header, every field of every row.
func TestCSVReadBack(t *testing.T) {
	r := solved(t, game.Default)
	dir, _ := write(t, r, "csv")
	states, ms := expected(r)
	recs := readCSV(t, filepath.Join(dir, "states.csv"))
	header := strings.Split("state_id,board,cell_0,cell_1,cell_2,cell_3,cell_4,cell_5,cell_6,cell_7,cell_8,ply,to_move,status,value,outcome,depth,best_moves,n_moves,n_winning,n_drawing,n_losing,canonical_id,orbit_size,paths,is_terminal,"+
		"cells,mover_cells,mover_value,move_values,legal,policy,split", ",")
	if !slices.Equal(recs[0], header) || len(recs) != len(states)+1 {
		t.Fatalf("states.csv: header %v and %d rows; want %v and %d", recs[0], len(recs)-1, header, len(states))
	}
	for i, s := range states {
		want := []string{fmt.Sprint(s.StateID), string(s.Board)}
		for _, c := range s.Cells {
			want = append(want, fmt.Sprint(c))
		}
		moveValues := make([]any, len(s.MoveValues))
		for j, v := range s.MoveValues {
			if v != nullElem {
				moveValues[j] = v
			}
		}
		want = append(want, fmt.Sprint(s.Ply), s.ToMove, s.Status, fmt.Sprint(s.Value), s.Outcome, fmt.Sprint(s.Depth),
			jsonText(t, s.BestMoves), fmt.Sprint(s.NMoves), fmt.Sprint(s.NWinning), fmt.Sprint(s.NDrawing), fmt.Sprint(s.NLosing),
			fmt.Sprint(s.CanonicalID), fmt.Sprint(s.OrbitSize), fmt.Sprint(s.Paths), fmt.Sprint(s.IsTerminal),
			jsonText(t, s.Cells), jsonText(t, s.MoverCells), fmt.Sprint(s.MoverValue), jsonText(t, moveValues),
			jsonText(t, s.Legal), jsonText(t, s.Policy), s.Split)
		if !slices.Equal(recs[i+1], want) {
			t.Fatalf("states.csv row %d = %v, want %v", i, recs[i+1], want)
		}
	}
	recs = readCSV(t, filepath.Join(dir, "moves.csv"))
	if len(recs) != len(ms)+1 {
		t.Fatalf("moves.csv has %d rows, want %d", len(recs)-1, len(ms))
	}
	for i, m := range ms {
		want := []string{fmt.Sprint(m.StateID), fmt.Sprint(m.Move), fmt.Sprint(m.ChildID), fmt.Sprint(m.ChildValue), fmt.Sprint(m.ChildDepth), fmt.Sprint(m.IsBest)}
		if !slices.Equal(recs[i+1], want) {
			t.Fatalf("moves.csv row %d = %v, want %v", i, recs[i+1], want)
		}
	}
}

// jsonText is v as encoding/json writes it, the way the CSV files write
// lists: a []int8 as numbers, not base64.
func jsonText(t *testing.T, v any) string {
	t.Helper()
	if l, ok := v.([]int8); ok {
		ints := make([]int, len(l))
		for j, x := range l {
			ints[j] = int(x)
		}
		v = ints
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// The same export gives byte-identical files, and no temporary file is left.
func TestDeterministic(t *testing.T) {
	r := solved(t, game.Default)
	dir1, m1 := write(t, r, "parquet", "csv")
	dir2, m2 := write(t, r, "parquet", "csv")
	if !reflect.DeepEqual(m1, m2) {
		t.Fatalf("two exports differ:\n%+v\n%+v", m1, m2)
	}
	for _, f := range append(m1.Files, File{Name: ManifestName}, File{Name: CardName}) {
		a, _ := os.ReadFile(filepath.Join(dir1, f.Name))
		b, _ := os.ReadFile(filepath.Join(dir2, f.Name))
		if len(a) == 0 || string(a) != string(b) {
			t.Errorf("%s differs between two runs (or is empty)", f.Name)
		}
	}
	entries, _ := os.ReadDir(dir1)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{"README.md", "manifest.json", "moves.csv", "moves.parquet", "states.csv", "states.parquet"}; !slices.Equal(names, want) {
		t.Fatalf("folder holds %v, want %v", names, want)
	}
}

// snapshot reads every file of dir; the staging folders beside it are
// counted apart.
func snapshot(t *testing.T, dir string) (files map[string]string, staging int) {
	t.Helper()
	files = map[string]string{}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = string(b)
	}
	beside, _ := os.ReadDir(filepath.Dir(dir))
	for _, e := range beside {
		if strings.Contains(e.Name(), atomicfile.StagingInfix) {
			staging++
		}
	}
	return files, staging
}

// failAfter fails the named file's writes once n bytes have gone through, as
// a full disk does.
func failAfter(file string, n int) func(string, io.Writer) io.Writer {
	return func(name string, w io.Writer) io.Writer {
		if name != file {
			return w
		}
		return &failingWriter{w: w, left: n}
	}
}

type failingWriter struct {
	w    io.Writer
	left int
}

func (f *failingWriter) Write(p []byte) (int, error) {
	if len(p) > f.left {
		return 0, errors.New("no space left on device")
	}
	f.left -= len(p)
	return f.w.Write(p)
}

// An export that fails or is interrupted part way leaves the earlier dataset
// exactly as it was, and no staging folder.
func TestFailedExportKeepsEarlier(t *testing.T) {
	r := solved(t, game.Default)
	dir := filepath.Join(t.TempDir(), "data")
	if _, err := Write(context.Background(), Game(r), Options{Target: target(t, dir, Formats), Meta: meta}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("mine"), 0o644)
	before, _ := snapshot(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ctx = progress.With(ctx, cancelAt{"the states of 5478 of 5478 positions written", cancel})
	tests := []struct {
		name string
		ctx  context.Context
		opts Options
		want string
	}{
		{"disk full in moves.csv", context.Background(), Options{wrap: failAfter("moves.csv", 100_000)}, "no space left on device"},
		{"disk full in the manifest", context.Background(), Options{wrap: failAfter(ManifestName, 10)}, "no space left on device"},
		{"interrupted after states", ctx, Options{}, "context canceled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := tt.opts
			opts.Target, opts.Meta = target(t, dir, Formats), meta
			if _, err := Write(tt.ctx, Game(r), opts); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Write error = %v, want %q", err, tt.want)
			}
			after, staging := snapshot(t, dir)
			if !maps.Equal(before, after) || staging != 0 {
				t.Fatalf("after a failed export the folder holds %d files (%d before), equal %v, %d staging folders left; want it untouched",
					len(after), len(before), maps.Equal(before, after), staging)
			}
		})
	}
}

// cancelAt is a progress reporter that cancels when it is told a text
// that starts with at.
type cancelAt struct {
	at     string
	cancel context.CancelFunc
}

func (c cancelAt) Report(string, int, int64, int64) {}

func (c cancelAt) Tell(_, text string) {
	if strings.HasPrefix(text, c.at) {
		c.cancel()
	}
}

// A new export replaces the whole dataset: files of the earlier one that the
// new one lacks are gone and named; other files are kept.
func TestReplaceDataset(t *testing.T) {
	r := solved(t, game.Default)
	dir := filepath.Join(t.TempDir(), "out")
	if _, err := Write(context.Background(), Game(r), Options{Target: target(t, dir, []string{"parquet"}), Meta: meta}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("mine"), 0o644)
	w, err := Write(context.Background(), Game(r), Options{Target: target(t, dir, []string{"csv"}), Meta: meta})
	if err != nil {
		t.Fatal(err)
	}
	files, staging := snapshot(t, dir)
	got := slices.Sorted(maps.Keys(files))
	if want := []string{"README.md", "manifest.json", "moves.csv", "states.csv"}; !slices.Equal(got, want) || staging != 0 {
		t.Fatalf("folder holds %v and %d staging folders, want %v and none", got, staging, want)
	}
	if want := []string{"moves.parquet", "states.parquet"}; !slices.Equal(w.Dropped, want) {
		t.Fatalf("dropped %v, want %v", w.Dropped, want)
	}
	if files["README.md"] != "mine" {
		t.Fatalf("README.md = %q, want it kept", files["README.md"])
	}
}

// An export to a symbolic link to a folder writes that folder, keeps what
// it held beside the dataset, and leaves the link a link.
func TestExportThroughLink(t *testing.T) {
	r := solved(t, game.Default)
	parent := t.TempDir()
	real := filepath.Join(parent, "real")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(real, "README.md"), []byte("mine"), 0o644)
	link := filepath.Join(parent, "link")
	if err := os.Symlink("real", link); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(context.Background(), Game(r), Options{Target: target(t, link, []string{"csv"}), Meta: meta}); err != nil {
		t.Fatal(err)
	}
	if got, err := os.Readlink(link); err != nil || got != "real" {
		t.Fatalf("the link reads %q, %v; want it to point to real still", got, err)
	}
	files, _ := snapshot(t, real)
	got := slices.Sorted(maps.Keys(files))
	if want := []string{"README.md", "manifest.json", "moves.csv", "states.csv"}; !slices.Equal(got, want) || files["README.md"] != "mine" {
		t.Fatalf("the linked folder holds %v (README %q), want %v and the README kept", got, files["README.md"], want)
	}
}

// The dataset's folder keeps its mode; a new one gets 0777 less the umask.
func TestExportKeepsFolderMode(t *testing.T) {
	r := solved(t, game.Default)
	umask := syscall.Umask(0)
	syscall.Umask(umask)
	tests := []struct {
		name string
		mode fs.FileMode // of the folder before, 0 for none
		want fs.FileMode
	}{
		{"new", 0, fs.FileMode(0o777 &^ umask)},
		{"0755", 0o755, 0o755},
		{"0750", 0o750, 0o750},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			if tt.mode != 0 {
				if err := os.Mkdir(dir, tt.mode); err != nil {
					t.Fatal(err)
				}
				os.Chmod(dir, tt.mode)
			}
			if _, err := Write(context.Background(), Game(r), Options{Target: target(t, dir, []string{"csv"}), Meta: meta}); err != nil {
				t.Fatal(err)
			}
			fi, err := os.Stat(dir)
			if err != nil || fi.Mode().Perm() != tt.want {
				t.Fatalf("folder mode %v, %v; want %v", fi.Mode().Perm(), err, tt.want)
			}
		})
	}
}

// A staging folder left by a run that was killed outright goes at the next
// export beside the same folder; one of a live run stays.
func TestStaleStagingRemoved(t *testing.T) {
	r := solved(t, game.Spec{Rows: 2, Cols: 2, K: 2})
	parent := t.TempDir()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skip("no true command to get a dead process id:", err)
	}
	stale := filepath.Join(parent, ".out"+atomicfile.StagingInfix+strconv.Itoa(dead.Process.Pid)+"-123")
	live := filepath.Join(parent, ".out"+atomicfile.StagingInfix+strconv.Itoa(os.Getpid())+"-456")
	for _, d := range []string{stale, live} {
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, "states.csv"), []byte("half"), 0o644)
	}
	if _, err := Write(context.Background(), Game(r), Options{Target: target(t, filepath.Join(parent, "out"), Formats), Meta: meta}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the dead run's staging folder is still there: %v", err)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("the live run's staging folder is gone: %v", err)
	}
}

// target gives the target of a dataset in dir, of formats.
func target(t testing.TB, dir string, formats []string) Target {
	t.Helper()
	tg, err := NewTarget(dir, formats)
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

// NewTarget refuses a folder a dataset cannot replace, and formats it does
// not know; Write without a target refuses to write.
func TestBadOut(t *testing.T) {
	r := solved(t, game.Default)
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, []byte("x"), 0o644)
	tests := []struct {
		name, dir string
		formats   []string
		want      string
	}{
		{"a file", file, Formats, "is a file; name a folder"},
		{"under a file", filepath.Join(file, "sub"), Formats, "cannot be made or read"},
		{"holds a folder", filepath.Dir(filepath.Dir(file)), Formats, "holds the folder"},
		{"unknown format", t.TempDir(), []string{"xlsx"}, `format "xlsx" is unknown`},
		{"no format", t.TempDir(), nil, "no file format named"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewTarget(tt.dir, tt.formats)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("NewTarget error = %v, want it to contain %q", err, tt.want)
			}
			if got, want := errors.As(err, new(*FormatError)), tt.formats == nil || tt.formats[0] == "xlsx"; got != want {
				t.Errorf("NewTarget error is a *FormatError: %v, want %v", got, want)
			}
		})
	}
	if _, err := Write(context.Background(), Game(r), Options{Meta: meta}); err == nil || !strings.Contains(err.Error(), "NewTarget") {
		t.Errorf("Write without a target: %v, want it refused, naming NewTarget", err)
	}
}

func benchExport(b *testing.B, s game.Spec) {
	r := solved(b, s)
	dir := b.TempDir()
	for b.Loop() {
		if _, err := Write(context.Background(), Game(r), Options{Target: target(b, dir, Formats), Meta: meta}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExport3x3(b *testing.B) { benchExport(b, game.Default) }
func BenchmarkExport4x4(b *testing.B) { benchExport(b, game.Spec{Rows: 4, Cols: 4, K: 4}) }

// 4x4 k=4 written from a solved game in memory (the command adds the
// enumeration and the solve), per format and worker count.
func BenchmarkExport4x4Formats(b *testing.B) {
	r := solved(b, game.Spec{Rows: 4, Cols: 4, K: 4})
	for _, fc := range []struct {
		name    string
		formats []string
	}{{"parquet", []string{"parquet"}}, {"csv", []string{"csv"}}, {"both", Formats}} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/workers=%d", fc.name, workers), func(b *testing.B) {
				dir := b.TempDir()
				for b.Loop() {
					if _, err := Write(context.Background(), Game(r), Options{Target: target(b, dir, fc.formats), Meta: meta, Workers: workers}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// cellFields.cells views the fields Cell0 to Cell63 in order.
func TestCellFields(t *testing.T) {
	var c cellFields
	cells := make([]int8, game.MaxCells)
	for i := range cells {
		cells[i] = int8(i + 1)
	}
	c.set(cells)
	v := reflect.ValueOf(c)
	for i := range game.MaxCells {
		if got, want := v.FieldByName(fmt.Sprintf("Cell%d", i)).Int(), int64(i+1); got != want {
			t.Fatalf("Cell%d = %d, want %d", i, got, want)
		}
	}
}

// The nulls of to_move read back where they were written. parquet-go's
// typed writer misplaced the nulls of a string field marked optional in a
// batch of 64 rows where a run of n values at offset n follows a null and
// only nulls follow it: it took those nulls for values too (its null
// bitmap's test of a run compares the bits left with the run's offset, not
// its length), as in 4x4's rows from 8,812,544. So the nullable columns are
// pointers in the records. Here batch n of 64 rows is n nulls, n values,
// and nulls.
func TestNullsReadBack(t *testing.T) {
	sh := shape{game: rules.Spec{Spec: game.Default}}
	rows := make([]State, 64*32)
	for i := range rows {
		n, at := i/64, i%64
		rows[i].ToMove = "X"
		if at < n || at >= 2*n {
			rows[i].ToMove = ""
		}
	}
	recs := make([]stateRecord, len(rows))
	for i := range rows {
		recs[i].from(&rows[i])
	}
	g := newGroupWriters[stateRecord](sh, meta, "states", 1).begin(nil)
	if err := g.write(recs); err != nil {
		t.Fatal(err)
	}
	b, err := g.end()
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		ToMove *string `parquet:"to_move"`
	}
	got := make([]row, len(rows)+1)
	if n, _ := parquet.NewGenericReader[row](bytes.NewReader(b)).Read(got); n != len(rows) {
		t.Fatalf("%d rows, want %d", n, len(rows))
	}
	for i, r := range got[:len(rows)] {
		if want := rows[i].ToMove; (r.ToMove == nil) != (want == "") || r.ToMove != nil && *r.ToMove != want {
			t.Fatalf("row %d: to_move %v, want %q (null where empty)", i, r.ToMove, want)
		}
	}
}
