package export

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"path/filepath"

	"github.com/parquet-go/parquet-go"
	"github.com/tateti-lab/tateti-lab/internal/atomicfile"
)

// A Row is a row of a table written to one file by WriteFile: a struct
// whose parquet tags name and encode its columns, and which gives its CSV
// fields in the same order (a list as a JSON array, a null as empty, as
// the datasets write them).
type Row interface {
	CSV() []string
}

// CheckFileName makes sure name ends in a format WriteFile writes.
func CheckFileName(name string) error {
	switch filepath.Ext(name) {
	case ".parquet", ".csv":
		return nil
	}
	return fmt.Errorf("%q ends in neither .parquet nor .csv, which say the format", name)
}

// WriteFile writes rows to the file name as one table, Parquet (zstd) or
// CSV with header by the file's ending, as a unit (internal/atomicfile): a
// table of a run that is not a dataset, such as grade's.
func WriteFile[R Row](name string, header []string, rows []R) error {
	var buf bytes.Buffer
	if filepath.Ext(name) == ".parquet" {
		if err := parquet.Write(&buf, rows, parquet.Compression(&parquet.Zstd), parquet.CreatedBy("tateti-lab", "", "none")); err != nil {
			return err
		}
	} else {
		w := csv.NewWriter(&buf)
		w.Write(header)
		for _, r := range rows {
			w.Write(r.CSV())
		}
		if w.Flush(); w.Error() != nil {
			return w.Error()
		}
	}
	return atomicfile.Write(name, buf.Bytes())
}
