package db

import (
	"context"
	"fmt"
	"sort"
	"sync"
)

// PlyCodes is one ply's codes with a directory of its reachable
// placements, for a stream that walks them in rank order: the k-th
// reachable placement (a position, in the order an export gives them) is
// found by a short scan from the directory.
type PlyCodes struct {
	Codes []byte
	dir   []int64 // dir[j]: the reachable placements of ranks below j·dirStep
}

const dirStep = 1 << 16

// newPlyCodes indexes codes.
func newPlyCodes(codes []byte) *PlyCodes {
	pl := &PlyCodes{Codes: codes, dir: make([]int64, 1, len(codes)/dirStep+2)}
	var n int64
	for lo := 0; lo < len(codes); lo += dirStep {
		for _, c := range codes[lo:min(lo+dirStep, len(codes))] {
			if c != 0 {
				n++
			}
		}
		pl.dir = append(pl.dir, n)
	}
	return pl
}

// Reachable is the number of reachable placements of the ply.
func (pl *PlyCodes) Reachable() int64 { return pl.dir[len(pl.dir)-1] }

// Find gives the rank of the k-th reachable placement (from 0), k below
// Reachable.
func (pl *PlyCodes) Find(k int64) int64 {
	j := sort.Search(len(pl.dir), func(j int) bool { return pl.dir[j] > k }) - 1
	n := pl.dir[j]
	for r := int64(j) * dirStep; ; r++ {
		if pl.Codes[r] != 0 {
			if n == k {
				return r
			}
			n++
		}
	}
}

// Next gives the first reachable rank at r or after, -1 when none is.
func (pl *PlyCodes) Next(r int64) int64 {
	for ; r < int64(len(pl.Codes)); r++ {
		if pl.Codes[r] != 0 {
			return r
		}
	}
	return -1
}

// Plies holds the codes of a database's plies last read, at most held of
// them, for readers that stream its positions a ply at a time (an
// export's two tables each need a ply and the next). It is safe for
// concurrent use.
type Plies struct {
	d       *DB
	workers int
	reading sync.Mutex // one ply read at a time: two readers of one ply read it once
	kept    *recent[int, *PlyCodes]
}

// Plies gives d's plies, each read with up to workers goroutines, at most
// held kept at once.
func (d *DB) Plies(workers, held int) *Plies {
	return &Plies{d: d, workers: workers, kept: newRecent[int, *PlyCodes](max(held, 2))}
}

// Get gives ply p, read (until ctx ends) when it is not held. A ply whose
// reachable placements are not the manifest's count is an error that says
// the database is damaged.
func (c *Plies) Get(ctx context.Context, p int) (*PlyCodes, error) {
	c.reading.Lock()
	defer c.reading.Unlock()
	if pl, ok := c.kept.get(p); ok {
		return pl, nil
	}
	codes, err := c.d.Codes(ctx, p, c.workers)
	if err != nil {
		return nil, err
	}
	pl := newPlyCodes(codes)
	if got, want := pl.Reachable(), c.d.Manifest.Plies[p].Positions; got != want {
		return nil, fmt.Errorf("%s holds %d positions, and the manifest says %d: the database is damaged; check it with tateti-lab db check, and build it again",
			c.d.TierPath(p), got, want)
	}
	c.kept.put(p, pl)
	return pl, nil
}
