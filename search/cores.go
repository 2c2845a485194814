package search

import "sync/atomic"

// Cores is how many cores the searches of several solvers may keep busy
// together, for solvers that answer positions side by side: the main
// worker of each search takes a core whatever the count, and a search's
// helpers start only on cores left idle (Solver.wake). Two positions in
// flight on two cores are then searched a core each, each at one worker's
// pace, where splitting each between two workers costs more nodes
// (docs/performance.md), while a position alone, as a program asking one
// at a time sends it, still has every core. A nil *Cores sets no limit:
// every helper starts. Safe for concurrent use.
type Cores struct {
	n    int64
	busy atomic.Int64
}

// NewCores gives the cores of n (at least 1) for solvers to share.
func NewCores(n int) *Cores { return &Cores{n: max(int64(n), 1)} }

// take takes a core for a main worker, past the count if need be.
func (c *Cores) take() {
	if c != nil {
		c.busy.Add(1)
	}
}

// tryTake takes a core for a helper if one is idle, and says whether it
// did.
func (c *Cores) tryTake() bool {
	if c == nil {
		return true
	}
	for {
		b := c.busy.Load()
		if b >= c.n {
			return false
		}
		if c.busy.CompareAndSwap(b, b+1) {
			return true
		}
	}
}

// give gives back a core taken.
func (c *Cores) give() {
	if c != nil {
		c.busy.Add(-1)
	}
}
