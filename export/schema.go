package export

import (
	"encoding/json"
	"fmt"

	"github.com/tateti-lab/tateti-lab/rules"
)

// Column describes one column of a table, as the data dictionary does.
type Column struct {
	Name        string `json:"name"`
	Type        string `json:"type"` // int8, int64, string, bool, list<int8>
	Nullable    bool   `json:"nullable"`
	Description string `json:"description"`
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

// Schema gives the states and moves tables of a game of s.
func Schema(s rules.Spec) []Table {
	states := Table{Name: "states", PrimaryKey: []string{"state_id"}, ForeignKeys: []ForeignKey{},
		Columns: []Column{
			{"state_id", "int64", false, "the board as a base-3 number: sum of cell_i * 3^i with empty 0, X 1, O 2; the key that joins the tables"},
			{"board", "string", false, "the board, rows split by /: X, O and . for empty, row-major from the top left"},
		}}
	for i := range s.Cells() {
		states.Columns = append(states.Columns, Column{fmt.Sprintf("cell_%d", i), "int8", false,
			fmt.Sprintf("cell %d (row %d, column %d): 1 X, -1 O, 0 empty", i, i/s.Cols, i%s.Cols)})
	}
	states.Columns = append(states.Columns, []Column{
		{"ply", "int8", false, "marks on the board"},
		{"to_move", "string", true, "X or O; null when the game is over"},
		{"status", "string", false, "x_won, o_won (that side has k in a row), draw (full board, no line) or in_progress"},
		{"value", "int8", false, "the result with perfect play, for X: 1 X wins, 0 draw, -1 O wins"},
		{"outcome", "string", false, "value in words: X wins, draw, O wins"},
		{"depth", "int8", false, "plies to the end with perfect play, the winner fastest and the loser slowest; a draw's is its empty cells"},
		{"best_moves", "list<int8>", false, "the cells of every best move: best value for the side to move, then best depth; empty when over"},
		{"n_moves", "int8", false, "legal moves; 0 when the game is over"},
		{"n_winning", "int8", false, "legal moves that win for the side to move"},
		{"n_drawing", "int8", false, "legal moves that draw"},
		{"n_losing", "int8", false, "legal moves that lose for the side to move"},
		{"canonical_id", "int64", false, "the smallest state_id over the symmetries the rules keep; equal for positions equal up to symmetry"},
		{"orbit_size", "int8", false, "how many distinct boards those symmetries make of this one"},
		{"paths", "int64", false, "move sequences from the empty board that reach this position"},
		{"is_terminal", "bool", false, "the game is over"},
	}...)
	moves := Table{Name: "moves", PrimaryKey: []string{"state_id", "move"},
		ForeignKeys: []ForeignKey{
			{Columns: []string{"state_id"}, References: "states", RefColumns: []string{"state_id"}},
			{Columns: []string{"child_id"}, References: "states", RefColumns: []string{"state_id"}},
		},
		Columns: []Column{
			{"state_id", "int64", false, "the position moved from"},
			{"move", "int8", false, "the cell the mark lands on"},
		}}
	if s.Gravity {
		moves.Columns = append(moves.Columns, Column{"column", "int8", false, "the column of the move, 0 at the left"})
	}
	moves.Columns = append(moves.Columns, []Column{
		{"child_id", "int64", false, "the position the move makes"},
		{"child_value", "int8", false, "that position's value"},
		{"child_depth", "int8", false, "that position's depth: plies left after the move"},
		{"is_best", "bool", false, "the move is one of the position's best_moves"},
	}...)
	return []Table{states, moves}
}

// tableJSON gives the schema of the named table as JSON, for the Parquet
// key/value metadata.
func tableJSON(s rules.Spec, name string) string {
	for _, t := range Schema(s) {
		if t.Name == name {
			b, _ := json.Marshal(t)
			return string(b)
		}
	}
	return ""
}
