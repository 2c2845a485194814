package export

import (
	"math"
	"strconv"
	"testing"
)

// appendInt writes what strconv does, at every length and sign.
func TestAppendInt(t *testing.T) {
	cases := []int64{0, 1, 9, 10, 11, 99, 100, 101, -1, -9, -10, -99, -100, 43046720, 1625702400,
		math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1}
	for p := int64(1); p < math.MaxInt64/10; p *= 10 {
		cases = append(cases, p-1, p, p+1, -p)
	}
	for _, v := range cases {
		if got, want := string(appendInt([]byte("x"), v)), "x"+strconv.FormatInt(v, 10); got != want {
			t.Errorf("appendInt(%d) = %q, want %q", v, got, want)
		}
	}
	for _, v := range []uint64{math.MaxUint64, math.MaxUint64 - 1, 1e19, 1e19 - 1, 1 << 63} {
		if got, want := string(appendUint(nil, v)), strconv.FormatUint(v, 10); got != want {
			t.Errorf("appendUint(%d) = %q, want %q", v, got, want)
		}
	}
}

func FuzzAppendInt(f *testing.F) {
	f.Add(int64(0))
	f.Add(int64(math.MinInt64))
	f.Fuzz(func(t *testing.T, v int64) {
		if got, want := string(appendInt(nil, v)), strconv.FormatInt(v, 10); got != want {
			t.Errorf("appendInt(%d) = %q, want %q", v, got, want)
		}
	})
}

// csvFloat writes every float32 a policy holds as strconv does: 0, one
// over a count of best moves, and any other value.
func TestCSVFloat(t *testing.T) {
	vals := []float32{0, 1, 0.5, 1.0 / 3, 0.25, 1.0 / 7, 1.0 / 64, 1.0 / 65, 2.0 / 3, 0.1, -1, 1e-9}
	for _, v := range vals {
		if got, want := string(csvFloat(nil, v)), strconv.FormatFloat(float64(v), 'g', -1, 32); got != want {
			t.Errorf("csvFloat(%v) = %q, want %q", v, got, want)
		}
	}
}
