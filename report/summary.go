package report

import (
	"fmt"
	"io"

	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/solve"
)

// Summary writes a solved game as solve prints it: the value of the start,
// positions by value and ply, and X's first move in each cell.
func Summary(w io.Writer, s solve.Summary, st Style) error {
	g := s.Game
	fmt.Fprintf(w, "%s: %s with perfect play\n\n", g.Words(), st.paint(result(game.X, s.Value), OutcomeIn(s.Value, s.Depth)))
	t := newTable(w)
	fmt.Fprintln(t, "ply\tX wins\tdraw\tO wins\t")
	for _, p := range s.ByPly {
		fmt.Fprintf(t, "%d\t%s\t%s\t%s\t\n", p.Ply, Commas(p.XWins), Commas(p.Draw), Commas(p.OWins))
	}
	v := s.PositionsByValue
	fmt.Fprintf(t, "total\t%s\t%s\t%s\t\n", Commas(v.XWins), Commas(v.Draw), Commas(v.OWins))
	if err := t.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nopenings: X's first move in each cell\n")
	DrawMoves(w, g, game.Board{}, game.X, Moves(game.X, s.Openings), st)
	return nil
}

// Plan writes, when the game is not enumerated, why and what is done
// instead; nothing for an enumerated game.
func Plan(w io.Writer, p solve.Plan) {
	if p.Method == solve.ByRank {
		fmt.Fprintf(w, "tateti-lab: %s\ntateti-lab: solving over placement ranks instead, a byte each (%s)\n", p.Why, enumerate.Bytes(p.Bytes))
	}
}
