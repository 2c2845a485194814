package cmd

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/report"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
)

type solveOptions struct {
	*globalOptions
	position string
	moves    string
}

func newSolveCmd(g *globalOptions) *cobra.Command {
	opts := &solveOptions{globalOptions: g}
	c := &cobra.Command{
		Use:   "solve",
		Short: "Solve every position with perfect play, or analyse one",
		Long: `Solve finds the value of every reachable position with perfect play (+1 X
wins, 0 draw, -1 O wins) and its depth: plies to the end when the winner wins
fastest and the loser loses slowest. It prints the value of the empty board,
positions by value and ply, and every first move.

With --position it analyses one board instead, exploring only what can follow
it: status, side to move, value, depth, and every legal move's value and depth
drawn on the board, best moves marked. --moves plays moves first (from
--position, or from the empty board): cell numbers such as 4,0,8, or under
--gravity columns in Connect-Four notation, 1 at the left, such as 4453.`,
		Example: "  tateti-lab solve\n  tateti-lab solve --position 'XX./O../...'\n  tateti-lab solve --size 4x4 --position 'o.../.ox./.xxx/xooo' --json\n  tateti-lab solve --gravity --size 4x5 --k 4 --moves 3343",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if c.Flags().Changed("position") || c.Flags().Changed("moves") {
				return runPosition(c, opts)
			}
			return runSolve(c, opts)
		},
	}
	c.Flags().StringVar(&opts.position, "position", "", "analyse this board, such as 'XO./.X./..O'")
	c.Flags().StringVar(&opts.moves, "moves", "", "play these moves first: cells such as 4,0,8, or under --gravity columns from 1 such as 4453")
	return c
}

func runSolve(c *cobra.Command, opts *solveOptions) error {
	s, err := summarize(c, opts)
	if err != nil {
		return err
	}
	if opts.json {
		return writeJSON(c.OutOrStdout(), s)
	}
	return printSummary(c.OutOrStdout(), s)
}

// summarize solves the game: by enumeration when it fits memory, else, when
// a byte a placement fits, over placement ranks (solve.SolveRanked), which
// gives the same summary.
func summarize(c *cobra.Command, opts *solveOptions) (solve.Summary, error) {
	rl, err := opts.rules()
	if err != nil {
		return solve.Summary{}, err
	}
	if err := enumerate.CheckSize(rl.Spec().Spec); err != nil {
		return solve.Summary{}, err
	}
	avail := availableMemory()
	tooBig := enumerate.CheckMemory(rl.Spec(), avail)
	if tooBig == nil {
		// The summary needs no paths or classes: a lean enumeration.
		e, err := enumerate.Lean(c.Context(), rl, opts.workers)
		if err != nil {
			return solve.Summary{}, err
		}
		r, err := solve.All(c.Context(), e, opts.workers)
		if err != nil {
			return solve.Summary{}, err
		}
		return r.Summarize(), nil
	}
	ranked := solve.RankedBytes(rl.Spec())
	if avail != 0 && ranked > avail {
		return solve.Summary{}, tooBig
	}
	fmt.Fprintf(c.ErrOrStderr(), "tateti-lab: %v\ntateti-lab: solving over placement ranks instead, a byte each (%.1f GB)\n",
		tooBig, float64(ranked)/1e9)
	r, err := solve.SolveRanked(c.Context(), rl, opts.workers)
	if err != nil {
		return solve.Summary{}, err
	}
	return r.Summarize(), nil
}

func printSummary(w io.Writer, s solve.Summary) error {
	g := s.Game
	fmt.Fprintf(w, "%s: %s with perfect play\n\n", g.Words(), report.OutcomeIn(s.Value, s.Depth))
	t := newTable(w)
	fmt.Fprintln(t, "ply\tX wins\tdraw\tO wins\t")
	for _, p := range s.ByPly {
		fmt.Fprintf(t, "%d\t%s\t%s\t%s\t\n", p.Ply, commas(p.XWins), commas(p.Draw), commas(p.OWins))
	}
	v := s.PositionsByValue
	fmt.Fprintf(t, "total\t%s\t%s\t%s\t\n", commas(v.XWins), commas(v.Draw), commas(v.OWins))
	if err := t.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nopenings: X's first move in each cell\n")
	report.DrawMoves(w, g, game.Board{}, game.X, report.Moves(game.X, s.Openings))
	return nil
}

func runPosition(c *cobra.Command, opts *solveOptions) error {
	a, err := analyzePosition(c, opts.globalOptions, opts.position, opts.moves)
	if err != nil {
		return err
	}
	if opts.json {
		return writeJSON(c.OutOrStdout(), report.NewPosition(a))
	}
	return report.Text(c.OutOrStdout(), report.NewPosition(a))
}

// analyzePosition reads the board of --position (empty: the empty board),
// plays --moves on it, and analyses the result.
func analyzePosition(c *cobra.Command, opts *globalOptions, position, moves string) (solve.Analysis, error) {
	rl, err := opts.rules()
	if err != nil {
		return solve.Analysis{}, err
	}
	var b game.Board
	if position != "" {
		if b, err = game.Parse(rl.Spec().Spec, position); err != nil {
			return solve.Analysis{}, err
		}
		if err := rules.CheckReachable(rl, b); err != nil {
			return solve.Analysis{}, err
		}
	}
	if b, err = rules.Play(rl, b, moves); err != nil {
		return solve.Analysis{}, err
	}
	return solve.Analyze(c.Context(), rl, b, opts.workers)
}
