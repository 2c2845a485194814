package export

import (
	"math/bits"
	"slices"
)

// appendInts appends each value after a comma.
func appendInts(b []byte, vs ...int64) []byte {
	for _, v := range vs {
		b = appendInt(append(b, ','), v)
	}
	return b
}

// appendInt appends v in decimal, as strconv.AppendInt(b, v, 10) does.
func appendInt(b []byte, v int64) []byte {
	if v < 0 {
		return appendUint(append(b, '-'), uint64(-v))
	}
	return appendUint(b, uint64(v))
}

// appendUint appends v in decimal, as strconv.AppendUint(b, v, 10) does,
// but writes the digits in place, two at a time, with no copy from a scratch
// buffer: the CSV files are mostly ids.
func appendUint(b []byte, v uint64) []byte {
	if v < 10 {
		return append(b, byte('0'+v))
	}
	n := decimalLen(v)
	b = slices.Grow(b, n)
	b = b[:len(b)+n]
	i := len(b)
	for v >= 100 {
		q := v / 100
		r := 2 * (v - 100*q)
		i -= 2
		b[i], b[i+1] = digitPairs[r], digitPairs[r+1]
		v = q
	}
	if v >= 10 {
		b[i-2], b[i-1] = digitPairs[2*v], digitPairs[2*v+1]
	} else {
		b[i-1] = byte('0' + v)
	}
	return b
}

// digitPairs holds "00", "01", ... "99" end to end.
var digitPairs = func() (p [200]byte) {
	for i := range 100 {
		p[2*i], p[2*i+1] = byte('0'+i/10), byte('0'+i%10)
	}
	return p
}()

// pow10 holds the powers of ten that fit in a uint64.
var pow10 = func() (p [20]uint64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = 10 * p[i-1]
	}
	return p
}()

// decimalLen gives the number of decimal digits of v > 0: log10(2) is about
// 1233/4096, so t below is the digits of 2^Len64(v), or one more than v's.
func decimalLen(v uint64) int {
	t := bits.Len64(v) * 1233 >> 12
	if v >= pow10[t] {
		return t + 1
	}
	return t
}

// csvLineBytes bounds the length of most lines of states.csv on a board of
// n cells, to size a chunk's buffer once: two bytes a cell for the board,
// up to three for each cell column and for each element of cells and
// mover_cells, five for move_values, six for legal, about four for policy,
// and about 130 for the rest.
func csvLineBytes(n int) int { return 24*n + 130 }
