package export

import (
	"fmt"
	"io"
	"reflect"
	"slices"

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
	fields := []field{{"state_id", int64(0), ""}, {"board", "", "plain"}}
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
		field{"paths", int64(0), ""},
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

// stateRow appends the Parquet values of s to row, one per leaf column in
// schema order, with the repetition and definition levels of each column:
// to_move is optional (null when the game is over) and best_moves is a list
// (definition level 0 for an empty list, 1 for each element).
func stateRow(row parquet.Row, s *State) parquet.Row {
	col := 0
	req := func(v parquet.Value) parquet.Value { // a required column
		col++
		return v.Level(0, 0, col-1)
	}
	row = append(row, req(parquet.Int64Value(s.StateID)), req(parquet.ByteArrayValue([]byte(s.Board))))
	for _, c := range s.Cells {
		row = append(row, req(parquet.Int32Value(int32(c))))
	}
	row = append(row, req(parquet.Int32Value(int32(s.Ply))))
	if s.ToMove == "" {
		row = append(row, req(parquet.NullValue()))
	} else {
		row = append(row, parquet.ByteArrayValue([]byte(s.ToMove)).Level(0, 1, col))
		col++
	}
	row = append(row, req(parquet.ByteArrayValue([]byte(s.Status))), req(parquet.Int32Value(int32(s.Value))),
		req(parquet.ByteArrayValue([]byte(s.Outcome))), req(parquet.Int32Value(int32(s.Depth))))
	if len(s.BestMoves) == 0 {
		row = append(row, req(parquet.NullValue()))
	} else {
		for j, m := range s.BestMoves {
			row = append(row, parquet.Int32Value(int32(m)).Level(min(j, 1), 1, col))
		}
		col++
	}
	return append(row, req(parquet.Int32Value(int32(s.NMoves))), req(parquet.Int32Value(int32(s.NWinning))),
		req(parquet.Int32Value(int32(s.NDrawing))), req(parquet.Int32Value(int32(s.NLosing))),
		req(parquet.Int64Value(s.CanonicalID)), req(parquet.Int32Value(int32(s.OrbitSize))),
		req(parquet.Int64Value(s.Paths)), req(parquet.BooleanValue(s.IsTerminal)))
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

// batch is how many rows the Parquet writers hand to parquet-go at a time.
const batch = 4096

// stateWriter writes State rows to Parquet in batches.
type stateWriter struct {
	w    *parquet.Writer
	rows []parquet.Row
	n    int
}

func newStateWriter(out io.Writer, game rules.Spec, meta Meta, rowGroup int64) (*stateWriter, error) {
	schema, err := stateSchema(game.Cells())
	if err != nil {
		return nil, err
	}
	opts := append([]parquet.WriterOption{schema,
		// The rows are sorted so; the footer says it, for readers that prune.
		parquet.SortingWriterConfig(parquet.SortingColumns(parquet.Ascending("ply"), parquet.Ascending("state_id"))),
	}, parquetOptions(meta, game, "states", rowGroup)...)
	return &stateWriter{w: parquet.NewWriter(out, opts...), rows: make([]parquet.Row, batch)}, nil
}

func (sw *stateWriter) write(s *State) error {
	sw.rows[sw.n] = stateRow(sw.rows[sw.n][:0], s)
	if sw.n++; sw.n == batch {
		return sw.flush()
	}
	return nil
}

func (sw *stateWriter) flush() error {
	_, err := sw.w.WriteRows(sw.rows[:sw.n])
	sw.n = 0
	return err
}

func (sw *stateWriter) close() error {
	if err := sw.flush(); err != nil {
		return err
	}
	return sw.w.Close()
}

// moveWriter writes Move rows to Parquet in batches.
type moveWriter interface {
	write(ms []Move) error
	close() error
}

func newMoveWriter(out io.Writer, game rules.Spec, meta Meta, rowGroup int64) moveWriter {
	opts := parquetOptions(meta, game, "moves", rowGroup)
	if game.Gravity {
		return &typedMoveWriter[gravityMove]{w: parquet.NewGenericWriter[gravityMove](out, opts...), row: func(m Move) gravityMove {
			return gravityMove{StateID: m.StateID, Move: m.Move, Column: m.Column, ChildID: m.ChildID,
				ChildValue: m.ChildValue, ChildDepth: m.ChildDepth, IsBest: m.IsBest}
		}}
	}
	return &typedMoveWriter[Move]{w: parquet.NewGenericWriter[Move](out, opts...), row: func(m Move) Move { return m }}
}

// typedMoveWriter writes moves as rows of type T.
type typedMoveWriter[T any] struct {
	w    *parquet.GenericWriter[T]
	row  func(Move) T
	rows []T
}

func (mw *typedMoveWriter[T]) write(ms []Move) error {
	for _, m := range ms {
		mw.rows = append(mw.rows, mw.row(m))
	}
	if len(mw.rows) >= batch {
		return mw.flush()
	}
	return nil
}

func (mw *typedMoveWriter[T]) flush() error {
	_, err := mw.w.Write(mw.rows)
	mw.rows = mw.rows[:0]
	return err
}

func (mw *typedMoveWriter[T]) close() error {
	if err := mw.flush(); err != nil {
		return err
	}
	return mw.w.Close()
}
