package cmd

import (
	"context"
	"io"

	"github.com/spf13/cobra"
	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/report"
	"github.com/tateti-lab/tateti-lab/tier"
)

// EnumerateOptions are the options of enumerate.
type EnumerateOptions struct {
	GameOptions
	MaxPly int    // the last ply counted; -1 for the whole game
	Memory uint64 // what the layers of --max-ply may take
	// Estimate bounds what counting plies 0 to MaxPly needs, with --max-ply.
	Estimate enumerate.ShallowEstimate
	DB       string // the finished database the whole game's counts are read from
}

// enumerateLong is the command's long help.
const enumerateLong = `Enumerate walks every position that can arise from the empty board and counts
them by ply: positions, terminal positions by status, classes up to the
symmetries of the board; and in total: complete games by winner and move
sequences (every prefix of every game, the empty one included). A class is
quiet when its positions are in progress and the side to move neither wins at
once nor must stop a line at once: UCI's Connect-4 data set holds the quiet
classes of ply 8 of Connect Four.

--max-ply N counts only plies 0 to N, on any board up to 64 cells, a layer at
a time in memory; complete games are then those that end by ply N.

--db DIR reads each ply's positions and finished boards from the finished
database in DIR, as db build writes it; classes and move sequences are not
counted there.`

// NewCmdEnumerate builds enumerate; runF, if any, replaces its run.
func NewCmdEnumerate(f *Factory, runF func(*EnumerateOptions) error) *cobra.Command {
	opts := &EnumerateOptions{}
	c := &cobra.Command{
		Use:     "enumerate",
		Short:   "Count every reachable position, game and move sequence",
		Long:    enumerateLong + memoryHelp,
		Example: "  tateti-lab enumerate\n  tateti-lab enumerate --size 4x4 --json\n  tateti-lab enumerate --gravity --size 6x7 --k 4 --max-ply 8",
		Args:    noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			var err error
			if opts.GameOptions, err = f.options(c); err != nil {
				return err
			}
			cells := opts.Rules.Spec().Cells()
			switch {
			case c.Flags().Changed("db") && c.Flags().Changed("max-ply"):
				return flagErrorf("--db reads the whole game's counts, and --max-ply counts its first plies in memory; give one of them")
			case c.Flags().Changed("db"):
				if _, err := db.Depths(opts.DB, opts.Rules.Spec()); err != nil {
					return dbFlagError(err, opts.Rules.Spec(), opts.DB)
				}
				opts.MaxPly = -1
			case !c.Flags().Changed("max-ply") && cells > enumerate.MaxCells:
				return flagErrorf("size %s has %d cells, too many to enumerate whole (at most %d): --max-ply N counts its first N plies", opts.Rules.Spec().Size(), cells, enumerate.MaxCells)
			case !c.Flags().Changed("max-ply"):
				opts.MaxPly = -1
				if opts.GameOptions, err = f.exhaustive(c); err != nil {
					return err
				}
			default:
				if err := checkMaxPly(opts.MaxPly, cells); err != nil {
					return err
				}
				opts.Estimate = enumerate.EstimateShallow(opts.Rules.Spec(), opts.MaxPly)
				if err := opts.Estimate.Check(f.Memory()); err != nil {
					return err
				}
			}
			opts.Memory = f.Memory()
			return runOr(c.Context(), runF, runEnumerate, opts)
		},
	}
	c.Flags().IntVar(&opts.MaxPly, "max-ply", 0, "count only plies 0 to N, on any board up to 64 cells")
	c.Flags().StringVar(&opts.DB, "db", "", "read the whole game's counts from the finished database in this folder, as db build writes it")
	return c
}

func runEnumerate(ctx context.Context, opts *EnumerateOptions) error {
	if opts.DB != "" {
		c, err := tier.Count(opts.Rules, opts.DB)
		if err != nil {
			return err
		}
		return show(opts.GameOptions, c, true, func(w io.Writer) error { return report.TierCounts(w, c) })
	}
	var counts enumerate.Counts
	var err error
	if opts.MaxPly >= 0 {
		report.ShallowPlan(opts.IO.Notes, opts.Estimate)
		defer enumerate.ShallowPolicy(opts.Memory).Apply()()
		counts, err = enumerate.Shallow(ctx, opts.Rules, opts.MaxPly, opts.Workers, opts.Memory)
	} else {
		counts, err = enumerate.CountGame(ctx, opts.Rules, opts.Workers)
	}
	if err != nil {
		return err
	}
	return show(opts.GameOptions, counts, true, func(w io.Writer) error { return report.Counts(w, counts) })
}
