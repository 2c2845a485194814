package cmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tateti-lab/tateti-lab/checker"
	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/index"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
	"github.com/tateti-lab/tateti-lab/verify"
)

type verifyOptions struct {
	*globalOptions
	programOptions
	allBoards bool
	external  string
	results   string
	solver    string
	values    string
	check     string
}

// verifyHelp is verify's --help.
const verifyHelp = `Verify runs four independent win checkers (primes, product, counter, lines,
one from each seed article) and the bitmask status on every reachable
position, and cross-checks the solver: the minimax recurrence on every
position, and a naive solver (plain recursion, no memo) where it is small
enough. It exits 1 when anything disagrees.

--all-boards also runs over every raw board, counts the boards that cannot
arise by the reason, and shows how the checkers differ on them (a finding, not
a failure).

--external 'PROGRAM ARGS' tests your own checker program instead, and
--solver 'PROGRAM ARGS' your own solver. Each is started once and sent one
request line per board on its stdin: the cells row-major, separated by single
spaces, spelled with the --cells tokens (X, O, empty). TATETI_ROWS,
TATETI_COLS and TATETI_K are set in its environment, and TATETI_GRAVITY=1 and
TATETI_MISERE=1 under those rules.

A checker answers one line per board with a --results token (X wins, O wins,
draw, in progress). The seed articles' conventions are --cells 0,1,-1
--results 0,1,2,3 (seed 000) and --cells 1,2,0 --results 1,2,0,-1 (seed 002).
It gets every reachable position, or with --all-boards every raw board.

A solver answers one line per position: its value with perfect play as a
--values token (X wins, draw, O wins), then, where --check asks for them, its
depth (plies to the end, the winner winning fastest and the loser losing
slowest) and its best moves (in --move-format, separated by spaces); further
fields are ignored. It gets every reachable position whose game is not over,
with --all-boards the finished ones too, or a reproducible --sample N --seed S.
Disagreements are counted by ply and the first are drawn with the expected
answer and a line of perfect play.

--timeout limits how long a program may stay silent, not the whole run: a
slow program that keeps answering is not stopped. --total-timeout limits the
whole run. The program and any children it starts are stopped at the end, on
an error and on an interrupt. Exit 0 when every answer is right, 1 when some
are not, 2 when the program misbehaves (cannot start, crashes, is silent too
long, answers what cannot be read, too few or too many lines).`

func newVerifyCmd(g *globalOptions) *cobra.Command {
	opts := &verifyOptions{globalOptions: g}
	c := &cobra.Command{
		Use:     "verify",
		Short:   "Prove the checkers and the solver agree on every position, or test your own checker",
		Long:    verifyHelp,
		Example: "  tateti-lab verify\n  tateti-lab verify --all-boards\n  tateti-lab verify --size 4x4 --json\n  tateti-lab verify --external 'python3 checker.py' --cells 0,1,-1 --results 0,1,2,3\n  tateti-lab verify --solver 'python3 solver.py' --check value,depth,best\n  tateti-lab verify --size 4x4 --solver 'python3 solver.py' --sample 1000 --seed 7",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			switch {
			case c.Flags().Changed("external") && c.Flags().Changed("solver"):
				return fmt.Errorf("--external and --solver test different programs, give one of them")
			case c.Flags().Changed("external"):
				return runExternal(c, opts)
			case c.Flags().Changed("solver"):
				return runSolverProgram(c, opts)
			}
			return runVerify(c, opts)
		},
	}
	f := c.Flags()
	f.BoolVar(&opts.allBoards, "all-boards", false, "also run over every raw board, reachable or not")
	f.StringVar(&opts.external, "external", "", "test this checker program, such as 'python3 checker.py'")
	f.StringVar(&opts.results, "results", "X,O,draw,open", "with --external: the tokens for X wins, O wins, draw and in progress")
	f.StringVar(&opts.solver, "solver", "", "test this solver program, such as 'python3 solver.py'")
	f.StringVar(&opts.values, "values", "1,0,-1", "with --solver: the tokens for X wins, draw and O wins")
	f.StringVar(&opts.check, "check", "value", "with --solver: what to compare: value, and depth and best if named, such as value,depth,best")
	opts.programOptions.bind(f)
	return c
}

