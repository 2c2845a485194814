package export

import (
	"fmt"
	"math/bits"
	"slices"
	"strconv"
)

// The CSV files have a header; a list is written as "[0,2,4]" (quoted, for its
// commas), a null as an empty field, a boolean as true or false.

func stateHeader(cells int) []byte {
	h := []byte("state_id,board")
	for i := range cells {
		h = fmt.Appendf(h, ",cell_%d", i)
	}
	return append(h, ",ply,to_move,status,value,outcome,depth,best_moves,n_moves,n_winning,n_drawing,n_losing,canonical_id,orbit_size,paths,is_terminal\n"...)
}

// moveHeader names the moves columns; column is one only under gravity.
func moveHeader(gravity bool) []byte {
	if gravity {
		return []byte("state_id,move,column,child_id,child_value,child_depth,is_best\n")
	}
	return []byte("state_id,move,child_id,child_value,child_depth,is_best\n")
}

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
// but writes the digits in place, two at a time: the CSV files hold about a
// hundred million ids on 4x4, and strconv's copy from a scratch buffer was a
// quarter of the export.
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

func appendState(b []byte, s *State) []byte {
	b = appendInt(b, s.StateID)
	b = append(append(b, ','), s.Board...)
	b = append(b, s.cellsCSV...)
	b = appendInts(b, int64(s.Ply))
	b = append(append(b, ','), s.ToMove...)
	b = append(append(b, ','), s.Status...)
	b = appendInts(b, int64(s.Value))
	b = append(append(b, ','), s.Outcome...)
	b = appendInts(b, int64(s.Depth))
	b = append(b, `,"[`...)
	for j, m := range s.BestMoves {
		if j > 0 {
			b = append(b, ',')
		}
		b = appendInt(b, int64(m))
	}
	b = append(b, `]"`...)
	b = appendInts(b, int64(s.NMoves), int64(s.NWinning), int64(s.NDrawing), int64(s.NLosing),
		s.CanonicalID, int64(s.OrbitSize), s.Paths)
	return append(strconv.AppendBool(append(b, ','), s.IsTerminal), '\n')
}

// moveLines writes lines of moves.csv. A state's moves are written one
// after another, so it keeps the text of the last state id for the next.
type moveLines struct {
	gravity bool
	id      int64
	idText  []byte
}

func (w *moveLines) append(b []byte, m *Move) []byte {
	if w.idText == nil || m.StateID != w.id {
		w.id, w.idText = m.StateID, appendInt(w.idText[:0], m.StateID)
	}
	b = append(b, w.idText...)
	b = appendInts(b, int64(m.Move))
	if w.gravity {
		b = appendInts(b, int64(m.Column))
	}
	b = appendInts(b, m.ChildID, int64(m.ChildValue), int64(m.ChildDepth))
	return append(strconv.AppendBool(append(b, ','), m.IsBest), '\n')
}

// csvLineBytes bounds the length of most lines of states.csv on a board of
// n cells, to size a chunk's buffer once: two bytes a cell for the board,
// up to three for each cell column, and about 110 for the rest.
func csvLineBytes(n int) int { return 5*n + 110 }
