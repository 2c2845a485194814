package export

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/tateti-lab/tateti-lab/internal/figure"
	"github.com/tateti-lab/tateti-lab/positions"
	"github.com/tateti-lab/tateti-lab/rules"
)

// choiceWords says how the dataset's positions were chosen and who
// answered them.
func choiceWords(m *Manifest) string {
	c := m.Positions
	if c == nil {
		return "Every position that can arise from the empty board by the rules, each once, solved whole in memory by retrograde analysis from the last ply back."
	}
	var out string
	switch c.From {
	case positions.FromDB:
		return "Every position that can arise from the empty board by the rules, each once, read ply by ply from a database of the game solved tier by tier on disk (`tateti-lab db build`)."
	case positions.FromSample:
		out = sampleWords(c)
	case positions.FromFile:
		out = fmt.Sprintf("The positions of the file `%s` (SHA-256 %s), each once.", c.File, c.SHA256)
	case positions.FromMaxPly:
		out = fmt.Sprintf("Every position in progress up to ply %d, each once.", *c.MaxPly)
		if c.Quiet {
			out = fmt.Sprintf("The quiet positions of ply %d (no move of either side makes a line at once), one of each symmetry class, as UCI's Connect-4 data set holds them.", *c.MaxPly)
		}
	}
	if c.OnePerClass || c.Sample != nil && c.Sample.OnePerClass {
		out += " One position of each symmetry class was kept (one_per_class): no row is an image of another."
	}
	by := slices.Sorted(maps.Keys(c.AnsweredBy))
	var parts []string
	for _, e := range by {
		parts = append(parts, fmt.Sprintf("%s by %s", figure.Commas(int64(c.AnsweredBy[e])), e))
	}
	out += fmt.Sprintf(" Each was answered with perfect play by the engine `%s` (%s; the column answered_by says which answered a row).", c.Engine, strings.Join(parts, ", "))
	switch {
	case c.ValueOnly && c.NoDepths:
		out += " Values alone were asked for, without depths (value_only, no_depths): the moves table is empty, and the states table has no depth and no column of the moves' values."
	case c.ValueOnly:
		out += " Values and depths alone were asked for (value_only): the moves table is empty and the states table has no column of the moves' values."
	case c.NoDepths:
		out += " Values were asked for without depths (no_depths): the tables have no depth columns, and best_moves, is_best and policy weigh the moves by value alone, however fast a win."
	}
	if n := len(c.Unsettled); n > 0 {
		out += fmt.Sprintf(" %s positions were not settled within the time limit and are left out; manifest.json names them under unsettled.", figure.Commas(int64(n)))
	}
	return out
}

// sampleWords says how a sample was drawn.
func sampleWords(c *Chosen) string {
	s := c.Sample
	play := "random play (each move uniform among the legal ones)"
	if s.Epsilon != nil && *s.Epsilon < 1 {
		play = fmt.Sprintf("noisy perfect play (epsilon %g: each side plays one of its best moves with probability %g, a random legal move otherwise)", *s.Epsilon, 1-*s.Epsilon)
	}
	kept := "each position in progress where a game stopped is kept once, in the games' order"
	if s.Quiet {
		kept = "each quiet position where a game stopped (no move of either side makes a line at once) is kept, one of each symmetry class, in the games' order"
	}
	return fmt.Sprintf("A sample of %s positions drawn by %s from the empty board, seed %d: each game stops at a ply drawn uniformly from %s, and %s. The distribution is the play's, neither uniform over the positions that exist nor that of human games: a ply that many games do not reach holds fewer rows (the figures below say how many), and a perfect player's position is as likely as its play makes it. The same command and seed give the same rows with any number of workers, and a sample of N is the start of a larger one.",
		figure.Commas(int64(s.N)), play, s.Seed, s.Plies, kept)
}

// soonWords gives the positions that end soon, "not known" without depths.
func soonWords(soon *int64) string {
	if soon == nil {
		return "not known"
	}
	return figure.Commas(*soon)
}

// cardFigures writes the figures by ply, and for a chosen set how many
// rows are images of one another.
func cardFigures(b *strings.Builder, m *Manifest) {
	f := m.Figures
	fmt.Fprintf(b, "## Figures\n\nCounted from the rows as they were written. Values are for X; over: the game has ended; ends within %d: in progress, and perfect play ends it within %d plies, so the position is already decided.\n\n", SoonPlies, SoonPlies)
	b.WriteString("| ply | rows | X wins | draw | O wins | over | ends within 3 |\n|---|---|---|---|---|---|---|\n")
	row := func(ply string, p PlyFigures) {
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s |\n", ply, figure.Commas(p.Rows), figure.Commas(p.XWins), figure.Commas(p.Draws),
			figure.Commas(p.OWins), figure.Commas(p.Over), soonWords(p.Soon))
	}
	for _, p := range f.Plies {
		row(strconv.Itoa(p.Ply), p)
	}
	all := f.All()
	row("all", all)
	b.WriteString("\n")
	if m.Positions == nil || m.Positions.From == positions.FromDB {
		b.WriteString("Every image of a position under the rules' symmetries is a position too, and in the tables: split by the split column, never by row, or images of a test position leak into training.\n\n")
		return
	}
	images := all.Rows - f.Classes
	fmt.Fprintf(b, "The %s rows fall in %s symmetry classes (canonical_id, or canonical_board past 40 cells): %s rows are an image of another row under the rules' symmetries%s. The split column puts every image of a position in the same split.\n\n",
		figure.Commas(all.Rows), figure.Commas(f.Classes), figure.Commas(images), mirrorWords(m.Game))
}

