package cmd

import (
	"context"
	"errors"
	"io"

	"github.com/spf13/cobra"
	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/plan"
	"github.com/tateti-lab/tateti-lab/report"
	"github.com/tateti-lab/tateti-lab/view"
)

// SolveOptions are the options of solve: the whole game, or one position
// when Position is set (--position or --moves, or a board past what can be
// exhausted, whose empty board is answered).
type SolveOptions struct {
	GameOptions
	Position bool
	// Stdin answers the positions read from standard input, a line each,
	// as they come (--stdin), by the Query's plan, time limit and value-only.
	Stdin bool
	Query // the position to analyse; its Plan says who answers, as the whole game's does
}

// solveLong is the command's long help.
const solveLong = `Solve finds the value of every reachable position with perfect play (+1 X
wins, 0 draw, -1 O wins) and its depth: plies to the end when the winner wins
fastest and the loser loses slowest. It prints the value of the empty board,
positions by value and ply, and every first move.

With --position it analyses one board instead (and past 25 cells, where the
whole game cannot be exhausted, the empty board), exploring only what can follow
it: status, side to move, value, depth, and every legal move's value and depth
drawn on the board, best moves marked. --moves plays moves first (from
--position, or from the empty board): cell numbers such as 4,0,8, or under
--gravity columns in Connect-Four notation, 1 at the left, such as 4453.

Who answers is the planner's choice, said in the answer: memory, the game
solved exhaustively, where it fits (up to 25 cells), else search, on any
board of up to 64 cells; --engine names one. --time-limit bounds a
search: what it proved by then is the answer, with exit 1. --value-only
answers the position's value and depth alone, not each move's: search then
settles the position and none of its children. --no-depths answers values
without depths, win, draw or loss, the position's and every move's: a
fraction of the search's time, and from a win/draw/loss database (db build
of a game past memory) at once.

--db DIR reads the whole game, or answers a position, from the finished
database in DIR, as db build writes it; --db never writes.

--stdin answers positions a program sends, one a line on standard input
(a board such as 'XO./.X./..O', or moves from the empty board such as
4453), each on a line of JSON as soon as it is read, in order, until the
input ends: the engine is opened once, so a program that asks one
position at a time does not start a process for each. A line that is no
position is answered with its error, and the next is read
(docs/protocols.md).`

// NewCmdSolve builds solve; runF, if any, replaces its run.
func NewCmdSolve(f *Factory, runF func(*SolveOptions) error) *cobra.Command {
	opts := &SolveOptions{}
	who := f.engines()
	pf := positionFlags{who: &who}
	c := &cobra.Command{
		Use:     "solve",
		Short:   "Solve every position with perfect play, or analyse one",
		Long:    solveLong + memoryHelp,
		Example: "  tateti-lab solve\n  tateti-lab solve --position 'XX./O../...'\n  tateti-lab solve --size 4x4 --position 'o.../.ox./.xxx/xooo' --json\n  tateti-lab solve --gravity --size 4x5 --k 4 --moves 3343\n  tateti-lab solve --gravity --size 6x7 --k 4 --moves 44444343\n  tateti-lab solve --gravity --size 6x7 --k 4 --time-limit 10m\n  tateti-lab solve --gravity --size 5x6 --k 4 --db c4-5x6",
		Args:    noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			var err error
			if opts.GameOptions, err = f.options(c); err != nil {
				return err
			}
			if err := opts.resolve(c, pf, f.Memory()); err != nil {
				return err
			}
			return runOr(c.Context(), runF, runSolve, opts)
		},
	}
	pf.bind(c, "analyse this board, such as 'XO./.X./..O'", "play these moves first: cells such as 4,0,8, or under --gravity columns from 1 such as 4453")
	c.Flags().BoolVar(&pf.valueOnly, "value-only", false, "answer the position's value and depth alone, without each move's: search settles the position and none of its children")
	c.Flags().BoolVar(&pf.noDepths, "no-depths", false, "answer "+noDepthsHelp)
	who.bind(c.Flags(), "read the whole game from the finished database in this folder, as db build writes it; with --position, --moves or --stdin, answer from it")
	c.Flags().BoolVar(&opts.Stdin, "stdin", false, "answer positions read from standard input, one a line (a board, or moves from the empty board), each on a line of JSON as it is read, until the input ends")
	return c
}

