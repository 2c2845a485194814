package export

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tateti-lab/tateti-lab/internal/atomicfile"
	"github.com/tateti-lab/tateti-lab/internal/figure"
)

// estimateSample is how many positions, spread evenly over a source, an
// estimate writes.
const estimateSample = 4096

// FileEstimate is what one file of a dataset will take: its rows (known)
// and its bytes (estimated).
type FileEstimate struct {
	Name  string `json:"name"`
	Rows  int64  `json:"rows"`
	Bytes int64  `json:"bytes"`
}

// Estimate is the size of a dataset before it is written, and the room
// the disk where it goes has.
type Estimate struct {
	Files []FileEstimate `json:"files"`
	Bytes int64          `json:"bytes"` // all the files
	Free  uint64         `json:"free"`  // free where the dataset goes; 0 when the disk cannot tell
}

// EstimateOf gives the size of the dataset of src in formats, written into
// dir: the rows of each table are known (the positions, and the sum of
// their moves); the bytes a row takes are measured by writing up to
// estimateSample positions spread evenly over the source, with their
// moves, in each format, and scaled to all the rows. A sample compresses
// less than the whole, so Parquet's figure leans high.
func EstimateOf(ctx context.Context, src Source, formats []string, dir string, workers int) (Estimate, error) {
	n := src.len()
	var moves int64
	for i := range n {
		moves += int64(src.nMoves(i))
	}
	sample := spread(src, estimateSample)
	tmp, err := os.MkdirTemp("", "tateti-lab-estimate-")
	if err != nil {
		return Estimate{}, err
	}
	defer os.RemoveAll(tmp)
	w, err := writeDataset(ctx, sample, Options{Target: Target{dir: filepath.Join(tmp, "sample"), formats: formats}, Meta: Meta{Tool: "tateti-lab"}, Workers: workers})
	if err != nil {
		return Estimate{}, err
	}
	rows := map[string]int64{"states": int64(n), "moves": moves}
	e := Estimate{Free: atomicfile.Free(filepath.Dir(filepath.Clean(dir)))}
	for _, f := range w.Files {
		fe := FileEstimate{Name: f.Name, Rows: rows[f.Table]}
		if f.Rows > 0 {
			fe.Bytes = f.Bytes * fe.Rows / f.Rows
		}
		e.Files = append(e.Files, fe)
		e.Bytes += fe.Bytes
	}
	return e, nil
}

// Check says why the dataset does not fit the disk, if it does not: the
// new dataset is written beside the old one, which goes once it is whole.
func (e Estimate) Check(dir string) error {
	if e.Free != 0 && uint64(e.Bytes) > e.Free {
		return fmt.Errorf("the dataset will take about %s and the disk where %s goes has %s free; free some space, name a folder on another disk, or write fewer files (--format parquet writes the Parquet tables alone)",
			figure.Bytes(uint64(e.Bytes)), dir, figure.Bytes(e.Free))
	}
	return nil
}

// spread is a source of up to k positions of src, in runs of estimateRun
// consecutive positions spread evenly over it: consecutive rows compress
// as the whole file's do (delta-coded ids, dictionaries), scattered ones
// less.
func spread(src Source, k int) Source {
	n := src.len()
	if n <= k {
		return src
	}
	runs := k / estimateRun
	idx := make([]int, 0, k)
	for j := range runs {
		start := int(int64(j) * int64(n-estimateRun) / int64(runs-1))
		for i := range estimateRun {
			idx = append(idx, start+i)
		}
	}
	return sampled{src, idx}
}

// estimateRun is the positions of one run of an estimate's sample.
const estimateRun = 256

// sampled is the positions idx of src, in that order.
type sampled struct {
	src Source
	idx []int
}

func (s sampled) shape() shape     { return s.src.shape() }
func (s sampled) len() int         { return len(s.idx) }
func (s sampled) nMoves(k int) int { return s.src.nMoves(s.idx[k]) }
func (s sampled) chosen() *Chosen  { return s.src.chosen() }
func (s sampled) rows() rowMaker   { return sampledRows{s.src.rows(), s.idx} }

type sampledRows struct {
	rm  rowMaker
	idx []int
}

func (r sampledRows) state(k int, dst *State)        { r.rm.state(r.idx[k], dst) }
func (r sampledRows) moves(k int, dst []Move) []Move { return r.rm.moves(r.idx[k], dst) }
func (r sampledRows) failed() error                  { return r.rm.failed() }