// mirrorWords names the symmetries of a game's rules.
func mirrorWords(s rules.Spec) string {
	if s.Gravity {
		return " (under gravity the left-right mirror alone: these are mirror pairs)"
	}
	return " (rotations and reflections)"
}

// orientation says how the board and the actions of a game of s line up
// with the libraries that play it: OpenSpiel, PettingZoo and Kaggle
// ConnectX for Connect Four, OpenSpiel and PettingZoo for tic-tac-toe.
func orientation(s rules.Spec) string {
	out := fmt.Sprintf("The column board writes the rows from the top, X, O and . for empty; cell i (cell_%d is the last; cells and mover_cells hold them in order) is row i // %d from the top, column i %% %d from the left.", s.Cells()-1, s.Cols, s.Cols)
	if s.Gravity {
		out += " Every move is an action, the column from 0 at the left (best_moves, the moves table's move, and the entries of move_values, legal and policy), as OpenSpiel's connect_four, PettingZoo's connect_four_v3 and Kaggle ConnectX number Connect Four's (theirs is 6 rows by 7 columns; Kaggle's rows, columns and inarow are settings).\n\n" +
			"- PettingZoo connect_four_v3: its observation is rows x columns x 2 with row 0 at the top, as here: cell i is observation[i // cols][i % cols]; plane 0 holds the mover's discs (mover_cells 1), plane 1 the other side's (-1). Its player_0 moves first: X.\n" +
			"- Kaggle ConnectX: obs.board lists the cells row-major from the top left, as here, 0 empty, 1 the first player's disc (X), 2 the second's (O).\n" +
			"- OpenSpiel connect_four counts rows from the bottom: its board cell row * cols + col has row 0 the lowest, so cell i here is its row rows - 1 - i // cols, column i % cols. Its player 0 (x) is X; its observation tensor's planes are the mover's discs, the other side's, then the empty cells."
		return out
	}
	out += " Every move is an action, the cell as numbered here."
	if s.Rows == 3 && s.Cols == 3 {
		out += "\n\n- OpenSpiel tic_tac_toe numbers its cells as here, row-major from the top left; its player 0 (x) is X.\n" +
			"- PettingZoo tictactoe_v3 numbers its squares down the columns (its render draws squares 0, 3 and 6 on the top row): cell r * 3 + c here is its action c * 3 + r. Its player_1 moves first: X."
	}
	return out
}

// loading gives a pandas snippet that reads the dataset's tables: from
// the CSV files with the schema's types (nullable columns as pandas'
// nullable types, lists from their JSON text) where there are CSV files,
// else from the Parquet files, which carry their types.
func loading(m *Manifest) string {
	csv := slices.ContainsFunc(m.Files, func(f File) bool { return f.Format == "csv" })
	parquet := slices.ContainsFunc(m.Files, func(f File) bool { return f.Format == "parquet" })
	code := "import pandas as pd\n\nstates = pd.read_parquet(\"states.parquet\")  # through pyarrow\nmoves = pd.read_parquet(\"moves.parquet\")\n"
	if csv {
		code = `import json
import pandas as pd

schema = {t["name"]: t["columns"] for t in json.load(open("manifest.json"))["tables"]}
types = {"int8": "int8", "int64": "int64", "string": "string", "bool": "bool"}
nullable = {"int8": "Int8", "int64": "Int64", "string": "string", "bool": "boolean"}

def read(table):
    cols = schema[table]
    return pd.read_csv(f"{table}.csv",
                       dtype={c["name"]: (nullable if c["nullable"] else types)[c["type"]] for c in cols if c["type"] in types},
                       converters={c["name"]: json.loads for c in cols if c["type"].startswith("list")})

states, moves = read("states"), read("moves")
`
	}
	out := "## Loading\n\nWith pandas, from this folder"
	if csv {
		out += ", from the CSV files: each column's type from the schema in manifest.json, a nullable one as pandas' nullable type (Int8, Int64, boolean), the lists read from their JSON text"
	}
	out += ":\n\n```python\n" + code + "print(states.groupby(\"ply\")[\"outcome\"].value_counts().unstack(fill_value=0))\n```\n\n"
	if csv && parquet {
		out += "The Parquet files carry their types and lists: `pd.read_parquet(\"states.parquet\")` (through pyarrow), `pl.read_parquet(\"states.parquet\")` in polars, `SELECT * FROM 'states.parquet'` in DuckDB.\n\n"
	}
	return out
}
