package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"github.com/tateti-lab/tateti-lab/external"
	"github.com/tateti-lab/tateti-lab/internal/protocol"
	"github.com/tateti-lab/tateti-lab/plan"
	"github.com/tateti-lab/tateti-lab/report"
)

// VerifyCheckerOptions are the options of verify checker.
type VerifyCheckerOptions struct {
	GameOptions
	Program   protocol.Program
	Results   [4]string // the tokens for X wins, O wins, draw, in progress
	AllBoards bool
}

// NewCmdVerifyChecker builds verify checker; runF, if any, replaces its run.
func NewCmdVerifyChecker(f *Factory, runF func(*VerifyCheckerOptions) error) *cobra.Command {
	opts := &VerifyCheckerOptions{}
	var prog programFlags
	var results string
	c := &cobra.Command{
		Use:   "checker [flags] -- PROGRAM [ARGS...]",
		Short: "Test your own win checker program on every position",
		Long: `Verify checker starts your checker program once and sends it one request line
per board on its stdin: the cells row-major, separated by single spaces,
spelled with the --cells tokens (X, O, empty). TATETI_ROWS, TATETI_COLS and
TATETI_K are set in its environment, and TATETI_GRAVITY=1 and
TATETI_MISERE=1 under those rules. It answers one line per board with a
--results token (X wins, O wins, draw, in progress). It gets every reachable
position, or with --all-boards every raw board.

--timeout limits how long the program may stay silent, not the whole run;
--total-timeout limits the whole run. The program and any children it starts
are stopped at the end, on an error and on an interrupt. Exit 0 when every
answer is right, 1 when some are not, 2 when the program misbehaves (cannot
start, crashes, is silent too long, answers what cannot be read, too few or
too many lines). docs/protocols.md has the protocol and examples.`,
		Example: "  tateti-lab verify checker -- python3 checker.py\n  tateti-lab verify checker --cells 0,1,-1 --results 0,1,2,3 -- python3 checker.py",
		RunE: func(c *cobra.Command, args []string) error {
			var err error
			if opts.GameOptions, err = f.exhaustive(c); err != nil {
				return err
			}
			toks, err := protocol.Tokens(results, 4, "X wins, O wins, draw, in progress")
			if err != nil {
				return flagErrorf("--results %w", err)
			}
			copy(opts.Results[:], toks)
			if err := checkAllBoards(opts.AllBoards, opts.GameOptions); err != nil {
				return err
			}
			if opts.Program, err = prog.parse(c, args); err != nil {
				return err
			}
			return runOr(c.Context(), runF, runVerifyChecker, opts)
		},
	}
	prog.bind(c.Flags())
	c.Flags().StringVar(&results, "results", "X,O,draw,open", "the tokens for X wins, O wins, draw and in progress")
	c.Flags().BoolVar(&opts.AllBoards, "all-boards", false, "send every raw board, reachable or not")
	return c
}

func runVerifyChecker(ctx context.Context, opts *VerifyCheckerOptions) error {
	x := &external.Checker{Program: opts.Program, Results: opts.Results}
	r, err := x.Verify(ctx, opts.Rules, opts.AllBoards, opts.Workers)
	if err != nil {
		return err
	}
	return show(opts.GameOptions, r, r.OK, func(w io.Writer) error { report.Checker(w, r); return nil })
}

// verifySolverHelp is verify solver's --help.
const verifySolverHelp = `Verify solver starts your solver program once and sends it one request line
per position, as verify checker does. It answers a line each: the value with
perfect play as a --values token (X wins, draw, O wins), then as --check
asks, the depth (plies to the end, the winner winning fastest and the loser
losing slowest) and the best moves in --move-format; further fields are
ignored. It gets every reachable position whose game is not over (with
--all-boards the finished ones too), a reproducible --sample N --seed S, or,
past the exhaustive limit or on positions of your own, the set --positions,
--sample with --plies, or --max-ply chooses. Disagreements are counted by
ply, the first drawn with the expected answer and a line of perfect play.
Timeouts and exit codes are as for verify checker; docs/protocols.md has the
protocol and examples.`

