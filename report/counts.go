package report

import (
	"fmt"
	"io"

	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/internal/figure"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/tier"
)

// Counts writes the counts as enumerate prints them: positions by ply with
// the terminal ones by status, classes and move sequences, then the games.
func Counts(w io.Writer, c enumerate.Counts) error {
	s := c.Game
	within, ending := "", ""
	if c.MaxPly != nil {
		within = fmt.Sprintf(" in plies 0 to %d", *c.MaxPly)
		ending = fmt.Sprintf(" ending by ply %d", *c.MaxPly)
	}
	fmt.Fprintf(w, "%s: %s reachable positions%s\n\n", s.Words(), figure.Commas(c.Positions), within)
	t := newTable(w)
	fmt.Fprintln(t, "ply\tpositions\tterminal\tx_won\to_won\tdraw\tclasses\tterminal classes\tquiet classes\tsequences\t")
	row := func(label string, p enumerate.PlyCounts) {
		fmt.Fprintf(t, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", label, figure.Commas(p.Positions), figure.Commas(p.Terminal),
			figure.Commas(p.TerminalBy.XWon), figure.Commas(p.TerminalBy.OWon), figure.Commas(p.TerminalBy.Draw),
			figure.Commas(p.Classes), figure.Commas(p.TerminalClasses), figure.Commas(p.QuietClasses), figure.Commas(p.Paths))
	}
	for _, p := range c.ByPly {
		row(fmt.Sprint(p.Ply), p)
	}
	row("total", enumerate.PlyCounts{Positions: c.Positions, Terminal: c.Terminal.Total(), TerminalBy: c.Terminal,
		Classes: c.Classes, TerminalClasses: c.TerminalClasses, QuietClasses: c.QuietClasses, Paths: c.Paths})
	if err := t.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\ncomplete games%s: %s (X wins %s, O wins %s, draws %s)\nmove sequences: %s (every prefix of every game, the empty one included); at most %s into one position\nclasses are counted up to the %s of the board;\na quiet position is in progress, and its side to move neither wins at once nor must stop a line at once\n",
		ending, figure.Commas(c.Games.Total), figure.Commas(c.Games.XWon), figure.Commas(c.Games.OWon), figure.Commas(c.Games.Draw), figure.Commas(c.Paths), figure.Commas(c.MaxPaths), symmetryWords(s))
	return err
}

// symmetryWords names the symmetries the rules keep.
func symmetryWords(s rules.Spec) string {
	switch {
	case s.Gravity:
		return "2 symmetries (the identity and the left-right mirror; gravity keeps no other)"
	case s.Square():
		return "8 symmetries (rotations and reflections)"
	}
	return "4 symmetries (reflections and the half turn)"
}

// TierCounts writes the counts of a game solved tier by tier, as its
// database keeps them: positions by ply with the finished ones by status.
func TierCounts(w io.Writer, c tier.Counts) error {
	fmt.Fprintf(w, "%s: %s reachable positions\n\n", c.Game.Words(), figure.Commas(c.Positions))
	t := newTable(w)
	fmt.Fprintln(t, "ply\tpositions\tterminal\tx_won\to_won\tdraw\t")
	row := func(label string, positions int64, over perfect.ByStatus) {
		fmt.Fprintf(t, "%s\t%s\t%s\t%s\t%s\t%s\t\n", label, figure.Commas(positions), figure.Commas(over.Total()),
			figure.Commas(over.XWon), figure.Commas(over.OWon), figure.Commas(over.Draw))
	}
	for _, p := range c.ByPly {
		row(fmt.Sprint(p.Ply), p.Positions, p.TerminalBy)
	}
	row("total", c.Positions, c.Terminal)
	if err := t.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, "\nfrom the database: classes and move sequences are not counted tier by tier")
	return err
}

// Reached writes the positions the forward pass of a tier solve counted,
// by ply.
func Reached(w io.Writer, r tier.Reached) error {
	fmt.Fprintf(w, "%s: %s reachable positions", r.Game.Words(), figure.Commas(r.Positions))
	if r.MaxPly != nil {
		fmt.Fprintf(w, " in plies 0 to %d", *r.MaxPly)
	}
	fmt.Fprint(w, "\n\n")
	t := newTable(w)
	fmt.Fprintln(t, "ply\tpositions\t")
	for p, n := range r.ByPly {
		fmt.Fprintf(t, "%d\t%s\t\n", p, figure.Commas(n))
	}
	fmt.Fprintf(t, "total\t%s\t\n", figure.Commas(r.Positions))
	if err := t.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, "\nfrom the forward pass of the tier solve: finished boards are not told apart without the solve")
	return err
}
