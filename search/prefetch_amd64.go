package search

import "sync/atomic"

// prefetchSlots asks the processor to bring into its cache the slots of
// the n hashes at hs, in a table of slots whose slot of a hash h is
// h&mask, and returns at once: the loads that follow find them there.
//
//go:noescape
func prefetchSlots(slots *atomic.Uint64, mask uint64, hs *uint64, n int)