// resolve has the planner choose who answers: one position, when --position
// or --moves is given, else the whole game; a board past what can be
// exhausted is its empty board.
func (opts *SolveOptions) resolve(c *cobra.Command, pf positionFlags, memory uint64) error {
	var err error
	if opts.Stdin {
		return opts.resolveStdin(c, pf, memory)
	}
	if c.Flags().Changed("position") || c.Flags().Changed("moves") {
		opts.Position = true
		opts.Query, err = pf.resolve(c, opts.GameOptions, memory)
		return err
	}
	if err := checkTimeLimit(pf.timeLimit); err != nil {
		return err
	}
	opts.Query = Query{TimeLimit: pf.timeLimit, ValueOnly: pf.valueOnly, NoDepths: pf.noDepths}
	if opts.Plan, err = pf.who.plan(plan.Request{Rules: opts.Rules, Scope: plan.Whole, Memory: memory, Workers: opts.Workers}); err != nil {
		return err
	}
	opts.Position = opts.Plan.Scope == plan.One
	for _, name := range []string{"engine", "time-limit", "value-only", "no-depths"} {
		if !opts.Position && c.Flags().Changed(name) {
			return flagErrorf("--%s goes with one position: give --position or --moves too, or leave it out to solve the whole game", name)
		}
	}
	return nil
}

// resolveStdin has the planner choose who answers the positions --stdin
// reads, one at a time; they come on standard input, not from
// --position or --moves.
func (opts *SolveOptions) resolveStdin(c *cobra.Command, pf positionFlags, memory uint64) error {
	for _, name := range []string{"position", "moves"} {
		if c.Flags().Changed(name) {
			return flagErrorf("--stdin reads the positions from standard input: send them there, one a line, and leave out --%s", name)
		}
	}
	if err := checkTimeLimit(pf.timeLimit); err != nil {
		return err
	}
	opts.Query = Query{TimeLimit: pf.timeLimit, ValueOnly: pf.valueOnly, NoDepths: pf.noDepths}
	var err error
	opts.Plan, err = pf.who.plan(plan.Request{Rules: opts.Rules, Scope: plan.Many, Memory: memory, Workers: opts.Workers})
	return err
}

func runSolve(ctx context.Context, opts *SolveOptions) error {
	if opts.Stdin {
		lines := report.NewLines(opts.IO.Out)
		err := opts.Plan.AnswerEach(ctx, opts.IO.In, oracle.Options{ValueOnly: opts.ValueOnly, NoDepths: opts.NoDepths, NoLines: true}, opts.TimeLimit, lines.Answer, lines.Flush)
		return errors.Join(err, lines.Flush())
	}
	if opts.Position {
		a, err := opts.answer(ctx)
		if err != nil {
			return err
		}
		p := view.NewPosition(a)
		p.Why = opts.Plan.Why
		if err := show(opts.GameOptions, p, true, func(w io.Writer) error { return report.Text(w, p, opts.IO.Style()) }); err != nil || a.Proved == nil {
			return err
		}
		return unsettledError(opts.Query, *a.Proved)
	}
	report.OnDisk(opts.IO.Notes, opts.Plan.Why, opts.Plan.OnDisk())
	s, err := opts.Plan.Whole(ctx)
	if err != nil {
		return err
	}
	s.Engine, s.Why = opts.Plan.Engine, opts.Plan.Why
	return show(opts.GameOptions, s, true, func(w io.Writer) error { return report.Summary(w, s, opts.IO.Style()) })
}
