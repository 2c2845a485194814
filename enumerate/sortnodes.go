package enumerate

import (
	"context"
	"slices"

	"github.com/tateti-lab/tateti-lab/game"
)

// A layer's children are hundreds of millions of nodes on a large board,
// seconds of sorting, and a run must stop within a second of a signal: the
// sort here is a quicksort that checks its context before each partition
// and as it partitions, and leaves ranges of at most sortRun nodes to
// slices.SortFunc.
const (
	sortRun   = 1 << 16
	sortCheck = 1 << 20 // swaps a partition makes between checks
)

// compareNodes orders nodes by board (game.CompareBoards).
func compareNodes(a, b node) int { return game.CompareBoards(a.b, b.b) }

// sortNodes sorts a by board, or stops with ctx's error. It recurses into
// the smaller side of each partition and loops on the larger, so its
// stack stays within log2 len(a) frames.
func sortNodes(ctx context.Context, a []node) error {
	for len(a) > sortRun {
		if err := ctx.Err(); err != nil {
			return err
		}
		m, err := partition(ctx, a)
		if err != nil {
			return err
		}
		lo, hi := a[:m], a[m:]
		if len(lo) > len(hi) {
			lo, hi = hi, lo
		}
		if err := sortNodes(ctx, lo); err != nil {
			return err
		}
		a = hi
	}
	slices.SortFunc(a, compareNodes)
	return nil
}

// partition reorders a (more than 3 nodes) around the median of its first,
// middle and last boards, Hoare's way, and gives m, 0 < m < len(a), with
// every board of a[:m] at most every board of a[m:]. Boards equal to the
// pivot stop both scans and are swapped, so many equal boards (a position
// reached from many parents) still split the range in halves.
func partition(ctx context.Context, a []node) (int, error) {
	pivot := median(a[0].b, a[len(a)/2].b, a[len(a)-1].b)
	i, j, steps := -1, len(a), 0
	for {
		for i++; game.CompareBoards(a[i].b, pivot) < 0; i++ {
		}
		for j--; game.CompareBoards(a[j].b, pivot) > 0; j-- {
		}
		if i >= j {
			return j + 1, nil
		}
		a[i], a[j] = a[j], a[i]
		if steps++; steps%sortCheck == 0 && ctx.Err() != nil {
			return 0, ctx.Err()
		}
	}
}

// median gives the middle one of three boards.
func median(a, b, c game.Board) game.Board {
	if game.CompareBoards(a, b) > 0 {
		a, b = b, a
	}
	if game.CompareBoards(b, c) > 0 {
		b = c
	}
	if game.CompareBoards(a, b) > 0 {
		b = a
	}
	return b
}

// compact merges the runs of equal boards of a, sorted, into one node each
// with the sum of their paths, and gives the nodes kept, a prefix of a.
func compact(a []node, sum *checkedSum) []node {
	w := 0
	for _, n := range a {
		if w > 0 && a[w-1].b == n.b {
			sum.add(&a[w-1].paths, n.paths)
			continue
		}
		a[w] = n
		w++
	}
	return a[:w]
}
