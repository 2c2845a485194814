package export

import (
	"context"
	"slices"

	"golang.org/x/sync/errgroup"

	"github.com/parquet-go/parquet-go"
	"github.com/tateti-lab/tateti-lab/solve"
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

// moveChunks cuts the positions of r into chunks of whole positions holding
// at most rows moves each (a position has fewer moves than cells).
func moveChunks(r *solve.Result, rows int64) []chunk {
	var cs []chunk
	lo, held := 0, int64(0)
	for i := range r.Enum.Len() {
		n := int64(r.Win[i]) + int64(r.Draw[i]) + int64(r.Lose[i])
		if held+n > rows && i > lo {
			cs = append(cs, chunk{lo, i})
			lo, held = i, 0
		}
		held += n
	}
	if lo < r.Enum.Len() {
		cs = append(cs, chunk{lo, r.Enum.Len()})
	}
	return cs
}

// inOrder calls produce for every chunk index 0..n-1 on up to workers
// goroutines, and consume for each result in index order on one more. At
// most workers+1 results are made ahead of consume, so memory stays bounded
// when consume is the slower. Each produce writes only its own result; the
// first error stops the rest, and every goroutine has ended when it returns.
func inOrder[T any](ctx context.Context, n, workers int, produce func(ctx context.Context, k int) (T, error), consume func(k int, v T) error) error {
	workers = max(workers, 1)
	ready := make([]chan T, n)
	for k := range ready {
		ready[k] = make(chan T, 1)
	}
	ahead := make(chan struct{}, workers+1)
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(workers + 1)
	g.Go(func() error {
		for k := range n {
			select {
			case v := <-ready[k]:
				if err := consume(k, v); err != nil {
					return err
				}
				<-ahead
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return nil
	})
	for k := range n {
		select {
		case ahead <- struct{}{}:
		case <-ctx.Done():
			return g.Wait()
		}
		g.Go(func() error {
			v, err := produce(ctx, k)
			if err != nil {
				return err
			}
			ready[k] <- v
			return nil
		})
	}
	return g.Wait()
}

// piece is one chunk of a table, built: its Parquet row group (nil without
// Parquet) and its CSV lines (nil without CSV).
type piece struct {
	rg   *parquet.ConcurrentRowGroupWriter
	feed *feeder // hands rg each batch of rows
	csv  []byte
	rows int64
}

// batchRows is how many rows a piece builds before handing them to its row
// group's column writers, which cut pages between calls.
const batchRows = 1024

// spareBuffers keeps the CSV buffers of written chunks for the next ones: a
// new buffer for each chunk would be fresh memory for the kernel to map,
// gigabytes of it on 4x4.
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
