// Package export owns the dataset: the states and moves tables of a solved
// game as Parquet and CSV files, byte-identical from run to run, with a
// manifest of row counts, SHA-256 sums and the tables' schema. One table of
// columns a table (schema.go) drives the manifest, the Parquet writer and the
// CSV writer. A dataset is written as a unit through internal/atomicfile: a
// new generation in a staging folder, swapped in whole.
package export

import (
	"hash/fnv"
	"slices"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

// State is one row of the states table: one reachable position.
type State struct {
	StateID     int64
	Board       []byte // the board's text, as game.Format writes it
	Cells       []int8 // 1 X, -1 O, 0 empty, row-major
	cellsCSV    []byte // Cells as CSV fields, each after a comma
	Ply         int8
	ToMove      string // "X" or "O"; "" (null) when the game is over
	Status      string
	Value       int8
	Outcome     string
	Depth       int8
	BestMoves   []int8 // actions (rules.Spec.Action): columns from 0 under gravity, else cells
	NMoves      int8
	NWinning    int8
	NDrawing    int8
	NLosing     int8
	CanonicalID int64
	// CanonicalBoard, past state ids (more than game.MaxIDCells cells),
	// is game.Least's board under the rules' symmetries, in text; nil
	// otherwise.
	CanonicalBoard []byte
	OrbitSize      int8
	Paths          int64 // -1: not counted
	IsTerminal     bool
	AnsweredBy     string // the engine that gave the value, in a chosen set
	// History, in a chosen set, is the actions played from the empty board
	// to the position (rules.Spec.Action), nil where they are not known.
	History []int8

	// The columns for learning: arrays of one entry a cell, from the
	// mover's point of view (see mover).
	MoverCells []int8    // 1 the mover's mark, -1 the other side's, 0 empty
	MoverValue int8      // Value for the mover
	MoveValues []int8    // the mover's value after a move on each cell; nullElem where illegal
	Legal      []bool    // the cell is a legal move
	Policy     []float32 // 1/len(BestMoves) on each best move, 0 elsewhere
	Split      string    // train, validation or test, by SplitOf(CanonicalID)
}

// Move is one row of the moves table: one legal move of one position. The
// move is an action, as every list of moves in a dataset is
// (rules.Spec.Action): the column from 0 under gravity, else the cell;
// Cell, the cell the mark lands on, is a column of the table only under
// gravity, where it differs.
//
// A Move is also a record (records.go): the typed Parquet writer reads it
// as it is.
type Move struct {
	StateID    int64  `col:"state_id"`
	Board      []byte `col:"board"` // the position's text, past state ids
	Move       int8   `col:"move"`
	Cell       int8   `col:"cell"`
	ChildID    int64  `col:"child_id"`
	ChildBoard []byte `col:"child_board"` // the child's text, past state ids
	ChildValue int8   `col:"child_value"`
	ChildDepth int8   `col:"child_depth"`
	IsBest     bool   `col:"is_best"`
}

// facts fills the columns of dst that say what position b is: its ply,
// the side to move, its status, its value and depth for X, whether the
// game is over.
func (dst *State) facts(b game.Board, st game.Status, value perfect.Value, depth perfect.Depth) {
	dst.Ply = int8(b.Ply())
	dst.ToMove = ""
	if !st.Terminal() {
		dst.ToMove = b.ToMove().String()
	}
	dst.Status = st.String()
	dst.Value, dst.Outcome, dst.Depth = int8(value), value.String(), int8(depth)
	dst.IsTerminal = st.Terminal()
}

// play fills the columns of dst that perfect play decides from the legal
// moves ms of b, a position of a game of s, each with its child's value
// and whether it is best, and dst.CanonicalID or dst.CanonicalBoard,
// whichever the board has: the best moves and their policy, the counts of
// moves by result, and the columns for learning, whose arrays have an
// entry an action (rules.Spec.Actions: a column under gravity, else a
// cell).
func (dst *State) play(s rules.Spec, b game.Board, ms []perfect.Move) {
	// The mover is the side to move, or where the game is over the side
	// whose turn it would be: game.Board.ToMove does not look at the status.
	mover := b.ToMove()
	sign := int8(perfect.XWins.For(mover))
	dst.BestMoves = dst.BestMoves[:0]
	dst.NWinning, dst.NDrawing, dst.NLosing = 0, 0, 0
	n := s.Actions()
	dst.MoveValues = fill(dst.MoveValues, n, nullElem)
	dst.Legal = fill(dst.Legal, n, false)
	for _, m := range ms {
		v := int8(m.Value.For(mover))
		switch v {
		case 1:
			dst.NWinning++
		case 0:
			dst.NDrawing++
		default:
			dst.NLosing++
		}
		dst.MoveValues[s.Action(m.Cell)] = v
		dst.Legal[s.Action(m.Cell)] = true
		if m.Best {
			dst.BestMoves = append(dst.BestMoves, int8(s.Action(m.Cell)))
		}
	}
	slices.Sort(dst.BestMoves) // actions in order: under gravity, cells are not
	dst.NMoves = dst.NWinning + dst.NDrawing + dst.NLosing
	dst.MoverValue = sign * dst.Value
	dst.MoverCells = dst.MoverCells[:0]
	for _, c := range dst.Cells {
		dst.MoverCells = append(dst.MoverCells, sign*c)
	}
	dst.Policy = fill(dst.Policy, n, 0)
	for _, a := range dst.BestMoves {
		dst.Policy[a] = 1 / float32(len(dst.BestMoves))
	}
	dst.Split = SplitOf(dst.CanonicalID)
	if dst.CanonicalBoard != nil {
		h := fnv.New64a()
		h.Write(dst.CanonicalBoard)
		dst.Split = SplitOf(int64(h.Sum64() % 10))
	}
}

// fill gives s with n entries, each v, reusing s's array.
func fill[E any](s []E, n int, v E) []E {
	s = slices.Grow(s[:0], n)[:n]
	for j := range s {
		s[j] = v
	}
	return s
}

// SplitOf gives the split a position of canonical id c belongs to:
// validation when c % 10 is 0, test when it is 1, train otherwise. The rule
// is on the canonical id so that positions equal up to symmetry fall in one
// split, and it is plain integer arithmetic so that every reader repeats it.
func SplitOf(c int64) string {
	switch c % 10 {
	case 0:
		return "validation"
	case 1:
		return "test"
	}
	return "train"
}
