package cmd

import (
	"io"

	"github.com/spf13/cobra"
	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/report"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
)

// SolveOptions are the options of solve: the whole game by Plan, or one
// position, Board, when Position is set.
type SolveOptions struct {
	GameOptions
	Position bool       // --position or --moves was given
	Board    game.Board // the position to analyse, after --moves
	Plan     solve.Plan // how the whole game is solved
}

// NewCmdSolve builds solve; runF, when not nil, runs instead of the
// command's own run.
func NewCmdSolve(f *Factory, runF func(*SolveOptions) error) *cobra.Command {
	opts := &SolveOptions{}
	var position, moves string
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
--gravity columns in Connect-Four notation, 1 at the left, such as 4453.` + memoryHelp,
		Example: "  tateti-lab solve\n  tateti-lab solve --position 'XX./O../...'\n  tateti-lab solve --size 4x4 --position 'o.../.ox./.xxx/xooo' --json\n  tateti-lab solve --gravity --size 4x5 --k 4 --moves 3343",
		Args:    noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			var err error
			if opts.GameOptions, err = f.options(c); err != nil {
				return err
			}
			opts.Position = c.Flags().Changed("position") || c.Flags().Changed("moves")
			if opts.Position {
				opts.Board, err = parsePosition(opts.Rules, position, moves, f.Memory())
			} else {
				opts.Plan, err = solve.PlanFor(opts.Rules, f.Memory())
			}
			if err != nil {
				return flagError(err)
			}
			if runF != nil {
				return runF(opts)
			}
			return runSolve(opts)
		},
	}
	c.Flags().StringVar(&position, "position", "", "analyse this board, such as 'XO./.X./..O'")
	c.Flags().StringVar(&moves, "moves", "", "play these moves first: cells such as 4,0,8, or under --gravity columns from 1 such as 4453")
	return c
}

func runSolve(opts *SolveOptions) error {
	if opts.Position {
		a, err := solve.Analyze(opts.Ctx, opts.Rules, opts.Board, opts.Workers)
		if err != nil {
			return err
		}
		p := report.NewPosition(a)
		return show(opts.GameOptions, p, true, func(w io.Writer) error { return report.Text(w, p, opts.IO.Style()) })
	}
	report.Plan(opts.IO.ErrOut, opts.Plan)
	s, err := solve.Summarize(opts.Ctx, opts.Rules, opts.Plan, opts.Workers)
	if err != nil {
		return err
	}
	return show(opts.GameOptions, s, true, func(w io.Writer) error { return report.Summary(w, s, opts.IO.Style()) })
}

// parsePosition reads the board of --position (empty: the empty board),
// which must be able to arise, and plays --moves on it; what can follow the
// board must fit the board limit and memory of exhaustive work.
func parsePosition(rl rules.Rules, position, moves string, memory uint64) (game.Board, error) {
	b, err := readPosition(rl, position, moves)
	if err != nil {
		return b, err
	}
	if err := enumerate.CheckSize(rl.Spec()); err != nil {
		return b, err
	}
	return b, enumerate.CheckMemoryFrom(rl.Spec(), b, memory)
}

// readPosition reads the board of --position and plays --moves on it.
func readPosition(rl rules.Rules, position, moves string) (game.Board, error) {
	var b game.Board
	if position != "" {
		var err error
		if b, err = rl.Spec().Parse(position); err != nil {
			return b, err
		}
		if err := rules.CheckReachable(rl, b); err != nil {
			return b, err
		}
	}
	return rules.Play(rl, b, moves)
}
