package cmd

import (
	"context"
	"io"

	"github.com/spf13/cobra"
	"github.com/tateti-lab/tateti-lab/report"
	"github.com/tateti-lab/tateti-lab/verify"
)

// VerifyOptions are the options of verify, the lab's own proofs.
type VerifyOptions struct {
	GameOptions
	AllBoards bool
}

// NewCmdVerify builds verify, with checker and solver; runF, if any,
// replaces verify's own run.
func NewCmdVerify(f *Factory, runF func(*VerifyOptions) error) *cobra.Command {
	opts := &VerifyOptions{}
	c := &cobra.Command{
		Use:   "verify",
		Short: "Prove the checkers and the solver agree on every position, or test your own program",
		Long: `Verify runs four independent win checkers (primes, product, counter, lines:
the prime-product article's, the Codewars product kata's, the counter
article's and the contest-programming report's algorithms) and the bitmask
status on every reachable position, and cross-checks the solver: the minimax
recurrence on every position, and a naive solver (plain recursion, no memo)
where it is small enough. It exits 1 when anything disagrees.

--all-boards also runs over every raw board, counts the boards that cannot
arise by the reason, and shows how the checkers differ on them (a finding, not
a failure).

verify checker and verify solver test your own program instead: see their
--help, and docs/protocols.md.` + memoryHelp,
		Example: "  tateti-lab verify\n  tateti-lab verify --all-boards\n  tateti-lab verify --size 4x4 --json",
		Args:    noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			var err error
			if opts.GameOptions, err = f.exhaustive(c); err != nil {
				return err
			}
			if err := checkAllBoards(opts.AllBoards, opts.GameOptions); err != nil {
				return err
			}
			return runOr(c.Context(), runF, runVerify, opts)
		},
	}
	c.Flags().BoolVar(&opts.AllBoards, "all-boards", false, "also run over every raw board, reachable or not")
	c.AddCommand(NewCmdVerifyChecker(f, nil), NewCmdVerifySolver(f, nil))
	return c
}

func runVerify(ctx context.Context, opts *VerifyOptions) error {
	r, err := verify.Run(ctx, opts.Rules, opts.AllBoards, opts.Workers)
	if err != nil {
		return err
	}
	return show(opts.GameOptions, r, r.OK, func(w io.Writer) error { return report.Verify(w, r) })
}

// checkAllBoards refuses --all-boards where the raw boards are too many.
func checkAllBoards(on bool, o GameOptions) error {
	if !on {
		return nil
	}
	if err := verify.CheckAllBoards(o.Rules.Spec()); err != nil {
		return flagErrorf("--all-boards: %w; leave it out or choose a smaller --size", err)
	}
	return nil
}
