//go:build !amd64

package search

import "sync/atomic"

// prefetchSlots does nothing where the lab has no prefetch instruction:
// the loads that follow fetch the slots themselves.
func prefetchSlots(slots *atomic.Uint64, mask uint64, hs *uint64, n int) {}
