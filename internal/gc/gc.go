// Package gc owns how a run asks Go's collector to keep its memory near
// the estimate it planned on: a Policy, which the domain gives for its work
// (the tier solve, the layers of a shallow enumeration, an export) and one
// place applies, for the command line and the Beam pipeline alike.
package gc

import "runtime/debug"

// A Policy is what the collector is asked for during a run.
type Policy struct {
	// Percent is the heap growth that triggers a collection
	// (debug.SetGCPercent); 0 leaves Go's default of 100.
	Percent int
	// Limit is a soft limit on the heap, in bytes (debug.SetMemoryLimit);
	// 0 sets none.
	Limit uint64
}

// Apply asks the collector for p and gives a function that restores what
// was asked before.
func (p Policy) Apply() (restore func()) {
	oldPercent, oldLimit := -2, int64(-1)
	if p.Percent != 0 {
		oldPercent = debug.SetGCPercent(p.Percent)
	}
	if p.Limit != 0 {
		oldLimit = debug.SetMemoryLimit(int64(p.Limit))
	}
	return func() {
		if oldLimit >= 0 {
			debug.SetMemoryLimit(oldLimit)
		}
		if oldPercent != -2 {
			debug.SetGCPercent(oldPercent)
		}
	}
}
