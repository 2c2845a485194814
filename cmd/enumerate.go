package cmd

import (
	"io"

	"github.com/spf13/cobra"
	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/report"
)

// EnumerateOptions are the options of enumerate.
type EnumerateOptions struct {
	GameOptions
}

// NewCmdEnumerate builds enumerate; runF, when not nil, runs instead of the
// command's own run (tests of the flags give one).
func NewCmdEnumerate(f *Factory, runF func(*EnumerateOptions) error) *cobra.Command {
	opts := &EnumerateOptions{}
	return &cobra.Command{
		Use:   "enumerate",
		Short: "Count every reachable position, game and move sequence",
		Long: `Enumerate walks every position that can arise from the empty board and counts
them by ply: positions, terminal positions by status, classes up to the
symmetries of the board; and in total: complete games by winner and move
sequences (every prefix of every game, the empty one included).` + memoryHelp,
		Example: "  tateti-lab enumerate\n  tateti-lab enumerate --size 4x4 --json",
		Args:    noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			var err error
			if opts.GameOptions, err = f.exhaustive(c); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runEnumerate(opts)
		},
	}
}

func runEnumerate(opts *EnumerateOptions) error {
	counts, err := enumerate.CountGame(opts.Ctx, opts.Rules, opts.Workers)
	if err != nil {
		return err
	}
	return show(opts.GameOptions, counts, true, func(w io.Writer) error { return report.Counts(w, counts) })
}
