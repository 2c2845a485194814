package export

import (
	"io"
	"math"

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

// newParquet opens a Parquet writer of one table on out.
func newParquet(out io.Writer, sh shape, meta Meta, table string) (*parquet.Writer, error) {
	opts := parquetOptions(meta, sh, table, math.MaxInt64) // row groups are cut by chunks
	if table == "states" {
		opts = append(opts, parquetSchema(stateRoot, stateCols(sh)))
		if sh.game.HasIDs() {
			// The rows are sorted so; the footer says it, for readers that prune.
			opts = append(opts, parquet.SortingWriterConfig(parquet.SortingColumns(parquet.Ascending("ply"), parquet.Ascending("state_id"))))
		}
	} else {
		opts = append(opts, parquetSchema(moveRoot, moveCols(sh)))
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
