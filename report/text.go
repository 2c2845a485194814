package report

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/view"
)

// Text writes the position as `solve --position` prints it: its status and
// value, its ids, paths and best line, the board with every legal move's
// result drawn in its cell, and a table of the moves.
func Text(w io.Writer, p view.Position, st Style) error {
	b, err := p.Game.Spec.Parse(p.Board)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "position %s (%s)\n", p.Board, p.Game.Words())
	facts := positionFacts(p)
	if p.ToMove == nil {
		fmt.Fprintf(w, "status: %s, the game is over\n%s", p.Status, facts)
		DrawMoves(w, p.Game, b, game.Empty, nil, st)
		return nil
	}
	if p.Proved != nil {
		value := "not settled within the time limit; proved: " + p.Proved.Says
		if _, ok := p.Proved.Known(); ok {
			value = p.Proved.Says + " (proved; the depth and the moves not settled within the time limit)"
		}
		fmt.Fprintf(w, "status: %s, %s to move\nvalue: %s\n%s", p.Status, *p.ToMove, value, facts)
		DrawMoves(w, p.Game, b, b.ToMove(), nil, st)
		return nil
	}
	value := st.paint(view.Result(b.ToMove(), p.Value), outcomeOf(p, b.Ply()))
	fmt.Fprintf(w, "status: %s, %s to move\nvalue: %s with perfect play\n%s", p.Status, *p.ToMove, value, facts)
	if p.ValueOnly {
		fmt.Fprintln(w, "moves: the value alone was asked, not each move's")
		DrawMoves(w, p.Game, b, b.ToMove(), nil, st)
		return nil
	}
	if !p.NoDepths {
		fmt.Fprintf(w, "best line: %s%s\n", p.Game.FormatMoves(p.BestLine), lineEnd(p.LineEnd))
	}
	DrawMoves(w, p.Game, b, b.ToMove(), p.Moves, st)
	return moveTable(w, p)
}

// Provenance says who gave a position's value, in words: "answered by
// book", or past an opening book's last ply "answered by search, past the
// book's last ply 13"; then why the planner chose its engine, in brackets.
func Provenance(by, engine perfect.Engine, bookLast int, why string) string {
	out := "answered by " + string(by)
	if by == "" {
		out = "answered by " + string(engine)
	}
	if by != "" && by != engine && bookLast > 0 {
		out += fmt.Sprintf(", past the book's last ply %d", bookLast)
	}
	if why != "" {
		out += " (" + why + ")"
	}
	return out
}

// positionFacts gives the line of a position's ids, the move sequences
// that reach it and the oracle that answered, leaving out what it lacks.
func positionFacts(p view.Position) string {
	var parts []string
	if p.StateID != nil {
		parts = append(parts, fmt.Sprintf("state id %d, canonical id %d", *p.StateID, *p.CanonicalID))
	}
	if p.Paths != nil {
		seqs := "sequences"
		if *p.Paths == 1 {
			seqs = "sequence"
		}
		parts = append(parts, fmt.Sprintf("reached by %d move %s", *p.Paths, seqs))
	}
	parts = append(parts, Provenance(p.AnsweredBy, p.Engine, p.BookLast, p.Why))
	return strings.Join(parts, ", ") + "\n"
}

// moveTable lists the moves: under gravity by column from 1, as --moves
// takes them, with the cell beside; otherwise by cell, row and column;
// then value, depth and whether it is best.
func moveTable(w io.Writer, p view.Position) error {
	t := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "\ncell\trow\tcol\tvalue\tdepth\tbest\t"
	if p.Game.Gravity {
		head = "\ncolumn\tcell\tvalue\tdepth\tbest\t"
	}
	if p.NoDepths {
		head = strings.Replace(head, "depth\t", "", 1)
	}
	fmt.Fprintln(t, head)
	moves := p.Moves
	if p.Game.Gravity { // one move a column: in the columns' order
		moves = slices.SortedFunc(slices.Values(moves), func(a, b view.Move) int { return a.Column - b.Column })
	}
	for _, m := range moves {
		best := ""
		if m.Best {
			best = "*"
		}
		where := fmt.Sprintf("%d\t%d\t%d", m.Cell, m.Row, m.Col)
		if p.Game.Gravity {
			where = fmt.Sprintf("%d\t%d", m.Column, m.Cell)
		}
		if m.Depth != nil {
			where += fmt.Sprintf("\t%s\t%d", m.Value, *m.Depth)
		} else {
			where += "\t" + m.Value.String()
		}
		fmt.Fprintf(t, "%s\t%s\t\n", where, best)
	}
	return t.Flush()
}

