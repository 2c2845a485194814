package export

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Column describes one column of a table, as the data dictionary does.
type Column struct {
	Name     string `json:"name"`
	Type     string `json:"type"` // int8, int64, string, bool, list<int8>, list<bool>, list<float>
	Nullable bool   `json:"nullable"`
	// ElementsNullable says that a list's elements may be null.
	ElementsNullable bool   `json:"elements_nullable,omitempty"`
	Description      string `json:"description"`
}

// ForeignKey says that columns of a table hold keys of another table.
type ForeignKey struct {
	Columns    []string `json:"columns"`
	References string   `json:"references"` // the table
	RefColumns []string `json:"ref_columns"`
}

// Table is the schema of one table: its columns in file order and its keys.
type Table struct {
	Name        string       `json:"name"`
	PrimaryKey  []string     `json:"primary_key"`
	ForeignKeys []ForeignKey `json:"foreign_keys"`
	Columns     []Column     `json:"columns"`
}

// A shape is what decides a dataset's columns: its game, and whether it
// holds every reachable position or a chosen set of them. Past
// game.MaxIDCells cells a board has no state id: the board's text keys it
// (states.board, moves.board and moves.child_board), and canonical_board
// takes canonical_id's place. A chosen set's moves lead to positions mostly
// not in it (child_id is no foreign key there), and its paths are null
// where they were not counted.
type shape struct {
	game   rules.Spec
	chosen bool
	// valueOnly: the positions' values and depths alone, not their
	// moves' (Chosen.ValueOnly); the states table has no column of those.
	valueOnly bool
	// noDepths: values without depths (Chosen.NoDepths); the tables have
	// no column of depths.
	noDepths bool
	// played: the positions were chosen one by one (a sample, a file, up
	// to a ply), so a history may be known of each: the states table has
	// a history column. A database's every position has none.
	played bool
}

// key is the column that keys a position.
func (sh shape) key() string {
	if sh.game.HasIDs() {
		return "state_id"
	}
	return "board"
}

// stateCols is the states table of a dataset of shape sh, in file order.
func stateCols(sh shape) []col[State] {
	s := sh.game
	var cols []col[State]
	if s.HasIDs() {
		cols = append(cols, num64("state_id", int64Kind, "delta",
			"the board as a base-3 number: sum of cell_i * 3^i with empty 0, X 1, O 2; the key that joins the tables", func(r *State) int64 { return r.StateID }))
	}
	cols = append(cols, text("board", "plain", "the board, rows split by /: X, O and . for empty, row-major from the top left"+boardKey(s), func(r *State) []byte { return r.Board }))
	cols = append(cols, cellCols(s)...)
	cols = append(cols, valueCols(sh)...)
	cols = append(cols, classCols(sh)...)
	cols = append(cols, learningCols(s)...)
	if sh.valueOnly {
		cols = slices.DeleteFunc(cols, func(c col[State]) bool { return slices.Contains(ofMoveValues, c.name) })
	}
	if sh.noDepths {
		cols = slices.DeleteFunc(cols, func(c col[State]) bool { return c.name == "depth" })
	}
	return cols
}

// ofMoveValues are the columns of the states table that the values of a
// position's moves make, which a dataset of values alone lacks.
var ofMoveValues = []string{"best_moves", "n_winning", "n_drawing", "n_losing", "move_values", "policy"}

// boardKey says, past state ids, that the board keys the tables.
func boardKey(s rules.Spec) string {
	if s.HasIDs() {
		return ""
	}
	return "; the key that joins the tables (past 40 cells a board has no state_id)"
}

// statusWords are the statuses as the status column writes them.
var statusWords = func() (out []string) {
	for _, st := range game.Statuses {
		out = append(out, st.String())
	}
	return out
}()

