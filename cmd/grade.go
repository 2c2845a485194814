package cmd

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"github.com/tateti-lab/tateti-lab/grade"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
	"github.com/tateti-lab/tateti-lab/verify"
)

type gradeOptions struct {
	*globalOptions
	programOptions
	agent       string
	minAccuracy float64
}

func newGradeCmd(g *globalOptions) *cobra.Command {
	opts := &gradeOptions{globalOptions: g}
	c := &cobra.Command{
		Use:   "grade",
		Short: "Grade your agent's moves against perfect play on every position",
		Long: `Grade starts your agent program once (--agent 'PROGRAM ARGS') and sends it every
reachable position whose game is not over, or a reproducible --sample N
--seed S of them: one request line each on its stdin, the cells row-major,
separated by single spaces and spelled with the --cells tokens (X, O, empty),
with TATETI_ROWS, TATETI_COLS, TATETI_K (and TATETI_GRAVITY=1, TATETI_MISERE=1)
in its environment. It answers one line per position: a move, as a cell
number (--move-format cell, the default), as row,col, or under --gravity as a
column from 0.

The report, overall and by ply: illegal answers (unreadable, or not a legal
move: reported with the board, never a crash), moves that keep the
position's value (the accuracy: a perfect agent scores 100%), moves that are
also best (the fastest win, the slowest loss), and blunders by kind: a win
thrown to a draw or a loss, a draw thrown to a loss; the worst are drawn.

Exit 0 when graded; 1 when --min-accuracy is given and not met; 2 when the
program misbehaves (cannot start, crashes, is silent longer than --timeout,
too few or too many answers).`,
		Example: "  tateti-lab grade --agent 'python3 agent.py'\n  tateti-lab grade --agent ./agent --min-accuracy 99.5 --json\n  tateti-lab grade --gravity --size 4x4 --k 4 --agent ./c4 --move-format column --sample 2000",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return runGrade(c, opts)
		},
	}
	f := c.Flags()
	f.StringVar(&opts.agent, "agent", "", "the agent program and its arguments, such as 'python3 agent.py'")
	f.Float64Var(&opts.minAccuracy, "min-accuracy", 0, "exit 1 unless at least this percent of moves keep the value")
	opts.programOptions.bind(f)
	return c
}

type gradeView struct {
	Game        rules.Spec    `json:"game"`
	Passed      bool          `json:"passed"`
	MinAccuracy *float64      `json:"min_accuracy"`
	Agent       *grade.Report `json:"agent"`
}

func runGrade(c *cobra.Command, opts *gradeOptions) error {
	if !c.Flags().Changed("agent") {
		return fmt.Errorf("--agent is missing, name your agent program, such as --agent 'python3 agent.py'")
	}
	rl, err := opts.exhaustive()
	if err != nil {
		return err
	}
	prog, err := opts.programOptions.parse("agent", opts.agent, rl.Spec())
	if err != nil {
		return err
	}
	if opts.minAccuracy < 0 || opts.minAccuracy > 100 {
		return fmt.Errorf("--min-accuracy %v is not a percentage, want 0 to 100", opts.minAccuracy)
	}
	sol, err := solve.Game(c.Context(), rl, opts.workers)
	if err != nil {
		return err
	}
	a := &grade.Agent{Argv: prog.argv, Cells: prog.cells, Moves: prog.moves, Timeout: opts.timeout, Total: opts.total}
	rep, err := a.Run(c.Context(), sol, opts.choose(verify.NonTerminal(sol)))
	if err != nil {
		return err
	}
	v := gradeView{Game: rl.Spec(), Passed: true, Agent: rep}
	if c.Flags().Changed("min-accuracy") {
		v.MinAccuracy = &opts.minAccuracy
		v.Passed = rep.Overall.Accuracy >= opts.minAccuracy
	}
	return show(c, opts.json, v, v.Passed, func(w io.Writer) { printGrade(w, v) })
}

func printGrade(w io.Writer, v gradeView) {
	r := v.Agent
	fmt.Fprintf(w, "agent program %q on %s positions (%s)\n\n", r.Program, commas(r.Overall.Positions), v.Game.Words())
	t := newTable(w)
	fmt.Fprintln(t, "ply\tpositions\tillegal\tkept value\tbest\twin→draw\twin→loss\tdraw→loss\taccuracy\t")
	row := func(label string, g grade.Tally) {
		fmt.Fprintf(t, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.2f%%\t\n", label, commas(g.Positions), commas(g.Illegal), commas(g.Kept),
			commas(g.Best), commas(g.WinToDraw), commas(g.WinToLoss), commas(g.DrawToLoss), g.Accuracy)
	}
	for _, p := range r.ByPly {
		row(fmt.Sprint(p.Ply), p.Tally)
	}
	row("total", r.Overall)
	t.Flush()
	if len(r.Worst) > 0 {
		fmt.Fprintln(w, "\nthe worst answers:")
		for _, ex := range r.Worst {
			what := fmt.Sprintf("answered %q: %s", ex.Answer, kindWords[ex.Kind])
			if ex.Why != "" {
				what += ": " + ex.Why
			}
			drawBoard(w, ex.Board, fmt.Sprintf("%s (state %d)", ex.Board, ex.StateID), what, "a best move: "+ex.Expected)
		}
	}
	if len(r.Worst) == 0 {
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "accuracy: %.2f%% of moves keep the value; %.2f%% are best moves\n", r.Overall.Accuracy, percent(r.Overall.Best, r.Overall.Positions))
	if v.MinAccuracy != nil {
		verdict := "passed"
		if !v.Passed {
			verdict = "FAILED"
		}
		fmt.Fprintf(w, "%s: --min-accuracy %.2f%%\n", verdict, *v.MinAccuracy)
	}
}

var kindWords = map[string]string{"illegal": "illegal", "win_to_loss": "a win thrown to a loss",
	"win_to_draw": "a win thrown to a draw", "draw_to_loss": "a draw thrown to a loss"}

func percent(n, of int64) float64 {
	if of == 0 {
		return 0
	}
	return float64(n*10000/of) / 100
}
