package export

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
)

// The Parquet files are laid out as the data dictionary promises: zstd,
// dictionary encoding for the few-valued strings and small integers, delta
// encoding for the ids and paths, plain for board, row groups capped, the states' sort order (ply, state_id)
// declared in the footer, and metadata naming the game and the tool.
func TestParquetLayout(t *testing.T) {
	s := game.Spec{Rows: 3, Cols: 4, K: 3}
	r := solved(t, s)
	dir := t.TempDir()
	const cap = 10_000
	_, err := Write(context.Background(), Game(r), Options{Target: target(t, dir, []string{"parquet"}), Meta: meta, rowGroup: cap})
	if err != nil {
		t.Fatal(err)
	}
	for _, table := range []string{"states", "moves"} {
		t.Run(table, func(t *testing.T) {
			f := openParquet(t, filepath.Join(dir, table+".parquet"))
			md := f.Metadata()
			if len(md.RowGroups) < 2 {
				t.Errorf("%d row groups, want several of at most %d rows", len(md.RowGroups), cap)
			}
			for _, rg := range md.RowGroups {
				var sorting []int32
				for _, sc := range rg.SortingColumns {
					sorting = append(sorting, sc.ColumnIdx)
				}
				// states: ply (after state_id, board and the 12 cells) then state_id.
				if want := map[string][]int32{"states": {14, 0}}[table]; !slices.Equal(sorting, want) {
					t.Errorf("row group sorting columns %v, want %v", sorting, want)
				}
				if rg.NumRows > cap {
					t.Errorf("a row group has %d rows, want at most %d", rg.NumRows, cap)
				}
				for _, c := range rg.Columns {
					path := strings.Join(c.MetaData.PathInSchema, ".")
					if c.MetaData.Codec != format.Zstd {
						t.Errorf("column %s is compressed with %v, want zstd", path, c.MetaData.Codec)
					}
					dict := slices.Contains(c.MetaData.Encoding, format.RLEDictionary)
					switch path {
					case "status", "outcome", "to_move", "value", "depth", "ply", "cell_0", "n_moves", "move", "child_value", "child_depth":
						if !dict {
							t.Errorf("column %s has encodings %v, want dictionary", path, c.MetaData.Encoding)
						}
					case "board":
						if dict || !slices.Contains(c.MetaData.Encoding, format.Plain) {
							t.Errorf("column board has encodings %v, want plain", c.MetaData.Encoding)
						}
					case "state_id", "child_id", "paths":
						// Sorted or small ids: their differences pack in a few bits.
						if !slices.Contains(c.MetaData.Encoding, format.DeltaBinaryPacked) {
							t.Errorf("column %s has encodings %v, want delta binary packed", path, c.MetaData.Encoding)
						}
					}
				}
			}
			for key, want := range map[string]string{"tateti.table": table, "tateti.game": `{"rows":3,"cols":4,"k":3,"gravity":false,"misere":false}`, "tateti.tool": "tateti-lab test"} {
				if got, ok := f.Lookup(key); !ok || got != want {
					t.Errorf("metadata %s = %q, want %q", key, got, want)
				}
			}
		})
	}
}

func openParquet(t *testing.T, path string) *parquet.File {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fh.Close() })
	st, err := fh.Stat()
	if err != nil {
		t.Fatal(err)
	}
	f, err := parquet.OpenFile(fh, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// The schema in the manifest and the Parquet metadata names exactly the
// columns the files have, in order, under every rule set.
func TestSchemaMatchesFiles(t *testing.T) {
	for _, rl := range []rules.Rules{rules.Classic(game.Spec{Rows: 2, Cols: 3, K: 2}),
		rules.New(rules.Spec{Spec: game.Spec{Rows: 3, Cols: 2, K: 2}, Gravity: true})} {
		t.Run(rl.Spec().String(), func(t *testing.T) {
			r := solvedUnder(t, rl)
			dir := t.TempDir()
			w, err := Write(context.Background(), Game(r), Options{Target: target(t, dir, Formats), Meta: meta})
			if err != nil {
				t.Fatal(err)
			}
			for _, table := range w.Tables {
				var names []string
				for _, c := range table.Columns {
					names = append(names, c.Name)
				}
				f := openParquet(t, filepath.Join(dir, table.Name+".parquet"))
				var fields []string
				for _, fl := range f.Schema().Fields() {
					fields = append(fields, fl.Name())
				}
				if !slices.Equal(names, fields) {
					t.Errorf("%s: schema columns %v, Parquet fields %v", table.Name, names, fields)
				}
				if got, ok := f.Lookup("tateti.schema"); !ok || !strings.Contains(got, `"primary_key":["`+table.PrimaryKey[0]) {
					t.Errorf("%s: Parquet metadata tateti.schema = %q", table.Name, got)
				}
				header, _ := os.ReadFile(filepath.Join(dir, table.Name+".csv"))
				if first, _, _ := strings.Cut(string(header), "\n"); first != strings.Join(names, ",") {
					t.Errorf("%s: CSV header %q, schema %q", table.Name, first, strings.Join(names, ","))
				}
			}
		})
	}
}