// valueCols are the columns of a position's status and perfect play in a
// dataset of shape sh.
func valueCols(sh shape) []col[State] {
	s := sh.game
	best, by := "the cells of every best move", "best value for the side to move, then best depth"
	if sh.noDepths {
		by = "best value for the side to move, however fast it wins (depths were not asked)"
	}
	if s.Gravity {
		best = "the actions of every best move: columns from 0, as OpenSpiel, PettingZoo and Kaggle ConnectX number them (the moves table has each one's cell)"
	}
	return []col[State]{
		num8("ply", "dict", "marks on the board", func(r *State) int8 { return r.Ply }),
		word("to_move", nullStringKind, "dict", "X or O; null when the game is over", func(r *State) string { return r.ToMove }, "X", "O"),
		word("status", stringKind, "dict", "x_won, o_won (that side has k in a row), draw (full board, no line) or in_progress", func(r *State) string { return r.Status }, statusWords...),
		num8("value", "dict", "the result with perfect play, for X: 1 X wins, 0 draw, -1 O wins", func(r *State) int8 { return r.Value }),
		word("outcome", stringKind, "dict", "value in words: X wins, draw, O wins", func(r *State) string { return r.Outcome }, "X wins", "draw", "O wins"),
		num8("depth", "dict",
			"plies to the end with perfect play, the winner fastest and the loser slowest; a draw's is its empty cells", func(r *State) int8 { return r.Depth }),
		// Its elements are actions: a dictionary stores each in a few bits.
		list8("best_moves", listKind, "dict",
			best+": "+by+"; empty when over", func(r *State) []int8 { return r.BestMoves }),
		num8("n_moves", "dict", "legal moves; 0 when the game is over", func(r *State) int8 { return r.NMoves }),
		num8("n_winning", "dict", "legal moves that win for the side to move", func(r *State) int8 { return r.NWinning }),
		num8("n_drawing", "dict", "legal moves that draw", func(r *State) int8 { return r.NDrawing }),
		num8("n_losing", "dict", "legal moves that lose for the side to move", func(r *State) int8 { return r.NLosing }),
	}
}

// classCols are the columns of a position's class under the rules'
// symmetries and the paths that reach it.
func classCols(sh shape) []col[State] {
	canon := num64("canonical_id", int64Kind, "",
		"the smallest state_id over the symmetries the rules keep; equal for positions equal up to symmetry", func(r *State) int64 { return r.CanonicalID })
	if !sh.game.HasIDs() {
		canon = text("canonical_board", "plain",
			"the least image of the board under the symmetries the rules keep (X marks, then O marks, as binary numbers, cell 0 the lowest bit); equal for positions equal up to symmetry", func(r *State) []byte { return r.CanonicalBoard })
	}
	paths := num64("paths", int64Kind, "delta", "move sequences from the empty board that reach this position", func(r *State) int64 { return r.Paths })
	if sh.chosen {
		paths = num64("paths", nullInt64Kind, "",
			"move sequences from the empty board that reach this position; null where not counted (counted for --max-ply)", func(r *State) int64 { return r.Paths })
	}
	cols := []col[State]{canon,
		num8("orbit_size", "dict", "how many distinct boards those symmetries make of this one", func(r *State) int8 { return r.OrbitSize }),
		paths,
		flag("is_terminal", "", "the game is over", func(r *State) bool { return r.IsTerminal }),
	}
	if sh.chosen {
		cols = append(cols, word("answered_by", stringKind, "dict",
			"the engine that gave this position's value: book (an opening book), search (one position searched; past a book's last ply, the book hands it to search), memory (the whole game solved in memory) or db (a solved game's database)",
			func(r *State) string { return r.AnsweredBy }, string(perfect.Book), string(perfect.Search), string(perfect.Memory), string(perfect.DB)))
	}
	if sh.played {
		cols = append(cols, list8("history", optListKind, "dict",
			"the moves from the empty board that led to this position, in order, as actions ("+actionWords(sh.game)+"), as OpenSpiel's state.history() holds them and env.step takes them: the game of the sample that drew it, or the file's move sequence; null where not known (a board given as such, --max-ply)",
			func(r *State) []int8 { return r.History }))
	}
	return cols
}

// actionWords says what an action of a game of s is.
func actionWords(s rules.Spec) string {
	if s.Gravity {
		return "columns from 0 at the left"
	}
	return "cells, row-major from 0"
}

