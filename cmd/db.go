package cmd

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/report"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/tier"
)

// NewCmdDB builds db, whose verbs build and inspect databases: as tablebase
// tools keep generation apart from probing, --db on every other command
// only reads.
func NewCmdDB(f *Factory) *cobra.Command {
	c := &cobra.Command{
		Use:   "db",
		Short: "Build, check and inspect a database of a solved game",
		Long: `A database is a folder that holds a whole game solved tier by tier on disk,
a ply at a time from the last (docs/database.md gives the format): games past
memory solve whole that way (Connect Four with 6 columns and 5 rows). db build
writes one, db check holds every tier to its checksum and counts, and db info
says what a folder holds. Every other command reads a finished database with
--db DIR, and never writes one.`,
		Args: noArgs,
	}
	c.AddCommand(NewCmdDBBuild(f, nil), NewCmdDBCheck(f, nil), NewCmdDBInfo(f, nil))
	return c
}

// DBBuildOptions are the options of db build.
type DBBuildOptions struct {
	GameOptions
	tierTarget
	MaxPly int // with ReachOnly: the last ply of the forward pass
}

// NewCmdDBBuild builds db build; runF, when not nil, runs instead of the
// command's own run.
func NewCmdDBBuild(f *Factory, runF func(*DBBuildOptions) error) *cobra.Command {
	opts := &DBBuildOptions{}
	c := &cobra.Command{
		Use:   "build DIR",
		Short: "Solve the whole game tier by tier into a database folder",
		Long: `Build solves the whole game tier by tier on disk into the database folder
DIR: a forward pass marks the placements play reaches, ply by ply, and a
backward pass solves each ply from the one after it, from the last ply to the
empty board. Before any work it says what the build needs (memory, disk,
time) and refuses, with exit 2, what will not fit. A build that is stopped
resumes when run again with the same flags; on a finished database it reads
it. It prints what solve prints of the whole game.

--reach-only runs the forward pass alone and counts each ply's positions: it
fits where the whole build does not (free 5x5 with k=4), resumes when run
again, and a later db build DIR goes on from it; with --max-ply N it stops at
ply N.`,
		Example: "  tateti-lab db build --size 3x4 --k 3 d34\n  tateti-lab db build --gravity --size 5x6 --k 4 c4-5x6\n  tateti-lab db build --size 5x5 --k 4 --reach-only f55",
		Args:    dirArg,
		RunE: func(c *cobra.Command, args []string) error {
			var err error
			if opts.GameOptions, err = f.options(c); err != nil {
				return err
			}
			if c.Flags().Changed("max-ply") && !opts.ReachOnly {
				return flagErrorf("--max-ply goes with --reach-only, the forward pass alone")
			}
			if !c.Flags().Changed("max-ply") {
				opts.MaxPly = -1
			} else if err := checkMaxPly(opts.MaxPly, opts.Rules.Spec().Cells()); err != nil {
				return err
			}
			if err := opts.tierTarget.resolve(args[0], opts.Rules, opts.Workers, f.Memory()); err != nil {
				return dbFlagError(err, opts.Rules.Spec(), args[0])
			}
			if runF != nil {
				return runF(opts)
			}
			return runDBBuild(opts)
		},
	}
	c.Flags().BoolVar(&opts.ReachOnly, "reach-only", false, "only the forward pass: count the positions play reaches by ply, which fits where the whole build does not")
	c.Flags().IntVar(&opts.MaxPly, "max-ply", 0, "with --reach-only: stop the forward pass at ply N")
	return c
}

func runDBBuild(opts *DBBuildOptions) error {
	defer opts.start(opts.IO.ErrOut)()
	if opts.ReachOnly {
		r, err := tier.ReachTo(opts.Ctx, opts.Rules, opts.DB, opts.Workers, opts.MaxPly)
		if err != nil {
			return err
		}
		return show(opts.GameOptions, r, true, func(w io.Writer) error { return report.Reached(w, r) })
	}
	s, err := tier.Build(opts.Ctx, opts.Rules, opts.DB, opts.Workers)
	if err != nil {
		return err
	}
	return show(opts.GameOptions, s, true, func(w io.Writer) error { return report.Summary(w, s, opts.IO.Style()) })
}

