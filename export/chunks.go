package export

import (
	"slices"
)

// A chunk is a range of positions [lo, hi) written as one piece of a table:
// one Parquet row group and one run of CSV lines. Chunks are built in
// parallel and written in order, so the files are the same whatever the
// number of workers.
type chunk struct{ lo, hi int }

// stateChunks cuts n positions into chunks of at most rows positions.
func stateChunks(n int, rows int64) []chunk {
	var cs []chunk
	for lo := 0; lo < n; lo += int(rows) {
		cs = append(cs, chunk{lo, min(lo+int(rows), n)})
	}
	return cs
}

// moveChunks cuts the positions of src into chunks of whole positions
// holding at most rows moves each (a position has fewer moves than cells).
func moveChunks(src Source, rows int64) []chunk {
	var cs []chunk
	lo, held := 0, int64(0)
	for i := range src.len() {
		n := int64(src.nMoves(i))
		if held+n > rows && i > lo {
			cs = append(cs, chunk{lo, i})
			lo, held = i, 0
		}
		held += n
	}
	if lo < src.len() {
		cs = append(cs, chunk{lo, src.len()})
	}
	return cs
}

// piece is one chunk of a table, built: its Parquet row group, as a file of
// its own (nil without Parquet), and its CSV lines (nil without CSV).
type piece struct {
	pq    []byte
	end   func() ([]byte, error) // ends the row group being written in pq
	csv   []byte
	rows  int64
	tally tally // the states table's: what its rows hold
}

// batchRows is how many rows a piece builds at once, before handing them
// to its row group's writer.
const batchRows = 1024

// spareBuffers keeps the buffers of written chunks for the next ones: a
// new buffer for each chunk would be fresh memory for the kernel to map, as
// much as the files hold.
type spareBuffers chan []byte

// get gives an empty buffer of at least n bytes.
func (s spareBuffers) get(n int) []byte {
	select {
	case b := <-s:
		return slices.Grow(b[:0], n)
	default:
		return make([]byte, 0, n)
	}
}

// put keeps b for a later get, if there is room.
func (s spareBuffers) put(b []byte) {
	select {
	case s <- b:
	default:
	}
}