// learningCols are the columns for learning: arrays of a cell each.
func learningCols(s rules.Spec) []col[State] {
	split := "train, validation (canonical_id % 10 = 0) or test (canonical_id % 10 = 1): symmetric positions share a split"
	if !s.HasIDs() {
		split = "train, validation (the FNV-1a 64-bit hash of canonical_board % 10 = 0) or test (= 1): symmetric positions share a split"
	}
	// An entry an action, as RL libraries number them (rules.Spec.Actions).
	each, unit, best := "for each cell", "cell", "each best move"
	if s.Gravity {
		each, unit, best = "for each column from 0 (the action, as OpenSpiel, PettingZoo and Kaggle ConnectX number Connect Four's)", "column", "each best move's column"
	}
	return []col[State]{
		list8("cells", listKind, "dict", "the cell columns as one array, cell_0 first", func(r *State) []int8 { return r.Cells }),
		list8("mover_cells", listKind, "dict",
			"the cells from the mover's side: 1 the mover's mark, -1 the other side's, 0 empty; the mover is to_move, or when the game is over the side whose turn it would be", func(r *State) []int8 { return r.MoverCells }),
		num8("mover_value", "dict", "value for the mover: 1 wins, 0 draw, -1 loses", func(r *State) int8 { return r.MoverValue }),
		list8("move_values", nullListKind, "dict",
			each+", the mover's value after playing there (1, 0, -1); null where the "+unit+" is no legal move", func(r *State) []int8 { return r.MoveValues }),
		bools("legal", "", each+", whether playing there is a legal move; n_moves of them are true", func(r *State) []bool { return r.Legal }),
		floats("policy", "dict",
			each+", 1/len(best_moves) on "+best+" and 0 elsewhere: perfect play as a distribution; all 0 when the game is over", func(r *State) []float32 { return r.Policy }),
		word("split", stringKind, "dict", split, func(r *State) string { return r.Split }, "train", "validation", "test"),
	}
}

// cellCols are the cell_i columns, one a cell, each an element of Cells.
// Their CSV fields are written by the first in one run, from cellsCSV, the
// fields the cell table made for the row.
func cellCols(s rules.Spec) []col[State] {
	cols := make([]col[State], s.Cells())
	for i := range cols {
		cols[i] = col[State]{name: fmt.Sprintf("cell_%d", i), kind: cellKind, encoding: "dict", inRun: i > 0,
			description: fmt.Sprintf("cell %d (row %d, column %d): 1 X, -1 O, 0 empty", i, i/s.Cols, i%s.Cols),
			csvRun:      func(r *State) []byte { return r.cellsCSV }}
	}
	return cols
}

// moveCols is the moves table of a dataset of shape sh, in file order;
// column is one of it only under gravity.
func moveCols(sh shape) []col[Move] {
	s := sh.game
	from := num64("state_id", int64Kind, "delta", "the position moved from", func(m *Move) int64 { return m.StateID })
	from.repeats = true
	child := num64("child_id", int64Kind, "delta", "the position the move makes", func(m *Move) int64 { return m.ChildID })
	if !s.HasIDs() {
		from = text("board", "plain", "the position moved from", func(m *Move) []byte { return m.Board })
		child = text("child_board", "plain", "the position the move makes", func(m *Move) []byte { return m.ChildBoard })
	}
	cols := []col[Move]{from, num8("move", "dict", "the cell the mark lands on", func(m *Move) int8 { return m.Move })}
	if s.Gravity {
		cols[1].description = "the action: the column of the move, 0 at the left, as best_moves and the arrays of the states table number it"
		cols = append(cols, num8("cell", "dict", "the cell the mark lands on", func(m *Move) int8 { return m.Cell }))
	}
	cols = append(cols, child,
		num8("child_value", "dict", "that position's value", func(m *Move) int8 { return m.ChildValue }),
		num8("child_depth", "dict", "that position's depth: plies left after the move", func(m *Move) int8 { return m.ChildDepth }),
		flag("is_best", "", "the move is one of the position's best_moves", func(m *Move) bool { return m.IsBest }),
	)
	if sh.noDepths {
		cols = slices.DeleteFunc(cols, func(c col[Move]) bool { return c.name == "child_depth" })
	}
	return cols
}

// tableJSON gives the schema of the named table as JSON, for the Parquet
// key/value metadata.
func tableJSON(sh shape, name string) string {
	for _, t := range sh.tables() {
		if t.Name == name {
			b, _ := json.Marshal(t)
			return string(b)
		}
	}
	return ""
}
