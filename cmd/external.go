package cmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/internal/protocol"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
	"github.com/tateti-lab/tateti-lab/verify"
)

type externalView struct {
	Game     rules.Spec             `json:"game"`
	OK       bool                   `json:"ok"`
	External *verify.ExternalReport `json:"external"`
}

func runExternal(c *cobra.Command, opts *verifyOptions) error {
	rl, err := opts.exhaustive()
	if err != nil {
		return err
	}
	results, err := protocol.Tokens(opts.results, 4, "X wins, O wins, draw, in progress")
	if err != nil {
		return fmt.Errorf("--results %w", err)
	}
	prog, err := opts.programOptions.parse("external", opts.external, rl.Spec())
	if err != nil {
		return err
	}
	for _, f := range []string{"values", "check", "move-format", "sample", "seed"} {
		if c.Flags().Changed(f) {
			return fmt.Errorf("--%s goes with --solver, not with --external", f)
		}
	}
	x := &verify.External{Argv: prog.argv, Cells: prog.cells, Timeout: opts.timeout, Total: opts.total}
	copy(x.Results[:], results)
	if err := checkAllBoards(opts.allBoards, rl.Spec()); err != nil {
		return err
	}
	var boards verify.Boards
	if opts.allBoards {
		boards = verify.RawBoards(rl)
	} else {
		e, err := enumerate.All(c.Context(), rl, opts.workers)
		if err != nil {
			return err
		}
		boards = verify.PositionBoards(e)
	}
	rep, err := x.Run(c.Context(), rl.Spec(), boards)
	if err != nil {
		return err
	}
	v := externalView{Game: rl.Spec(), OK: rep.Disagree == 0, External: rep}
	return show(c, opts.json, v, v.OK, func(w io.Writer) { printExternal(w, rl.Spec(), rep) })
}

// show prints v as JSON or through text, and gives errDisagree when the
// check did not pass.
func show(c *cobra.Command, asJSON bool, v any, ok bool, text func(w io.Writer)) error {
	w := c.OutOrStdout()
	if asJSON {
		if err := writeJSON(w, v); err != nil {
			return err
		}
	} else {
		text(w)
	}
	if !ok {
		return errDisagree
	}
	return nil
}

func printExternal(w io.Writer, s rules.Spec, r *verify.ExternalReport) {
	reachable := r.Agree + r.Disagree
	fmt.Fprintf(w, "checker program %q on %s boards (%s)\n", r.Program, commas(r.Boards), s.Words())
	fmt.Fprintf(w, "  reachable boards: %s agree, %s disagree\n", commas(r.Agree), commas(r.Disagree))
	if r.Disagree > 0 {
		fmt.Fprintln(w, "the first disagreements:")
		printDisagreements(w, []string{"expected", "got"}, r.First)
	}
	if r.UnreachableBoards > 0 {
		fmt.Fprintf(w, "  boards that cannot arise: %s, answered differently on %s (a finding, not a failure)\n", commas(r.UnreachableBoards), commas(r.UnreachableDiffer))
		if len(r.FirstUnreachable) > 0 {
			printDisagreements(w, []string{"bitmask", "got"}, r.FirstUnreachable)
		}
	}
	if r.Disagree == 0 {
		fmt.Fprintf(w, "ok: the program agrees on all %s reachable boards\n", commas(reachable))
	} else {
		fmt.Fprintf(w, "FAILED: the program disagrees on %s of %s reachable boards\n", commas(r.Disagree), commas(reachable))
	}
}

type solverView struct {
	Game   rules.Spec           `json:"game"`
	OK     bool                 `json:"ok"`
	Solver *verify.SolverReport `json:"solver"`
}

func runSolverProgram(c *cobra.Command, opts *verifyOptions) error {
	rl, err := opts.exhaustive()
	if err != nil {
		return err
	}
	values, err := protocol.Tokens(opts.values, 3, "X wins, draw, O wins")
	if err != nil {
		return fmt.Errorf("--values %w", err)
	}
	check, err := verify.ParseCheck(opts.check)
	if err != nil {
		return fmt.Errorf("--check %w", err)
	}
	prog, err := opts.programOptions.parse("solver", opts.solver, rl.Spec())
	if err != nil {
		return err
	}
	if c.Flags().Changed("results") {
		return fmt.Errorf("--results goes with --external; a solver's tokens are --values")
	}
	sol, err := solve.Game(c.Context(), rl, opts.workers)
	if err != nil {
		return err
	}
	positions := verify.NonTerminal(sol)
	if opts.allBoards {
		positions = verify.AllPositions(sol)
	}
	x := &verify.Solver{Argv: prog.argv, Cells: prog.cells, Check: check, Moves: prog.moves, Timeout: opts.timeout, Total: opts.total}
	copy(x.Values[:], values)
	rep, err := x.Run(c.Context(), sol, opts.choose(positions))
	if err != nil {
		return err
	}
	v := solverView{Game: rl.Spec(), OK: rep.Disagree == 0, Solver: rep}
	return show(c, opts.json, v, v.OK, func(w io.Writer) { printSolver(w, rl.Spec(), rep) })
}

func printSolver(w io.Writer, s rules.Spec, r *verify.SolverReport) {
	fmt.Fprintf(w, "solver program %q on %s positions (%s), checking %s\n\n", r.Program, commas(r.Positions), s.Words(), r.Check)
	t := newTable(w)
	fmt.Fprintln(t, "ply\tpositions\tagree\tdisagree\t")
	for _, p := range r.ByPly {
		fmt.Fprintf(t, "%d\t%s\t%s\t%s\t\n", p.Ply, commas(p.Positions), commas(p.Agree), commas(p.Disagree))
	}
	fmt.Fprintf(t, "total\t%s\t%s\t%s\t\n", commas(r.Positions), commas(r.Agree), commas(r.Disagree))
	t.Flush()
	if r.Disagree > 0 {
		fmt.Fprintln(w, "\nthe first disagreements:")
		for _, d := range r.First {
			drawBoard(w, d.Board, fmt.Sprintf("%s (state %d, ply %d)", d.Board, d.StateID, d.Ply),
				"expected "+answerWords(d.Expected), "got      "+answerWords(d.Got),
				"a line of perfect play: "+strings.Join(d.BestLine, " "))
		}
		fmt.Fprintf(w, "FAILED: the program disagrees on %s of %s positions\n", commas(r.Disagree), commas(r.Positions))
		return
	}
	fmt.Fprintf(w, "\nok: the program agrees on all %s positions\n", commas(r.Positions))
}

// answerWords says a solver's answer: "value 1, depth 3, best 2 5".
func answerWords(a verify.Answer) string {
	s := fmt.Sprintf("value %d", a.Value)
	if a.Depth != nil {
		s += fmt.Sprintf(", depth %d", *a.Depth)
	}
	if a.Best != nil {
		s += ", best " + strings.Join(a.Best, " ")
	}
	return s
}

// drawBoard draws a board, a row a line with its cells spaced out, and the
// notes beside the rows, one a row; notes past the last row follow below.
func drawBoard(w io.Writer, board string, notes ...string) {
	rows := strings.Split(board, "/")
	for i := range max(len(rows), len(notes)) {
		row := strings.Repeat(" ", 2*len(rows[0])-1)
		if i < len(rows) {
			row = strings.Join(strings.Split(rows[i], ""), " ")
		}
		note := ""
		if i < len(notes) {
			note = "    " + notes[i]
		}
		fmt.Fprintf(w, "    %s%s\n", row, note)
	}
	fmt.Fprintln(w)
}
