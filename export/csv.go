package export

import (
	"fmt"
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

// appendInts appends each value after a comma. One-digit values, most of
// the table (cells, values, counts), skip strconv.
func appendInts(b []byte, vs ...int64) []byte {
	for _, v := range vs {
		switch {
		case v >= 0 && v <= 9:
			b = append(b, ',', byte('0'+v))
		case v < 0 && v >= -9:
			b = append(b, ',', '-', byte('0'-v))
		default:
			b = strconv.AppendInt(append(b, ','), v, 10)
		}
	}
	return b
}

func appendState(b []byte, s *State) []byte {
	b = strconv.AppendInt(b, s.StateID, 10)
	b = append(append(b, ','), s.Board...)
	for _, c := range s.Cells {
		b = appendInts(b, int64(c))
	}
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
		b = strconv.AppendInt(b, int64(m), 10)
	}
	b = append(b, `]"`...)
	b = appendInts(b, int64(s.NMoves), int64(s.NWinning), int64(s.NDrawing), int64(s.NLosing),
		s.CanonicalID, int64(s.OrbitSize), s.Paths)
	return append(strconv.AppendBool(append(b, ','), s.IsTerminal), '\n')
}

func appendMove(b []byte, m *Move, gravity bool) []byte {
	b = strconv.AppendInt(b, m.StateID, 10)
	b = appendInts(b, int64(m.Move))
	if gravity {
		b = appendInts(b, int64(m.Column))
	}
	b = appendInts(b, m.ChildID, int64(m.ChildValue), int64(m.ChildDepth))
	return append(strconv.AppendBool(append(b, ','), m.IsBest), '\n')
}

// csvLineBytes bounds the length of most lines of states.csv on a board of
// n cells, to size a chunk's buffer once: two bytes a cell for the board,
// up to three for each cell column, and about 110 for the rest.
func csvLineBytes(n int) int { return 5*n + 110 }
