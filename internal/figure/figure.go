// Package figure owns how the tool writes a number for a person to read:
// counts with thousands separators, bytes and seconds in the unit that
// suits them. Every report, estimate and message writes its figures by it, so
// that a package that prints a number needs nothing of the game.
package figure

import (
	"fmt"
	"strconv"
)

// Bytes says a count of bytes in the unit that suits it: "512 B", "1.5 kB",
// "43.3 GB", "9.2 TB" (powers of 1000).
func Bytes(n uint64) string {
	const units = "kMGTPE"
	if n < 1000 {
		return fmt.Sprintf("%d B", n)
	}
	f, u := float64(n)/1000, 0
	for f >= 999.95 && u < len(units)-1 {
		f /= 1000
		u++
	}
	return fmt.Sprintf("%.1f %cB", f, units[u])
}

// Commas prints n with thousands separators: 549946 as "549,946".
func Commas(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	out := make([]byte, 0, len(s)+len(s)/3+1)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}

// Seconds says a time in round words, in the unit that suits it: "2 s"
// (at least 1 s), "14 min" from 90 s, "3.5 h" from 90 min.
func Seconds(seconds float64) string {
	switch {
	case seconds < 90:
		return fmt.Sprintf("%.0f s", max(seconds, 1))
	case seconds < 90*60:
		return fmt.Sprintf("%.0f min", seconds/60)
	}
	return fmt.Sprintf("%.1f h", seconds/3600)
}
