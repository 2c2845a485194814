package par_test

import (
	"context"
	"fmt"

	"github.com/tateti-lab/tateti-lab/internal/par"
)

// Each chunk writes only its own range, so the result is the same for any
// number of workers.
func ExampleRanges() {
	squares := make([]int, 10000)
	err := par.Ranges(context.Background(), 0, len(squares), 4, func(_ context.Context, _, lo, hi int) error {
		for i := lo; i < hi; i++ {
			squares[i] = i * i
		}
		return nil
	})
	fmt.Println(squares[9999], err)
	// Output: 99980001 <nil>
}

// Chunks are made on up to 2 goroutines and consumed in their order.
func ExampleInOrder() {
	var out []int
	err := par.InOrder(context.Background(), 5, 2, func(_ context.Context, k int) (int, error) {
		return 10 * k, nil
	}, func(_ int, v int) error {
		out = append(out, v)
		return nil
	})
	fmt.Println(out, err)
	// Output: [0 10 20 30 40] <nil>
}