// VerifySolverOptions are the options of verify solver.
type VerifySolverOptions struct {
	GameOptions
	Program   protocol.Program
	Values    [3]string // the tokens for X wins, draw, O wins
	Check     external.Check
	Moves     protocol.MoveFormat
	Selection external.Selection
	// Set, when its Choice is not nil, chooses the positions
	// instead: any board up to 64 cells.
	plan.Set
}

// NewCmdVerifySolver builds verify solver; runF, if any, replaces its run.
func NewCmdVerifySolver(f *Factory, runF func(*VerifySolverOptions) error) *cobra.Command {
	opts := &VerifySolverOptions{}
	var prog programFlags
	who := f.engines()
	choice := choiceFlags{whole: true, who: &who}
	var values, check, moves string
	c := &cobra.Command{
		Use:   "solver [flags] -- PROGRAM [ARGS...]",
		Short: "Test your own solver program against perfect play",
		Long:  verifySolverHelp,
		Example: "  tateti-lab verify solver --check value,depth,best -- python3 solver.py\n  tateti-lab verify solver --size 4x4 --sample 1000 --seed 7 -- python3 solver.py\n" +
			"  tateti-lab verify solver --gravity --size 6x7 --k 4 --positions Test_L3_R1 -- ./c4solver",
		RunE: func(c *cobra.Command, args []string) error {
			var err error
			if opts.GameOptions, opts.Set, err = choice.options(c, f); err != nil {
				return err
			}
			toks, err := protocol.Tokens(values, 3, "X wins, draw, O wins")
			if err != nil {
				return flagErrorf("--values %w", err)
			}
			copy(opts.Values[:], toks)
			if opts.Check, err = external.ParseCheck(check); err != nil {
				return flagErrorf("--check %w", err)
			}
			if opts.Moves, err = moveFormat(moves, opts.GameOptions); err != nil {
				return err
			}
			opts.Selection.Sample, opts.Selection.Seed = choice.sample, choice.seed
			if opts.Program, err = prog.parse(c, args); err != nil {
				return err
			}
			return runOr(c.Context(), runF, runVerifySolver, opts)
		},
	}
	f2 := c.Flags()
	prog.bind(f2)
	choice.bind(c)
	who.bind(c.Flags(), "with a chosen set: "+dbHelp)
	f2.StringVar(&values, "values", "1,0,-1", "the tokens for X wins, draw and O wins")
	f2.StringVar(&check, "check", "value", "what to compare: value, and depth and best if named, such as value,depth,best")
	bindMoveFormat(f2, &moves, "a best move")
	f2.BoolVar(&opts.Selection.Terminal, "all-boards", false, "send the finished positions too")
	return c
}

func runVerifySolver(ctx context.Context, opts *VerifySolverOptions) error {
	x := &external.Solver{Program: opts.Program, Values: opts.Values, Check: opts.Check, Moves: opts.Moves}
	r, err := verifySolver(ctx, opts, x)
	if err != nil {
		return err
	}
	r.Answered = opts.Plan.Answered()
	return show(opts.GameOptions, r, r.OK, func(w io.Writer) error { report.Solver(w, r); return nil })
}

// verifySolver tests the solver on the whole game's positions, or on the
// chosen set, answered first.
func verifySolver(ctx context.Context, opts *VerifySolverOptions, x *external.Solver) (*external.SolverResult, error) {
	if opts.Choice == nil {
		return x.Verify(ctx, opts.Rules, opts.Selection, opts.Workers)
	}
	as, _, err := opts.Set.Answer(ctx, "verify", true) // a disagreement shows a line of perfect play
	if err != nil {
		return nil, err
	}
	r, err := x.VerifyAnalysed(ctx, opts.Rules, as, opts.Selection.Terminal)
	if errors.Is(err, external.ErrNoneInProgress) {
		err = fmt.Errorf("%w; --all-boards sends the finished ones too", err)
	}
	return r, err
}
