// Package export owns the dataset: the states and moves tables of a solved
// game as Parquet and CSV files, byte-identical from run to run, with a
// manifest of row counts, SHA-256 sums and the tables' schema. One table of
// columns a table (schema.go) drives the manifest, the Parquet writer and the
// CSV writer. A dataset is written as a unit through internal/atomicfile: a
// new generation in a staging folder, swapped in whole.
package export

import (
	"math/bits"
	"slices"

	"github.com/tateti-lab/tateti-lab/game"

	"github.com/tateti-lab/tateti-lab/solve"
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
	BestMoves   []int8
	NMoves      int8
	NWinning    int8
	NDrawing    int8
	NLosing     int8
	CanonicalID int64
	OrbitSize   int8
	Paths       int64
	IsTerminal  bool

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
// move is the cell the mark lands on; Column, its column, is a column of the
// table only under gravity.
type Move struct {
	StateID    int64
	Move       int8
	Column     int8
	ChildID    int64
	ChildValue int8
	ChildDepth int8
	IsBest     bool
}

// stateMaker makes the rows of the states table of one solved game, with
// scratch space of its own: one to a goroutine.
type stateMaker struct {
	r     *solve.Result
	cells *cellTable
	buf   []solve.Move
}

func newStateMaker(r *solve.Result) *stateMaker {
	return &stateMaker{r: r, cells: newCellTable(r.Enum.Rules.Spec().Spec)}
}

// state fills dst with position i, reusing dst's slices.
func (sm *stateMaker) state(i int, dst *State) {
	r, e := sm.r, sm.r.Enum
	b := e.Board(i)
	st := e.Status[i]
	dst.StateID = int64(e.IDs[i])
	sm.cells.fill(b, dst)
	dst.Ply = int8(b.Ply())
	dst.ToMove = ""
	if !st.Terminal() {
		dst.ToMove = b.ToMove().String()
	}
	dst.Status = st.String()
	dst.Value = r.Value[i]
	dst.Outcome = solve.Outcome(r.Value[i])
	dst.Depth = r.Depth[i]
	dst.BestMoves = dst.BestMoves[:0]
	for m := uint64(r.Best[i]); m != 0; m &= m - 1 {
		dst.BestMoves = append(dst.BestMoves, int8(bits.TrailingZeros64(m)))
	}
	dst.NWinning, dst.NDrawing, dst.NLosing = int8(r.Win[i]), int8(r.Draw[i]), int8(r.Lose[i])
	dst.NMoves = dst.NWinning + dst.NDrawing + dst.NLosing
	dst.CanonicalID = int64(e.Canon[i])
	dst.OrbitSize = int8(e.Orbit[i])
	dst.Paths = e.Paths[i]
	dst.IsTerminal = st.Terminal()
	sm.learning(i, b, dst)
}

// learning fills the columns for learning of position i, whose board is b.
func (sm *stateMaker) learning(i int, b game.Board, dst *State) {
	n := len(dst.Cells)
	// The mover is the side to move, or where the game is over the side
	// whose turn it would be: game.Board.ToMove does not look at the status.
	sign := solve.Sign(b.ToMove())
	dst.MoverValue = sign * dst.Value
	dst.MoverCells = dst.MoverCells[:0]
	for _, c := range dst.Cells {
		dst.MoverCells = append(dst.MoverCells, sign*c)
	}
	dst.MoveValues = fill(dst.MoveValues, n, nullElem)
	dst.Legal = fill(dst.Legal, n, false)
	dst.Policy = fill(dst.Policy, n, 0)
	sm.buf = sm.r.AppendMoves(sm.buf[:0], i)
	for _, m := range sm.buf {
		dst.MoveValues[m.Cell] = sign * m.Value
		dst.Legal[m.Cell] = true
	}
	for _, c := range dst.BestMoves {
		dst.Policy[c] = 1 / float32(len(dst.BestMoves))
	}
	dst.Split = SplitOf(dst.CanonicalID)
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

// moveMaker makes the rows of the moves table of one solved game, with
// scratch space of its own: one to a goroutine.
type moveMaker struct {
	r   *solve.Result
	buf []solve.Move
}

// moves appends the moves of position i to dst, in cell order.
func (mm *moveMaker) moves(i int, dst []Move) []Move {
	id := int64(mm.r.Enum.IDs[i])
	mm.buf = mm.r.AppendMoves(mm.buf[:0], i)
	for _, m := range mm.buf {
		dst = append(dst, Move{StateID: id, Move: int8(m.Cell), Column: int8(m.Col), ChildID: int64(m.Child),
			ChildValue: m.Value, ChildDepth: m.Depth, IsBest: m.Best})
	}
	return dst
}
