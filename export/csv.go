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

const moveHeader = "state_id,move,child_id,child_value,child_depth,is_best\n"

func appendState(b []byte, s *State) []byte {
	b = strconv.AppendInt(b, s.StateID, 10)
	b = append(b, ',')
	b = append(b, s.Board...)
	for _, c := range s.Cells {
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(c), 10)
	}
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(s.Ply), 10)
	b = append(b, ',')
	b = append(b, s.ToMove...)
	b = append(b, ',')
	b = append(b, s.Status...)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(s.Value), 10)
	b = append(b, ',')
	b = append(b, s.Outcome...)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(s.Depth), 10)
	b = append(b, `,"[`...)
	for j, m := range s.BestMoves {
		if j > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(m), 10)
	}
	b = append(b, `]"`...)
	for _, v := range []int8{s.NMoves, s.NWinning, s.NDrawing, s.NLosing} {
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(v), 10)
	}
	b = append(b, ',')
	b = strconv.AppendInt(b, s.CanonicalID, 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(s.OrbitSize), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, s.Paths, 10)
	b = append(b, ',')
	b = strconv.AppendBool(b, s.IsTerminal)
	return append(b, '\n')
}

func appendMove(b []byte, m *Move) []byte {
	b = strconv.AppendInt(b, m.StateID, 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(m.Move), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, m.ChildID, 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(m.ChildValue), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(m.ChildDepth), 10)
	b = append(b, ',')
	b = strconv.AppendBool(b, m.IsBest)
	return append(b, '\n')
}