type verifyView struct {
	Game      rules.Spec          `json:"game"`
	OK        bool                `json:"ok"`
	Positions *verify.CheckReport `json:"positions"`
	Solver    crossChecks         `json:"solver"`
	AllBoards *verify.RawReport   `json:"all_boards,omitempty"`
}

type crossChecks struct {
	Recurrence *verify.RecurrenceReport `json:"recurrence"`
	Naive      *verify.NaiveReport      `json:"naive"`
}

func runVerify(c *cobra.Command, opts *verifyOptions) error {
	rl, err := opts.exhaustive()
	if err != nil {
		return err
	}
	for _, f := range append([]string{"results", "values", "check"}, programFlags...) {
		if c.Flags().Changed(f) {
			return fmt.Errorf("--%s goes with --external or --solver 'PROGRAM ARGS'", f)
		}
	}
	if err := checkAllBoards(opts.allBoards, rl.Spec()); err != nil {
		return err
	}
	ctx := c.Context()
	e, err := enumerate.All(ctx, rl, opts.workers)
	if err != nil {
		return err
	}
	cs, err := checker.All(rl.Spec().Spec)
	if err != nil {
		return err
	}
	v := verifyView{Game: rl.Spec()}
	if v.Positions, err = verify.Positions(ctx, e, cs, opts.workers); err != nil {
		return err
	}
	sol, err := solve.All(ctx, e, opts.workers)
	if err != nil {
		return err
	}
	if v.Solver.Recurrence, err = verify.Recurrence(ctx, sol, opts.workers); err != nil {
		return err
	}
	if v.Solver.Naive, err = verify.Naive(ctx, sol); err != nil {
		return err
	}
	if opts.allBoards {
		if v.AllBoards, err = verify.AllBoards(ctx, e, cs, opts.workers); err != nil {
			return err
		}
	}
	v.OK = v.Positions.Disagree == 0 && v.Solver.Recurrence.Fail == 0 && v.Solver.Naive.Disagree == 0 &&
		(v.AllBoards == nil || (v.AllBoards.Reachable.Disagree == 0 && v.AllBoards.Mismatches == 0))
	w := c.OutOrStdout()
	if opts.json {
		err = writeJSON(w, v)
	} else {
		err = printVerify(w, v)
	}
	if err == nil && !v.OK {
		return errDisagree
	}
	return err
}

func printVerify(w io.Writer, v verifyView) error {
	s := v.Game
	p := v.Positions
	fmt.Fprintf(w, "%s: %s reachable positions\n\n", s.Words(), commas(p.Boards))
	fmt.Fprintln(w, "checkers on every reachable position (bitmask is the reference):")
	printTallies(w, p)
	if p.Disagree == 0 {
		fmt.Fprintf(w, "all %d voices agree on all %s positions\n", len(p.Voices), commas(p.Boards))
	} else {
		fmt.Fprintf(w, "DISAGREE: the voices differ on %s positions; the first:\n", commas(p.Disagree))
		printDisagreements(w, p.Voices, p.First)
	}

	rec, nv := v.Solver.Recurrence, v.Solver.Naive
	fmt.Fprintln(w, "\nsolver:")
	fmt.Fprintf(w, "  minimax recurrence holds on %s of %s positions\n", commas(rec.Hold), commas(rec.Positions))
	for _, f := range rec.First {
		fmt.Fprintf(w, "    FAIL %s\n", f)
	}
	if nv.Ran {
		fmt.Fprintf(w, "  naive solver (plain recursion, no memo) agrees on %s of %s positions, visiting %s move sequences\n",
			commas(nv.Agree), commas(nv.Positions), commas(nv.Nodes))
		for _, f := range nv.First {
			fmt.Fprintf(w, "    DISAGREE %s\n", f)
		}
	} else {
		fmt.Fprintf(w, "  naive solver not run: %s\n", nv.Why)
	}

	if r := v.AllBoards; r != nil {
		printRaw(w, r)
	}
	if v.OK {
		fmt.Fprintln(w, "\nok: every check agrees")
	} else {
		fmt.Fprintln(w, "\nFAILED: a check found a disagreement")
	}
	return nil
}

