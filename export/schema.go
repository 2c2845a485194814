package export

import (
	"encoding/json"
	"fmt"

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
}

// key is the column that keys a position.
func (sh shape) key() string {
	if sh.game.HasIDs() {
		return "state_id"
	}
	return "board"
}

// stateCols is the states table of a dataset of shape sh, in file order.
func stateCols(sh shape) []col {
	s := sh.game
	var cols []col
	if s.HasIDs() {
		cols = append(cols, newCol[State]("state_id", int64Kind, "delta", "StateID",
			"the board as a base-3 number: sum of cell_i * 3^i with empty 0, X 1, O 2; the key that joins the tables"))
	}
	cols = append(cols, newCol[State]("board", bytesKind, "plain", "Board", "the board, rows split by /: X, O and . for empty, row-major from the top left"+boardKey(s)))
	cols = append(cols, cellCols(s)...)
	cols = append(cols, valueCols()...)
	cols = append(cols, classCols(sh)...)
	return append(cols, learningCols(s)...)
}

// boardKey says, past state ids, that the board keys the tables.
func boardKey(s rules.Spec) string {
	if s.HasIDs() {
		return ""
	}
	return "; the key that joins the tables (past 40 cells a board has no state_id)"
}

// valueCols are the columns of a position's status and perfect play.
func valueCols() []col {
	return []col{
		newCol[State]("ply", int8Kind, "dict", "Ply", "marks on the board"),
		newCol[State]("to_move", nullStringKind, "dict", "ToMove", "X or O; null when the game is over"),
		newCol[State]("status", stringKind, "dict", "Status", "x_won, o_won (that side has k in a row), draw (full board, no line) or in_progress"),
		newCol[State]("value", int8Kind, "dict", "Value", "the result with perfect play, for X: 1 X wins, 0 draw, -1 O wins"),
		newCol[State]("outcome", stringKind, "dict", "Outcome", "value in words: X wins, draw, O wins"),
		newCol[State]("depth", int8Kind, "dict", "Depth",
			"plies to the end with perfect play, the winner fastest and the loser slowest; a draw's is its empty cells"),
		// Its elements are cells: a dictionary stores each in a few bits.
		newCol[State]("best_moves", listKind, "dict", "BestMoves",
			"the cells of every best move: best value for the side to move, then best depth; empty when over"),
		newCol[State]("n_moves", int8Kind, "dict", "NMoves", "legal moves; 0 when the game is over"),
		newCol[State]("n_winning", int8Kind, "dict", "NWinning", "legal moves that win for the side to move"),
		newCol[State]("n_drawing", int8Kind, "dict", "NDrawing", "legal moves that draw"),
		newCol[State]("n_losing", int8Kind, "dict", "NLosing", "legal moves that lose for the side to move"),
	}
}

// classCols are the columns of a position's class under the rules'
// symmetries and the paths that reach it.
func classCols(sh shape) []col {
	canon := newCol[State]("canonical_id", int64Kind, "", "CanonicalID",
		"the smallest state_id over the symmetries the rules keep; equal for positions equal up to symmetry")
	if !sh.game.HasIDs() {
		canon = newCol[State]("canonical_board", bytesKind, "plain", "CanonicalBoard",
			"the least image of the board under the symmetries the rules keep (X marks, then O marks, as binary numbers, cell 0 the lowest bit); equal for positions equal up to symmetry")
	}
	paths := newCol[State]("paths", int64Kind, "delta", "Paths", "move sequences from the empty board that reach this position")
	if sh.chosen {
		paths = newCol[State]("paths", nullInt64Kind, "", "Paths",
			"move sequences from the empty board that reach this position; null where not counted (counted for --max-ply)")
	}
	return []col{canon,
		newCol[State]("orbit_size", int8Kind, "dict", "OrbitSize", "how many distinct boards those symmetries make of this one"),
		paths,
		newCol[State]("is_terminal", boolKind, "", "IsTerminal", "the game is over"),
	}
}

// learningCols are the columns for learning: arrays of a cell each.
func learningCols(s rules.Spec) []col {
	split := "train, validation (canonical_id % 10 = 0) or test (canonical_id % 10 = 1): symmetric positions share a split"
	if !s.HasIDs() {
		split = "train, validation (the FNV-1a 64-bit hash of canonical_board % 10 = 0) or test (= 1): symmetric positions share a split"
	}
	return []col{
		newCol[State]("cells", listKind, "dict", "Cells", "the cell columns as one array, cell_0 first"),
		newCol[State]("mover_cells", listKind, "dict", "MoverCells",
			"the cells from the mover's side: 1 the mover's mark, -1 the other side's, 0 empty; the mover is to_move, or when the game is over the side whose turn it would be"),
		newCol[State]("mover_value", int8Kind, "dict", "MoverValue", "value for the mover: 1 wins, 0 draw, -1 loses"),
		newCol[State]("move_values", nullListKind, "dict", "MoveValues",
			"for each cell, the mover's value after playing there (1, 0, -1); null where the cell is no legal move"),
		newCol[State]("legal", boolListKind, "", "Legal", "for each cell, whether playing there is a legal move; n_moves of them are true"),
		newCol[State]("policy", floatListKind, "dict", "Policy",
			"for each cell, 1/len(best_moves) on each best move and 0 elsewhere: perfect play as a distribution; all 0 when the game is over"),
		newCol[State]("split", stringKind, "dict", "Split", split),
	}
}

// cellCols are the cell_i columns, one a cell, each an element of Cells.
// Their CSV fields are written by the first in one run, from cellsCSV, the
// fields the cell table made for the row.
func cellCols(s rules.Spec) []col {
	cols := make([]col, s.Cells())
	run := newCol[State]("", bytesKind, "", "cellsCSV", "").off
	for i := range cols {
		cols[i] = newCol[State](fmt.Sprintf("cell_%d", i), listKind, "dict", "Cells",
			fmt.Sprintf("cell %d (row %d, column %d): 1 X, -1 O, 0 empty", i, i/s.Cols, i%s.Cols))
		cols[i].kind, cols[i].elem, cols[i].inRun = cellKind, i, i > 0
		cols[i].csvRun = run
	}
	return cols
}

// moveCols is the moves table of a dataset of shape sh, in file order;
// column is one of it only under gravity.
func moveCols(sh shape) []col {
	s := sh.game
	from := newCol[Move]("state_id", int64Kind, "delta", "StateID", "the position moved from")
	from.repeats = true
	child := newCol[Move]("child_id", int64Kind, "delta", "ChildID", "the position the move makes")
	if !s.HasIDs() {
		from = newCol[Move]("board", bytesKind, "plain", "Board", "the position moved from")
		child = newCol[Move]("child_board", bytesKind, "plain", "ChildBoard", "the position the move makes")
	}
	cols := []col{from, newCol[Move]("move", int8Kind, "dict", "Move", "the cell the mark lands on")}
	if s.Gravity {
		cols = append(cols, newCol[Move]("column", int8Kind, "dict", "Column", "the column of the move, 0 at the left"))
	}
	return append(cols, child,
		newCol[Move]("child_value", int8Kind, "dict", "ChildValue", "that position's value"),
		newCol[Move]("child_depth", int8Kind, "dict", "ChildDepth", "that position's depth: plies left after the move"),
		newCol[Move]("is_best", boolKind, "", "IsBest", "the move is one of the position's best_moves"),
	)
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
