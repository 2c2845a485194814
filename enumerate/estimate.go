package enumerate

import (
	"fmt"

	"github.com/tateti-lab/tateti-lab/index"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Estimate is what exhausting a game will need, known before it starts.
type Estimate struct {
	// Placements counts the raw boards with fair counts (X has as many marks
	// as O or one more) and, under gravity, no floating mark: at least as
	// many as the reachable positions.
	Placements uint64 `json:"placements"`
	// Bytes is the memory to enumerate and solve that many positions, and
	// to build the largest layer.
	Bytes uint64 `json:"bytes"`
}

// BytesPerPosition is what enumerate and solve keep for each position: id,
// status, paths, canonical id and orbit (26), the index (4 at most), value,
// depth, best moves and move counts (9), with some room.
const BytesPerPosition = 44

// Estimate gives the estimate for the game of rs.
func EstimateFor(rs rules.Spec) Estimate {
	n, rows, cols := rs.Cells(), rs.Rows, rs.Cols
	// byCount[x][o]: placements with x X marks and o O marks.
	byCount := [][]uint64{{1}}
	if rs.Gravity {
		for range cols {
			byCount = addColumn(byCount, rows)
		}
	} else {
		byCount = freeCounts(n)
	}
	var e Estimate
	var largest uint64
	for x := range byCount {
		for o := range byCount[x] {
			if x == o || x == o+1 {
				e.Placements += byCount[x][o]
				largest = max(largest, byCount[x][o])
			}
		}
	}
	e.Bytes = e.Placements * BytesPerPosition
	if n > index.DenseCells {
		// Building a layer sorts the children of the one before, up to one
		// a legal move, and merges them into a copy.
		e.Bytes += largest * uint64(cols) * 8 * 2
	}
	return e
}

// freeCounts counts the boards of n cells by their X and O marks:
// C(n, x) · C(n-x, o).
func freeCounts(n int) [][]uint64 {
	out := make([][]uint64, n+1)
	for x := range out {
		out[x] = make([]uint64, n+1-x)
		for o := range out[x] {
			out[x][o] = binomial(n, x) * binomial(n-x, o)
		}
	}
	return out
}

// addColumn adds a gravity column of rows cells: a stack of h marks, each
// X or O, for every h from 0 to rows.
func addColumn(byCount [][]uint64, rows int) [][]uint64 {
	out := make([][]uint64, len(byCount)+rows)
	for x := range out {
		out[x] = make([]uint64, len(byCount)+rows)
	}
	for x := range byCount {
		for o, c := range byCount[x] {
			for h := 0; h <= rows; h++ {
				for a := 0; a <= h; a++ { // a X marks among the h
					out[x+a][o+h-a] += c * binomial(h, a)
				}
			}
		}
	}
	return out
}

func binomial(n, k int) uint64 {
	r := uint64(1)
	for i := 1; i <= k; i++ {
		r = r * uint64(n-k+i) / uint64(i)
	}
	return r
}

// CheckMemory returns an error when the estimate of rs is more than
// available bytes, naming both.
func CheckMemory(rs rules.Spec, available uint64) error {
	e := EstimateFor(rs)
	if available == 0 || e.Bytes <= available {
		return nil
	}
	return fmt.Errorf("%s needs about %s of memory (up to %s positions at %d bytes each), and this machine has %s available; try a smaller board or a longer k",
		rs, gigabytes(e.Bytes), thousands(e.Placements), BytesPerPosition, gigabytes(available))
}

func gigabytes(b uint64) string { return fmt.Sprintf("%.1f GB", float64(b)/1e9) }

func thousands(n uint64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
