package export

import (
	"bytes"
	"io"
	"math"
	"reflect"

	"github.com/parquet-go/parquet-go"
)

// RowGroupSize caps the rows of one Parquet row group, which parquet-go holds
// in memory until it is flushed. Groups of 128K rows keep each group's
// state_id range narrow (rows are sorted by ply, then state_id), so that a
// lookup by state_id reads few groups.
const RowGroupSize = 1 << 17

// parquetOptions are the writer options every table shares: zstd, capped row
// groups, and metadata naming the game and the tool. CreatedBy is set so that
// the bytes do not depend on the build of the binary.
func parquetOptions(meta Meta, sh shape, table string, rowGroup int64) []parquet.WriterOption {
	return []parquet.WriterOption{
		parquet.Compression(&parquet.Zstd),
		parquet.MaxRowsPerRowGroup(rowGroup),
		parquet.CreatedBy(meta.Tool, meta.Version, "none"),
		parquet.KeyValueMetadata("tateti.table", table),
		parquet.KeyValueMetadata("tateti.game", gameJSON(sh.game)),
		parquet.KeyValueMetadata("tateti.tool", meta.Tool+" "+meta.Version),
		parquet.KeyValueMetadata("tateti.schema", tableJSON(sh, table)),
	}
}

// The names of the tables' root groups in the Parquet schema, which readers
// do not show: those of the files of earlier versions, kept so that the files
// stay byte-identical.
const (
	stateRoot = ""
	moveRoot  = "Move"
)

// parquetTable gives the Parquet schema of a table of shape sh, and the
// struct tags that make its record type write it: stateRecord for
// states, Move for moves.
func parquetTable(sh shape, table string) (*parquet.Schema, []*parquet.StructTagOption) {
	root, model, tags := stateRoot, any(new(stateRecord)), recordTags(reflect.TypeFor[stateRecord](), stateCols(sh))
	if table != "states" {
		root, model, tags = moveRoot, new(Move), recordTags(reflect.TypeFor[Move](), moveCols(sh))
	}
	opts := make([]parquet.SchemaOption, len(tags))
	for i, t := range tags {
		opts[i] = t
	}
	return parquet.NewSchema(root, parquet.SchemaOf(model, opts...)), tags
}

// newParquet opens a Parquet writer of one table on out.
func newParquet(out io.Writer, sh shape, meta Meta, table string) *parquet.GenericWriter[any] {
	schema, _ := parquetTable(sh, table)
	return parquet.NewGenericWriter[any](out, append(parquetOptions(meta, sh, table, math.MaxInt64), tableOptions(sh, table, schema)...)...)
}

// tableOptions are the options of a table's writers beyond parquetOptions:
// its schema, and the order of its rows where it has state ids.
func tableOptions(sh shape, table string, schema *parquet.Schema) []parquet.WriterOption {
	opts := []parquet.WriterOption{schema}
	if table == "states" && sh.game.HasIDs() {
		// The rows are sorted so; the footer says it, for readers that prune.
		opts = append(opts, parquet.SortingWriterConfig(parquet.SortingColumns(parquet.Ascending("ply"), parquet.Ascending("state_id"))))
	}
	return opts
}

// groupWriters write the row groups of one table's chunks, each as a
// Parquet file of its own, in memory, by parquet-go's typed writer from
// records Rec; the table's writer copies each into the table's file as it
// is (appendGroup), so chunks are written in parallel and the file is the
// same whatever the number of workers. A writer is kept for later chunks:
// making one builds its column writers anew.
type groupWriters[Rec any] struct {
	opts []parquet.WriterOption
	free chan *parquet.GenericWriter[Rec]
}

// newGroupWriters makes the group writers of a table of shape sh, for up
// to workers chunks at once.
func newGroupWriters[Rec any](sh shape, meta Meta, table string, workers int) *groupWriters[Rec] {
	schema, tags := parquetTable(sh, table)
	opts := append(parquetOptions(meta, sh, table, math.MaxInt64), tableOptions(sh, table, schema)...)
	for _, t := range tags {
		opts = append(opts, t)
	}
	return &groupWriters[Rec]{opts: opts, free: make(chan *parquet.GenericWriter[Rec], workers)}
}

// A group is one chunk's row group being written, into buf.
type group[Rec any] struct {
	of  *groupWriters[Rec]
	w   *parquet.GenericWriter[Rec]
	buf *bytes.Buffer
}

// begin starts a group in the array of buf.
func (gs *groupWriters[Rec]) begin(buf []byte) *group[Rec] {
	g := &group[Rec]{of: gs, buf: bytes.NewBuffer(buf[:0])}
	select {
	case g.w = <-gs.free:
		g.w.Reset(g.buf)
	default:
		g.w = parquet.NewGenericWriter[Rec](g.buf, gs.opts...)
	}
	return g
}

// write adds the rows recs to the group.
func (g *group[Rec]) write(recs []Rec) error {
	_, err := g.w.Write(recs)
	return err
}

// end closes the group's file and gives its bytes; its writer is kept for
// another group.
func (g *group[Rec]) end() ([]byte, error) {
	err := g.w.Close()
	select {
	case g.of.free <- g.w:
	default:
	}
	return g.buf.Bytes(), err
}

// appendGroup copies the row group of the group file b, if it has one, into
// pw: its pages as they are, with their statistics and page index.
func appendGroup(pw *parquet.GenericWriter[any], b []byte) error {
	f, err := parquet.OpenFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return err
	}
	for _, rg := range f.RowGroups() { // one, or none for a chunk of no rows
		if _, err := pw.WriteRowGroup(rg); err != nil {
			return err
		}
	}
	return nil
}