func printTallies(w io.Writer, r *verify.CheckReport) {
	t := newTable(w)
	fmt.Fprintln(t, "  voice\tx_won\to_won\tdraw\tin_progress\tagree\tdisagree\t")
	for _, tl := range r.Tallies {
		fmt.Fprintf(t, "  %s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", tl.Voice, commas(tl.XWon), commas(tl.OWon), commas(tl.Draw), commas(tl.Open), commas(tl.Agree), commas(tl.Disagree))
	}
	t.Flush()
}

func printRaw(w io.Writer, r *verify.RawReport) {
	fmt.Fprintf(w, "\nall %s raw boards, by whether they can arise:\n", commas(r.Boards))
	t := newTable(w)
	for _, rc := range r.ByReason {
		fmt.Fprintf(t, "  %s\t%s\t\n", rc.Reason, commas(rc.Boards))
	}
	t.Flush()
	if r.Mismatches == 0 {
		fmt.Fprintln(w, "the reachability test agrees with the enumeration on every board")
	} else {
		fmt.Fprintf(w, "DISAGREE: the reachability test and the enumeration differ on %s boards: %s\n", commas(r.Mismatches), strings.Join(r.FirstMismatch, "; "))
	}
	if r.Reachable.Disagree == 0 {
		fmt.Fprintf(w, "all voices agree on all %s reachable boards\n", commas(r.Reachable.Boards))
	} else {
		fmt.Fprintf(w, "DISAGREE: the voices differ on %s reachable boards; the first:\n", commas(r.Reachable.Disagree))
		printDisagreements(w, r.Reachable.Voices, r.Reachable.First)
	}
	u := r.Unreachable
	fmt.Fprintf(w, "on the %s boards that cannot arise the voices agree on %s and differ on %s (a finding, not a failure):\n",
		commas(u.Boards), commas(u.Agree), commas(u.Disagree))
	t = newTable(w)
	fmt.Fprintf(t, "  reason\t%s\tboards\tfirst board\t\n", strings.Join(u.Voices, "\t"))
	for _, p := range r.Patterns {
		fmt.Fprintf(t, "  %s\t%s\t%s\t%s\t\n", p.Reason, strings.Join(p.Statuses, "\t"), commas(p.Boards), p.Example)
	}
	t.Flush()
}

// printDisagreements draws each board with every voice's answer beside it.
func printDisagreements(w io.Writer, voices []string, ds []verify.Disagreement) {
	for _, d := range ds {
		var parts []string
		for v, st := range d.Statuses {
			parts = append(parts, voices[v]+" "+st)
		}
		drawBoard(w, d.Board, fmt.Sprintf("%s (state %d)", d.Board, d.StateID), strings.Join(parts, ", "))
	}
}

// checkAllBoards refuses --all-boards past 16 cells: it walks all 3^n raw
// boards, not the reachable ones.
func checkAllBoards(on bool, s rules.Spec) error {
	if on && s.Cells() > index.DenseCells {
		return fmt.Errorf("--all-boards walks all 3^n raw boards and stops at %d cells (%s boards); %s has %d cells, %s boards",
			index.DenseCells, commas(int64(game.Pow3(index.DenseCells))), s.Size(), s.Cells(), commas(int64(game.Pow3(s.Cells()))))
	}
	return nil
}
