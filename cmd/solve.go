package cmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
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
	rl, err := opts.exhaustive()
	if err != nil {
		return err
	}
	r, err := solveAll(c, rl, opts.workers)
	if err != nil {
		return err
	}
	s := r.Summarize()
	if opts.json {
		return writeJSON(c.OutOrStdout(), s)
	}
	return printSummary(c.OutOrStdout(), s)
}

func printSummary(w io.Writer, s solve.Summary) error {
	g := s.Game
	fmt.Fprintf(w, "%s: %s with perfect play\n\n", g.Words(), outcomeIn(s.Value, s.Depth))
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
	drawMoves(w, g, game.Board{}, game.X, s.Openings)
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
	return printPosition(c.OutOrStdout(), a)
}

func printPosition(w io.Writer, a solve.Analysis) error {
	fmt.Fprintf(w, "position %s (%s)\n", game.Format(a.Spec.Spec, a.Board), a.Spec.Words())
	seqs := "sequences"
	if a.Paths == 1 {
		seqs = "sequence"
	}
	facts := fmt.Sprintf("state id %d, canonical id %d, reached by %d move %s\n", a.StateID, a.CanonicalID, a.Paths, seqs)
	if a.Status.Terminal() {
		fmt.Fprintf(w, "status: %s, the game is over\n%s", a.Status, facts)
		drawMoves(w, a.Spec, a.Board, game.Empty, nil)
		return nil
	}
	fmt.Fprintf(w, "status: %s, %s to move\nvalue: %s with perfect play\n%s", a.Status, a.ToMove, outcomeIn(a.Value, a.Depth), facts)
	fmt.Fprintf(w, "best line: %s\n", rules.FormatMoves(rules.New(a.Spec), a.BestLine))
	drawMoves(w, a.Spec, a.Board, a.ToMove, a.Moves)
	t := newTable(w)
	drop := "" // under gravity, the column as Connect-Four notation numbers it
	if a.Spec.Gravity {
		drop = "drop\t"
	}
	fmt.Fprintln(t, "\ncell\trow\tcol\t"+drop+"value\tdepth\tbest\t")
	for _, m := range a.Moves {
		best := ""
		if m.Best {
			best = "*"
		}
		if a.Spec.Gravity {
			drop = fmt.Sprintf("%d\t", m.Col+1)
		}
		fmt.Fprintf(t, "%d\t%d\t%d\t%s%s\t%d\t%s\t\n", m.Cell, m.Row, m.Col, drop, solve.Outcome(m.Value), m.Depth, best)
	}
	return t.Flush()
}

// outcomeIn says a value and depth in words: "X wins in 5 plies".
func outcomeIn(v, depth int8) string {
	plies := "plies"
	if depth == 1 {
		plies = "ply"
	}
	if v == 0 {
		return fmt.Sprintf("a draw (%d %s to the full board)", depth, plies)
	}
	return fmt.Sprintf("%s in %d %s", solve.Outcome(v), depth, plies)
}

// drawMoves draws the board with every legal move in its cell: W, D or L for a
// win, draw or loss of the side to move, the plies left after the move, and *
// on the best moves.
func drawMoves(w io.Writer, s rules.Spec, b game.Board, mover game.Cell, moves []solve.Move) {
	const width = 6
	label := map[int]string{}
	for _, m := range moves {
		v := m.Value
		if mover == game.O {
			v = -v
		}
		l := fmt.Sprintf("%c%d", "LDW"[v+1], m.Depth)
		if m.Best {
			l = "*" + l
		}
		label[m.Cell] = l
	}
	sep := "  +" + strings.Repeat(strings.Repeat("-", width)+"+", s.Cols) + "\n"
	fmt.Fprint(w, "\n   ")
	for c := range s.Cols {
		fmt.Fprintf(w, "%*d", width+1, c)
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
			fmt.Fprintf(w, "%s%s%s|", strings.Repeat(" ", pad-pad/2), cell, strings.Repeat(" ", pad/2))
		}
		fmt.Fprint(w, "\n"+sep)
	}
	if len(moves) > 0 {
		fmt.Fprintf(w, "a move's cell shows the result for %s (W win, D draw, L loss) and the plies left after it; * marks the best moves\n", mover)
	}
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
