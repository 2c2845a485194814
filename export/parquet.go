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
		sf[i] = reflect.StructField{Name: fmt.Sprintf("F%d", i), Type: reflect.TypeOf(f.typ), Tag: reflect.StructTag(`parquet:"` + tag + `"`)}
		want[i] = []string{f.name}
		if f.name == "best_moves" {
			want[i] = []string{"best_moves", "list", "element"}
		}
	}
	schema := parquet.SchemaOf(reflect.New(reflect.StructOf(sf)).Interface())
	// writeState fills leaf columns by position: the schema must have them in order.
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

// columns holds one row group's values column by column, in schema order,
// until they are handed to the group's column writers: building columns
// directly skips assembling rows only to take them apart again.
type columns [][]parquet.Value

// flush writes the held values to rg's columns (whole rows each) and empties
// them.
func (cs columns) flush(rg *parquet.ConcurrentRowGroupWriter) error {
	for i, w := range rg.ColumnWriters() {
		if len(cs[i]) == 0 {
			continue
		}
		if _, err := w.WriteRowValues(cs[i]); err != nil {
			return err
		}
		cs[i] = cs[i][:0]
	}
	return nil
}

// addColumn appends the value v gives of each row to column col, and gives
// the next column.
func addColumn[T any](cs columns, col int, rows []T, v func(*T) parquet.Value) int {
	for k := range rows {
		cs[col] = append(cs[col], v(&rows[k]))
	}
	return col + 1
}

// addStates adds the values of the states ss, column by column: to_move is
// optional (definition level 1 when set), and best_moves is a list (an empty
// list is one null at definition level 0; elements are at definition level
// 1, the ones after the first at repetition level 1).
func (cs columns) addStates(ss []State) {
	col := 0
	each := func(v func(s *State) parquet.Value) { col = addColumn(cs, col, ss, v) }
	each(func(s *State) parquet.Value { return parquet.Int64Value(s.StateID) })
	each(func(s *State) parquet.Value { return parquet.ByteArrayValue(s.Board) })
	for c := range ss[0].Cells {
		each(func(s *State) parquet.Value { return parquet.Int32Value(int32(s.Cells[c])) })
	}
	each(func(s *State) parquet.Value { return parquet.Int32Value(int32(s.Ply)) })
	each(func(s *State) parquet.Value {
		if s.ToMove == "" {
			return parquet.NullValue()
		}
		return parquet.ByteArrayValue(bytesOf(s.ToMove)).Level(0, 1, 0)
	})
	each(func(s *State) parquet.Value { return parquet.ByteArrayValue(bytesOf(s.Status)) })
	each(func(s *State) parquet.Value { return parquet.Int32Value(int32(s.Value)) })
	each(func(s *State) parquet.Value { return parquet.ByteArrayValue(bytesOf(s.Outcome)) })
	each(func(s *State) parquet.Value { return parquet.Int32Value(int32(s.Depth)) })
	for k := range ss {
		if len(ss[k].BestMoves) == 0 {
			cs[col] = append(cs[col], parquet.NullValue())
		}
		for j, m := range ss[k].BestMoves {
			cs[col] = append(cs[col], parquet.Int32Value(int32(m)).Level(min(j, 1), 1, 0))
		}
	}
	col++
	each(func(s *State) parquet.Value { return parquet.Int32Value(int32(s.NMoves)) })
	each(func(s *State) parquet.Value { return parquet.Int32Value(int32(s.NWinning)) })
	each(func(s *State) parquet.Value { return parquet.Int32Value(int32(s.NDrawing)) })
	each(func(s *State) parquet.Value { return parquet.Int32Value(int32(s.NLosing)) })
	each(func(s *State) parquet.Value { return parquet.Int64Value(s.CanonicalID) })
	each(func(s *State) parquet.Value { return parquet.Int32Value(int32(s.OrbitSize)) })
	each(func(s *State) parquet.Value { return parquet.Int64Value(s.Paths) })
	each(func(s *State) parquet.Value { return parquet.BooleanValue(s.IsTerminal) })
}

// bytesOf gives the bytes of s without copying them, for a value that
// parquet-go copies into its buffers and never writes to.
func bytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// addMoves adds the values of the moves ms, column by column; column only
// under gravity.
func (cs columns) addMoves(ms []Move, gravity bool) {
	col := 0
	each := func(v func(m *Move) parquet.Value) { col = addColumn(cs, col, ms, v) }
	each(func(m *Move) parquet.Value { return parquet.Int64Value(m.StateID) })
	each(func(m *Move) parquet.Value { return parquet.Int32Value(int32(m.Move)) })
	if gravity {
		each(func(m *Move) parquet.Value { return parquet.Int32Value(int32(m.Column)) })
	}
	each(func(m *Move) parquet.Value { return parquet.Int64Value(m.ChildID) })
	each(func(m *Move) parquet.Value { return parquet.Int32Value(int32(m.ChildValue)) })
	each(func(m *Move) parquet.Value { return parquet.Int32Value(int32(m.ChildDepth)) })
	each(func(m *Move) parquet.Value { return parquet.BooleanValue(m.IsBest) })
}
