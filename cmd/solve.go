package cmd

import (
	"io"

	"github.com/spf13/cobra"
	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/report"
	"github.com/tateti-lab/tateti-lab/tier"
)

// SolveOptions are the options of solve: the whole game by Plan, or from
// the database DB, or one position, Board, when Position is set.
type SolveOptions struct {
	GameOptions
	Position bool      // --position or --moves was given, or the board is past the whole game's limit
	Query              // the position to analyse, and who answers it
	Plan     tier.Plan // how the whole game is solved
	DB       string    // with no position: the finished database the whole game is read from
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

One position is answered by the table, the game solved exhaustively from it,
where that fits (boards of up to 25 cells, in memory), and otherwise by
search, one position at a time, which handles every board of up to 64 cells
(Connect Four's 6x7, gravity and free 8x8, free 6x6), fastest where a column
with a spare cell fits 64 bits (gravity 6x7, 7x8) or a free board 32 (5x5,
4x7); --oracle chooses, and the answer says which answered. --time-limit
bounds a search: what it proved by then is the answer, with exit 1.

--db DIR reads the whole game from the finished database in DIR, as db build
writes it (games past memory: Connect Four with 6 columns and 5 rows), every
tier checked against its checksum; with --position or --moves, --db answers
from it. --db never writes: db build does.`

// NewCmdSolve builds solve; runF, when not nil, runs instead of the
// command's own run.
func NewCmdSolve(f *Factory, runF func(*SolveOptions) error) *cobra.Command {
	opts := &SolveOptions{}
	var pf positionFlags
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
			// Past the exhaustive limit the whole game is the empty board,
			// answered by search.
			past := enumerate.CheckSize(opts.Rules.Spec()) != nil
			one := c.Flags().Changed("position") || c.Flags().Changed("moves")
			whole := c.Flags().Changed("db") && !one
			opts.Position = !whole && (one || past)
			for _, name := range []string{"oracle", "time-limit"} {
				if !opts.Position && c.Flags().Changed(name) {
					return flagErrorf("--%s goes with one position: give --position or --moves too, or leave it out to solve the whole game", name)
				}
			}
			switch {
			case whole:
				opts.DB = pf.db
				if _, err := db.Finished(pf.db, opts.Rules.Spec()); err != nil {
					return dbFlagError(err, opts.Rules.Spec(), pf.db)
				}
			case opts.Position:
				if opts.Query, err = pf.resolve(opts.GameOptions, f.Memory()); err != nil {
					return dbFlagError(err, opts.Rules.Spec(), pf.db)
				}
			default:
				if opts.Plan, err = tier.PlanFor(opts.Rules, f.Memory(), opts.Workers); err != nil {
					return flagError(err)
				}
			}
			if runF != nil {
				return runF(opts)
			}
			return runSolve(opts)
		},
	}
	pf.bind(c, "analyse this board, such as 'XO./.X./..O'", "play these moves first: cells such as 4,0,8, or under --gravity columns from 1 such as 4453")
	c.Flags().Lookup("db").Usage = "read the whole game from the finished database in this folder, as db build writes it; with --position or --moves, answer from it"
	return c
}

func runSolve(opts *SolveOptions) error {
	if opts.DB != "" {
		s, err := tier.Summary(opts.Ctx, opts.Rules, opts.DB)
		if err != nil {
			return err
		}
		return show(opts.GameOptions, s, true, func(w io.Writer) error { return report.Summary(w, s, opts.IO.Style()) })
	}
	if opts.Position {
		a, err := opts.answer(opts.Ctx)
		if err != nil {
			return err
		}
		p := report.NewPosition(a)
		if err := show(opts.GameOptions, p, true, func(w io.Writer) error { return report.Text(w, p, opts.IO.Style()) }); err != nil || a.Proved == nil {
			return err
		}
		return unsettledError(opts.Query, *a.Proved)
	}
	report.Plan(opts.IO.ErrOut, opts.Plan)
	if opts.Plan.Method == tier.Tiers {
		defer lowGC()()
	}
	s, err := tier.Whole(opts.Ctx, opts.Rules, opts.Plan, opts.Workers)
	if err != nil {
		return err
	}
	return show(opts.GameOptions, s, true, func(w io.Writer) error { return report.Summary(w, s, opts.IO.Style()) })
}
