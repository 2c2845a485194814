package export

import (
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"unsafe"

	"github.com/parquet-go/parquet-go"
	"github.com/tateti-lab/tateti-lab/rules"
)

// RowGroupSize caps the rows of one Parquet row group, which parquet-go holds
// in memory until it is flushed. Groups of 128K rows keep each group's
// state_id range narrow (rows are sorted by ply, then state_id), so that a
// lookup by state_id reads few groups.
const RowGroupSize = 1 << 17

// stateSchema builds the states schema for boards of n cells: a struct type
// with one cell_i field per cell, so that the columns keep the order of the
// data dictionary (parquet.Group would sort them by name).
func stateSchema(n int) (*parquet.Schema, error) {
	type field struct {
		name string
		typ  any
		tag  string
	}
	fields := []field{{"state_id", int64(0), "delta"}, {"board", "", "plain"}}
	// Small integers take a few values each: dictionary encoding stores
	// them in a bit or two a row.
	for i := range n {
		fields = append(fields, field{fmt.Sprintf("cell_%d", i), int8(0), "dict"})
	}
	fields = append(fields,
		field{"ply", int8(0), "dict"},
		field{"to_move", (*string)(nil), "dict"},
		field{"status", "", "dict"},
		field{"value", int8(0), "dict"},
		field{"outcome", "", "dict"},
		field{"depth", int8(0), "dict"},
		field{"best_moves", []int8(nil), "list"},
		field{"n_moves", int8(0), "dict"},
		field{"n_winning", int8(0), "dict"},
		field{"n_drawing", int8(0), "dict"},
		field{"n_losing", int8(0), "dict"},
		field{"canonical_id", int64(0), ""},
		field{"orbit_size", int8(0), "dict"},
		field{"paths", int64(0), "delta"},
		field{"is_terminal", false, ""},
	)
	sf := make([]reflect.StructField, len(fields))
	want := make([][]string, len(fields))
	for i, f := range fields {
		tag := f.name
		if f.tag != "" {
			tag += "," + f.tag
		}
		st := `parquet:"` + tag + `"`
		if f.name == "best_moves" {
			// Its elements are cells: a dictionary stores each in a few
			// bits, where plain INT32 fed zstd 124 MB on 4x4.
			st += ` parquet-element:",dict"`
		}
		sf[i] = reflect.StructField{Name: fmt.Sprintf("F%d", i), Type: reflect.TypeOf(f.typ), Tag: reflect.StructTag(st)}
		want[i] = []string{f.name}
		if f.name == "best_moves" {
			want[i] = []string{"best_moves", "list", "element"}
		}
	}
	schema := parquet.SchemaOf(reflect.New(reflect.StructOf(sf)).Interface())
	// addStates fills leaf columns by position: the schema must have them in order.
	if got := schema.Columns(); !slices.EqualFunc(got, want, slices.Equal[[]string]) {
		return nil, fmt.Errorf("states schema has columns %v, want %v", got, want)
	}
	return schema, nil
}

// parquetOptions are the writer options every table shares: zstd, capped row
// groups, and metadata naming the game and the tool. CreatedBy is set so that
// the bytes do not depend on the build of the binary.
func parquetOptions(meta Meta, game rules.Spec, table string, rowGroup int64) []parquet.WriterOption {
	return []parquet.WriterOption{
		parquet.Compression(&parquet.Zstd),
		parquet.MaxRowsPerRowGroup(rowGroup),
		parquet.CreatedBy(meta.Tool, meta.Version, "none"),
		parquet.KeyValueMetadata("tateti.table", table),
		parquet.KeyValueMetadata("tateti.game", gameJSON(game)),
		parquet.KeyValueMetadata("tateti.tool", meta.Tool+" "+meta.Version),
		parquet.KeyValueMetadata("tateti.schema", tableJSON(game, table)),
	}
}

// newParquet opens a Parquet writer of one table on out.
func newParquet(out io.Writer, game rules.Spec, meta Meta, table string) (*parquet.Writer, error) {
	opts := parquetOptions(meta, game, table, math.MaxInt64) // row groups are cut by chunks
	switch {
	case table == "states":
		schema, err := stateSchema(game.Cells())
		if err != nil {
			return nil, err
		}
		opts = append(opts, schema,
			// The rows are sorted so; the footer says it, for readers that prune.
			parquet.SortingWriterConfig(parquet.SortingColumns(parquet.Ascending("ply"), parquet.Ascending("state_id"))))
	case game.Gravity:
		opts = append(opts, parquet.SchemaOf(gravityMove{}))
	default:
		opts = append(opts, parquet.SchemaOf(Move{}))
	}
	return parquet.NewWriter(out, opts...), nil
}

// feeder hands a batch of rows to a row group's column writers one column at
// a time, through one scratch slice of values reused for every column.
type feeder struct {
	cols []*parquet.ColumnWriter
	vals []parquet.Value
	col  int   // the next column to write
	err  error // the first write error; the rest of the batch is skipped
}

