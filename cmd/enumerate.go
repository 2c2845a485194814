package cmd

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/rules"
)

type enumerateOptions struct {
	*globalOptions
}

func newEnumerateCmd(g *globalOptions) *cobra.Command {
	opts := &enumerateOptions{globalOptions: g}
	return &cobra.Command{
		Use:   "enumerate",
		Short: "Count every reachable position, game and move sequence",
		Long: `Enumerate walks every position that can arise from the empty board and counts
them by ply: positions, terminal positions by status, classes up to the
symmetries of the board; and in total: complete games by winner and move
sequences (every prefix of every game, the empty one included).`,
		Example: "  tateti-lab enumerate\n  tateti-lab enumerate --size 4x4 --json",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return runEnumerate(c, opts)
		},
	}
}

func runEnumerate(c *cobra.Command, opts *enumerateOptions) error {
	rl, err := opts.exhaustive()
	if err != nil {
		return err
	}
	r, err := enumerate.All(c.Context(), rl, opts.workers)
	if err != nil {
		return err
	}
	counts, err := r.Count()
	if err != nil {
		return err
	}
	if opts.json {
		return writeJSON(c.OutOrStdout(), counts)
	}
	return printCounts(c.OutOrStdout(), counts)
}

func printCounts(w io.Writer, c enumerate.Counts) error {
	s := c.Game
	fmt.Fprintf(w, "%s: %s reachable positions\n\n", s.Words(), commas(c.Positions))
	t := newTable(w)
	fmt.Fprintln(t, "ply\tpositions\tterminal\tx_won\to_won\tdraw\tclasses\tterminal classes\tsequences\t")
	row := func(label string, p enumerate.PlyCounts) {
		fmt.Fprintf(t, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", label, commas(p.Positions), commas(p.Terminal),
			commas(p.TerminalBy.XWon), commas(p.TerminalBy.OWon), commas(p.TerminalBy.Draw),
			commas(p.Classes), commas(p.TerminalClasses), commas(p.Sequences))
	}
	for _, p := range c.ByPly {
		row(fmt.Sprint(p.Ply), p)
	}
	row("total", enumerate.PlyCounts{Positions: c.Positions, Terminal: c.Terminal.Total(), TerminalBy: c.Terminal,
		Classes: c.Classes, TerminalClasses: c.TerminalClasses, Sequences: c.Sequences})
	if err := t.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\ncomplete games: %s (X wins %s, O wins %s, draws %s)\nmove sequences: %s (every prefix of every game, the empty one included); at most %s into one position\nclasses are counted up to the %s of the board\n",
		commas(c.Games.Total), commas(c.Games.XWon), commas(c.Games.OWon), commas(c.Games.Draw), commas(c.Sequences), commas(c.MaxPaths), symmetryWords(s))
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
