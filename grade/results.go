package grade

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/parquet-go/parquet-go"
	"github.com/tateti-lab/tateti-lab/internal/atomicfile"
)

// Graded is one answer of an agent, graded: a row of the results file of
// grade --out. Values are for the side to move.
type Graded struct {
	StateID     *int64 `parquet:"state_id,optional"` // null past 40 cells
	Board       string `parquet:"board,plain"`
	Ply         int8   `parquet:"ply,dict"`
	Answer      string `parquet:"answer,plain"`  // as the agent wrote it
	Move        *int8  `parquet:"move,optional"` // the cell it plays; null when illegal
	Kind        string `parquet:"kind,dict"`     // kept, win_to_draw, win_to_loss, draw_to_loss or illegal
	IsBest      bool   `parquet:"is_best"`       // a best move: the best value, then the best depth
	ValueBefore int8   `parquet:"value_before,dict"`
	ValueAfter  *int8  `parquet:"value_after,optional"` // null when illegal
}

// CheckResultsName makes sure name ends in a results format.
func CheckResultsName(name string) error {
	switch filepath.Ext(name) {
	case ".parquet", ".csv":
		return nil
	}
	return fmt.Errorf("%q ends in neither .parquet nor .csv, which say the format", name)
}

// WriteResults writes rows to the file name, as Parquet (zstd) or CSV with a
// header by its ending, as a unit (internal/atomicfile).
func WriteResults(name string, rows []Graded) error {
	var buf bytes.Buffer
	var err error
	if filepath.Ext(name) == ".parquet" {
		err = parquet.Write(&buf, rows, parquet.Compression(&parquet.Zstd), parquet.CreatedBy("tateti-lab", "", "none"))
	} else {
		err = writeCSV(&buf, rows)
	}
	if err != nil {
		return err
	}
	return atomicfile.Write(name, buf.Bytes())
}

func writeCSV(buf *bytes.Buffer, rows []Graded) error {
	w := csv.NewWriter(buf)
	w.Write([]string{"state_id", "board", "ply", "answer", "move", "kind", "is_best", "value_before", "value_after"})
	opt := func(v *int8) string {
		if v == nil {
			return ""
		}
		return strconv.Itoa(int(*v))
	}
	for _, r := range rows {
		id := ""
		if r.StateID != nil {
			id = strconv.FormatInt(*r.StateID, 10)
		}
		w.Write([]string{id, r.Board, strconv.Itoa(int(r.Ply)), r.Answer, opt(r.Move), r.Kind,
			strconv.FormatBool(r.IsBest), strconv.Itoa(int(r.ValueBefore)), opt(r.ValueAfter)})
	}
	w.Flush()
	return w.Error()
}