func newFeeder(rg *parquet.ConcurrentRowGroupWriter) *feeder {
	return &feeder{cols: rg.ColumnWriters(), vals: make([]parquet.Value, 0, batchRows)}
}

// start begins a batch at the first column.
func (f *feeder) start() { f.col = 0 }

// write hands the values held to the next column (whole rows each).
func (f *feeder) write() {
	if f.err == nil {
		_, f.err = f.cols[f.col].WriteRowValues(f.vals)
	}
	f.vals = f.vals[:0]
	f.col++
}

// feedColumn writes to the feeder's next column the value get gives of each
// row: a small integer as INT32, an int64, a boolean or bytes. Each kind has
// a loop of its own that builds the value in place: a parquet.Value returned
// by a function costs a stall on every row where the processor reloads it.
func feedColumn[T any, V int8 | int64 | bool | []byte](f *feeder, rows []T, get func(*T) V) {
	vals := slices.Grow(f.vals[:0], len(rows))[:len(rows)]
	switch get := any(get).(type) {
	case func(*T) int8:
		for k := range rows {
			vals[k] = parquet.Int32Value(int32(get(&rows[k])))
		}
	case func(*T) int64:
		for k := range rows {
			vals[k] = parquet.Int64Value(get(&rows[k]))
		}
	case func(*T) bool:
		for k := range rows {
			vals[k] = parquet.BooleanValue(get(&rows[k]))
		}
	case func(*T) []byte:
		for k := range rows {
			vals[k] = parquet.ByteArrayValue(get(&rows[k]))
		}
	}
	f.vals = vals
	f.write()
}

// addStates adds the values of the states ss, column by column: to_move is
// optional (definition level 1 when set), and best_moves is a list (an empty
// list is one null at definition level 0; elements are at definition level
// 1, the ones after the first at repetition level 1).
func (f *feeder) addStates(ss []State) error {
	f.start()
	feedColumn(f, ss, func(s *State) int64 { return s.StateID })
	feedColumn(f, ss, func(s *State) []byte { return s.Board })
	for c := range ss[0].Cells {
		feedColumn(f, ss, func(s *State) int8 { return s.Cells[c] })
	}
	feedColumn(f, ss, func(s *State) int8 { return s.Ply })
	for k := range ss {
		v := parquet.NullValue()
		if ss[k].ToMove != "" {
			v = parquet.ByteArrayValue(bytesOf(ss[k].ToMove)).Level(0, 1, 0)
		}
		f.vals = append(f.vals, v)
	}
	f.write()
	feedColumn(f, ss, func(s *State) []byte { return bytesOf(s.Status) })
	feedColumn(f, ss, func(s *State) int8 { return s.Value })
	feedColumn(f, ss, func(s *State) []byte { return bytesOf(s.Outcome) })
	feedColumn(f, ss, func(s *State) int8 { return s.Depth })
	for k := range ss {
		if len(ss[k].BestMoves) == 0 {
			f.vals = append(f.vals, parquet.NullValue())
		}
		for j, m := range ss[k].BestMoves {
			f.vals = append(f.vals, parquet.Int32Value(int32(m)).Level(min(j, 1), 1, 0))
		}
	}
	f.write()
	feedColumn(f, ss, func(s *State) int8 { return s.NMoves })
	feedColumn(f, ss, func(s *State) int8 { return s.NWinning })
	feedColumn(f, ss, func(s *State) int8 { return s.NDrawing })
	feedColumn(f, ss, func(s *State) int8 { return s.NLosing })
	feedColumn(f, ss, func(s *State) int64 { return s.CanonicalID })
	feedColumn(f, ss, func(s *State) int8 { return s.OrbitSize })
	feedColumn(f, ss, func(s *State) int64 { return s.Paths })
	feedColumn(f, ss, func(s *State) bool { return s.IsTerminal })
	return f.err
}

// bytesOf gives the bytes of s without copying them, for a value that
// parquet-go copies into its buffers and never writes to.
func bytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// addMoves adds the values of the moves ms, column by column; column only
// under gravity.
func (f *feeder) addMoves(ms []Move, gravity bool) error {
	f.start()
	feedColumn(f, ms, func(m *Move) int64 { return m.StateID })
	feedColumn(f, ms, func(m *Move) int8 { return m.Move })
	if gravity {
		feedColumn(f, ms, func(m *Move) int8 { return m.Column })
	}
	feedColumn(f, ms, func(m *Move) int64 { return m.ChildID })
	feedColumn(f, ms, func(m *Move) int8 { return m.ChildValue })
	feedColumn(f, ms, func(m *Move) int8 { return m.ChildDepth })
	feedColumn(f, ms, func(m *Move) bool { return m.IsBest })
	return f.err
}
