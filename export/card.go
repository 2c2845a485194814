package export

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tateti-lab/tateti-lab/internal/figure"
	"github.com/tateti-lab/tateti-lab/positions"
	"github.com/tateti-lab/tateti-lab/rules"
)

// CardName is the data card's file name: Hugging Face reads a dataset's
// card from its README.md.
const CardName = "README.md"

// cardMark, on the card's second line (inside its YAML front matter, as a
// comment), says an export wrote it: a README.md without it is a user's,
// which an export keeps and writes no card beside.
const cardMark = "# written by tateti-lab export from manifest.json; the next export into this folder replaces it"

// ownCard says whether the folder dir may take a card: it has no README.md,
// or an export wrote the one it has.
func ownCard(dir string) bool {
	data, err := os.ReadFile(filepath.Join(dir, CardName))
	if err != nil {
		return os.IsNotExist(err)
	}
	first, rest, _ := bytes.Cut(data, []byte("\n"))
	second, _, _ := bytes.Cut(rest, []byte("\n"))
	return string(first) == "---" && string(second) == cardMark
}

// Card writes the data card of the dataset m describes: what it holds and
// how its positions were chosen, its figures by ply, every column's
// meaning, the board's orientation against the libraries that play the
// game, and its licence. Everything it says comes from m.
func Card(m *Manifest) []byte {
	var b strings.Builder
	cardFront(&b, m)
	fmt.Fprintf(&b, "# %s\n\n", cardTitle(m))
	fmt.Fprintf(&b, "Written by %s %s (`manifest.json` says the same, with each file's SHA-256 and each table's schema). Every value is computed with perfect play, none is annotated by hand.\n\n", m.Tool, m.Version)
	b.WriteString("| file | table | rows | bytes |\n|---|---|---|---|\n")
	for _, f := range m.Files {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", f.Name, f.Table, figure.Commas(f.Rows), figure.Commas(f.Bytes))
	}
	b.WriteString("\n## The game\n\n" + gameWords(m.Game) + "\n\n")
	b.WriteString("## How the positions were chosen\n\n" + choiceWords(m) + "\n\n")
	cardFigures(&b, m)
	b.WriteString("## The board against other libraries\n\n" + orientation(m.Game) + "\n\n")
	for _, t := range m.Tables {
		fmt.Fprintf(&b, "## %s\n\nKey: %s.\n\n| column | type | meaning |\n|---|---|---|\n", t.Name, strings.Join(t.PrimaryKey, ", "))
		for _, c := range t.Columns {
			if strings.HasPrefix(c.Name, "cell_") { // one row for all: cell_0 … cell_<n-1>
				if c.Name == "cell_0" {
					fmt.Fprintf(&b, "| `cell_0` … `cell_%d` | %s | cell i (row i // %d from the top, column i %% %d): 1 X, -1 O, 0 empty |\n", m.Game.Cells()-1, c.Type, m.Game.Cols, m.Game.Cols)
				}
				continue
			}
			typ := c.Type
			if c.Nullable {
				typ += ", nullable"
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s |\n", c.Name, typ, strings.ReplaceAll(c.Description, "|", "\\|"))
		}
		b.WriteString("\n")
	}
	b.WriteString(loading(m))
	b.WriteString("## Licence\n\nThe data is licensed under Creative Commons Attribution 4.0 International (CC BY 4.0, https://creativecommons.org/licenses/by/4.0/); tateti-lab, which wrote it, is under the MIT licence.\n")
	return []byte(b.String())
}

// cardFront writes the YAML front matter Hugging Face reads: licence,
// tags, and a configuration a table, from the files there are.
func cardFront(b *strings.Builder, m *Manifest) {
	fmt.Fprintf(b, "---\n%s\nlicense: cc-by-4.0\npretty_name: %q\ntags:\n  - game-theory\n  - perfect-play\n", cardMark, cardTitle(m))
	if slug := strings.ReplaceAll(strings.ToLower(m.Game.Title()), " ", "-"); !strings.ContainsAny(slug, ",=") {
		fmt.Fprintf(b, "  - %s\n", slug)
	}
	b.WriteString("task_categories:\n  - tabular-classification\nconfigs:\n")
	for _, table := range []string{"states", "moves"} {
		i := slices.IndexFunc(m.Files, func(f File) bool { return f.Table == table && f.Format == "parquet" })
		if i < 0 {
			i = slices.IndexFunc(m.Files, func(f File) bool { return f.Table == table })
		}
		if i < 0 {
			continue
		}
		fmt.Fprintf(b, "  - config_name: %s\n", table)
		if table == "states" {
			b.WriteString("    default: true\n")
		}
		fmt.Fprintf(b, "    data_files:\n      - split: train\n        path: %s\n", m.Files[i].Name)
	}
	b.WriteString("---\n\n")
}

// cardTitle says the game and which of its positions the dataset holds.
func cardTitle(m *Manifest) string {
	which := "every reachable position"
	if m.Positions != nil && m.Positions.From != positions.FromDB {
		which = figure.Commas(m.Figures.Rows()) + " chosen positions"
	}
	return fmt.Sprintf("%s: %s, solved", upper(m.Game.Title()), which)
}

// upper gives s with its first letter in upper case.
func upper(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// gameWords says the rules in a sentence or two.
func gameWords(s rules.Spec) string {
	line := fmt.Sprintf("%d in a row wins", s.K)
	if s.Misere {
		line = fmt.Sprintf("misère: whoever makes %d in a row loses", s.K)
	}
	place := "a mark goes on any empty cell"
	if s.Gravity {
		place = "a disc drops to the lowest empty cell of the column played"
	}
	return fmt.Sprintf("%s (`%s`): %d rows by %d columns, X moves first and the sides alternate, %s, %s; a full board with no line is a draw. Values are for X: 1 X wins, 0 draw, -1 O wins (the columns named mover_ are for the side to move).",
		upper(s.Title()), s.Flags(), s.Rows, s.Cols, place, line)
}
