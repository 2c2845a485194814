// Package par owns the one way tateti-lab works in parallel: a range of
// positions cut into contiguous chunks run on an errgroup limited with
// SetLimit, each chunk's goroutine writing only data of its own range, so that
// a result never depends on the number of workers; and chunks made in
// parallel but consumed in order, for files whose bytes must not depend on it
// either.
package par

import (
	"context"

	"golang.org/x/sync/errgroup"
)

// Chunks is the number of ranges Ranges splits [lo, hi) into for workers.
func Chunks(lo, hi, workers int) int {
	size := chunkSize(lo, hi, workers)
	return (hi - lo + size - 1) / size
}

func chunkSize(lo, hi, workers int) int {
	workers = max(workers, 1)
	return max((hi-lo+16*workers-1)/(16*workers), 4096)
}

// Ranges splits [lo, hi) into Chunks(lo, hi, workers) contiguous ranges and
// calls fn on each, with its chunk number k, from an errgroup limited to
// workers goroutines (at least 1). Each call must write only data of its own
// range or chunk, so that the result does not depend on workers.
func Ranges(ctx context.Context, lo, hi, workers int, fn func(ctx context.Context, k, a, b int) error) error {
	size := chunkSize(lo, hi, workers)
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(max(workers, 1))
	for a := lo; a < hi; a += size {
		k, b := (a-lo)/size, min(a+size, hi)
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			return fn(ctx, k, a, b)
		})
	}
	return g.Wait()
}

// InOrder calls produce for every chunk index 0..n-1 on up to workers
// goroutines, and consume for each result in index order on one more. At
// most workers+1 results are made ahead of consume, so memory stays bounded
// when consume is the slower. Each produce writes only its own result; the
// first error stops the rest, and every goroutine has ended when it returns.
func InOrder[T any](ctx context.Context, n, workers int, produce func(ctx context.Context, k int) (T, error), consume func(k int, v T) error) error {
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

// Tasks calls fn for each task 0..n-1 from an errgroup limited to workers
// goroutines (at least 1), one task a call, for work already cut into
// tasks of its own sizes. Each call must write only data of its own task.
// The first error, or ctx's end, stops the tasks not yet begun.
func Tasks(ctx context.Context, n, workers int, fn func(ctx context.Context, k int) error) error {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(max(workers, 1))
	for k := range n {
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			return fn(ctx, k)
		})
	}
	return g.Wait()
}