// DBFolderOptions are the options of db check and db info: a database
// folder, whose manifest or marker names its game.
type DBFolderOptions struct {
	GameOptions
	DB string
}

// NewCmdDBCheck builds db check; runF, when not nil, runs instead of the
// command's own run.
func NewCmdDBCheck(f *Factory, runF func(*DBFolderOptions) error) *cobra.Command {
	opts := &DBFolderOptions{}
	c := &cobra.Command{
		Use:   "check DIR",
		Short: "Hold every tier of a database to its checksum and counts",
		Long: `Check reads every tier of the finished database in DIR whole and holds it to
the manifest: the file's size and SHA-256, each block's checksum, and the
ply's positions by value and finished boards counted again from its codes;
then the manifest's total and the empty board's value. It names each
damaged tier and exits 1 when any is. The game is the manifest's: give no
game flags.`,
		Example: "  tateti-lab db check c4-5x6",
		Args:    dirArg,
		RunE: func(c *cobra.Command, args []string) error {
			if err := opts.resolve(c, f, args[0]); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			checked, err := tier.Check(opts.Ctx, opts.DB, opts.Workers)
			if err != nil {
				in, _ := tier.Inspect(opts.DB) // an unfinished build's game, for the hint
				return dbFlagError(err, in.Game, opts.DB)
			}
			return show(opts.GameOptions, checked, checked.OK, func(w io.Writer) error { return report.Checked(w, checked) })
		},
	}
	return c
}

// NewCmdDBInfo builds db info; runF, when not nil, runs instead of the
// command's own run.
func NewCmdDBInfo(f *Factory, runF func(*DBFolderOptions) error) *cobra.Command {
	opts := &DBFolderOptions{}
	c := &cobra.Command{
		Use:   "info DIR",
		Short: "Say what a database folder holds: its game, plies, sizes, what is finished",
		Long: `Info says what the database folder DIR holds, finished or not, without
reading its tiers: the game, the empty board's value once finished, and for
each ply its placements, its positions once counted, and which of its files
are written (the forward pass's bits, the tier). The game is the manifest's,
or an unfinished build's: give no game flags.`,
		Example: "  tateti-lab db info c4-5x6",
		Args:    dirArg,
		RunE: func(c *cobra.Command, args []string) error {
			if err := opts.resolve(c, f, args[0]); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			in, err := tier.Inspect(opts.DB)
			if err != nil {
				return flagError(err)
			}
			return show(opts.GameOptions, in, true, func(w io.Writer) error { return report.DBInfo(w, in) })
		},
	}
	return c
}

// resolve takes the folder, and refuses game flags: the database names its
// game.
func (o *DBFolderOptions) resolve(c *cobra.Command, f *Factory, dir string) error {
	for _, name := range []string{"size", "k", "gravity", "misere"} {
		if c.Flags().Changed(name) {
			return flagErrorf("--%s does not go with %s: the database's manifest names its game", name, c.CommandPath())
		}
	}
	var err error
	o.GameOptions, err = f.options(c)
	o.DB = dir
	return err
}

// dirArg takes exactly one argument, the database folder.
func dirArg(c *cobra.Command, args []string) error {
	if len(args) != 1 {
		return flagErrorf("%s takes one database folder, such as %s c4-5x6; got %d arguments", c.CommandPath(), c.CommandPath(), len(args))
	}
	return nil
}

// dbFlagError is bad input about the database folder dir: exit 2, with
// the command that builds the database of spec there added where the
// folder holds none finished.
func dbFlagError(err error, spec rules.Spec, dir string) error {
	if errors.Is(err, db.ErrUnfinished) {
		return flagErrorf("%w; build it with: tateti-lab db build %s%s", err, gameFlagsOf(spec), dir)
	}
	return flagError(err)
}

// gameFlagsOf gives the game flags that name spec, each followed by a
// space: "--gravity --size 5x6 --k 4 ".
func gameFlagsOf(spec rules.Spec) string {
	if spec.Cells() == 0 {
		return ""
	}
	var b strings.Builder
	if spec.Gravity {
		b.WriteString("--gravity ")
	}
	if spec.Misere {
		b.WriteString("--misere ")
	}
	fmt.Fprintf(&b, "--size %dx%d --k %d ", spec.Rows, spec.Cols, spec.K)
	return b.String()
}
