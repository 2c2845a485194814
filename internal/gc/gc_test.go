package gc

import (
	"math"
	"runtime/debug"
	"testing"
)

// Apply asks for what the policy says, and restore gives back what was
// there; a zero policy changes nothing.
func TestApply(t *testing.T) {
	tests := []struct {
		name    string
		p       Policy
		percent int
		limit   int64
	}{
		{"nothing", Policy{}, 100, math.MaxInt64},
		{"a percent", Policy{Percent: 20}, 20, math.MaxInt64},
		{"a limit", Policy{Limit: 1 << 30}, 100, 1 << 30},
		{"both", Policy{Percent: 50, Limit: 1 << 32}, 50, 1 << 32},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			restore := tt.p.Apply()
			percent := debug.SetGCPercent(-1)
			debug.SetGCPercent(percent)
			if limit := debug.SetMemoryLimit(-1); percent != tt.percent || limit != tt.limit {
				t.Errorf("under %+v: percent %d, limit %d; want %d and %d", tt.p, percent, limit, tt.percent, tt.limit)
			}
			restore()
			percent = debug.SetGCPercent(-1)
			debug.SetGCPercent(percent)
			if limit := debug.SetMemoryLimit(-1); percent != 100 || limit != math.MaxInt64 {
				t.Errorf("restored: percent %d, limit %d; want 100 and no limit", percent, limit)
			}
		})
	}
}