// Style says how text is drawn: on a terminal that takes colour, a
// result's words are painted in its colour (green for a win, yellow for a
// draw, red for a loss, for the side to move); otherwise, plain. The zero
// Style is plain.
type Style struct {
	Colour bool
}

// terminalColours are the ANSI colours of the results.
var terminalColours = map[string]string{"win": "\x1b[32m", "draw": "\x1b[33m", "loss": "\x1b[31m"}

// paint gives text in the colour of result, when the style has colour.
func (st Style) paint(result, text string) string {
	if !st.Colour {
		return text
	}
	return terminalColours[result] + text + "\x1b[0m"
}

// outcomeOf says p's value in words, with the move by which the game ends
// where its depth is known; ply is its board's marks.
func outcomeOf(p view.Position, ply int) string {
	if p.NoDepths {
		return Outcome(p.Value)
	}
	return OutcomeBy(p.Value, ply+int(p.Depth))
}

// OutcomeBy says a value in words with the move by which the game ends,
// counting every move from the first: "X wins by move 41", "a draw by
// move 9". end is the position's ply and its depth.
func OutcomeBy(v perfect.Value, end int) string {
	return fmt.Sprintf("%s by move %d", Outcome(v), end)
}

// Outcome says who wins, with no depth: "X wins", "a draw".
func Outcome(v perfect.Value) string {
	if v == 0 {
		return "a draw"
	}
	return fmt.Sprint(v)
}

// DrawMoves draws board b with every legal move of mover in its cell: W, D
// or L for its result, the move by which the game ends after it (b's ply,
// the move, and the move's depth), and * on the best moves.
func DrawMoves(w io.Writer, s rules.Spec, b game.Board, mover game.Cell, moves []view.Move, st Style) {
	const width = 6
	label, result := map[int]string{}, map[int]string{}
	for _, m := range moves {
		l := m.Mark(b.Ply())
		if m.Best {
			l = "*" + l
		}
		label[m.Cell], result[m.Cell] = l, m.Result
	}
	sep := "  +" + strings.Repeat(strings.Repeat("-", width)+"+", s.Cols) + "\n"
	fmt.Fprint(w, "\n   ")
	for c := range s.Cols { // under gravity the columns --moves names, from 1
		fmt.Fprintf(w, "%*d", width+1, s.MoveNumber(c))
	}
	fmt.Fprint(w, "\n"+sep)
	for r := range s.Rows {
		fmt.Fprintf(w, "%d |", r)
		for c := range s.Cols {
			i := r*s.Cols + c
			cell := label[i]
			if x := b.At(i); x != game.Empty {
				cell = x.String()
			}
			pad := width - len(cell)
			if r, ok := result[i]; ok && b.At(i) == game.Empty {
				cell = st.paint(r, cell)
			}
			fmt.Fprintf(w, "%s%s%s|", strings.Repeat(" ", pad-pad/2), cell, strings.Repeat(" ", pad/2))
		}
		fmt.Fprint(w, "\n"+sep)
	}
	switch {
	case len(moves) > 0 && moves[0].Depth == nil:
		fmt.Fprintf(w, "a move's cell shows the result for %s (W win, D draw, L loss); * marks the best moves, those of the best value\n", mover)
	case len(moves) > 0:
		fmt.Fprintf(w, "a move's cell shows the result for %s (W win, D draw, L loss) and the move by which the game then ends, counting from the first; * marks the best moves\n", mover)
	}
}

// lineEnd says where a best line stops short of the end, if it does.
func lineEnd(ply int) string {
	if ply == 0 {
		return ""
	}
	return fmt.Sprintf(" (to move %d, the opening book's last; ask that position for the rest)", ply)
}
