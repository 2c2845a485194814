package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tateti-lab/tateti-lab/book"
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
		Long: `A database is a folder of a whole game solved tier by tier (docs/database.md).
db build writes it; every other command only reads it, with --db DIR.`,
		Args: noArgs,
	}
	c.AddCommand(NewCmdDBBuild(f, nil), NewCmdDBCheck(f, nil), NewCmdDBInfo(f, nil))
	return c
}

// DBBuildOptions are the options of db build.
type DBBuildOptions struct {
	GameOptions
	tier.Target
	MaxPly int // the last ply of the forward pass (ReachOnly) or of the opening book; -1 for the whole game
	// ValuesOnly asks for the win/draw/loss database (--wdl).
	ValuesOnly bool
	// prior is the book built in, where it holds the ply before an opening
	// book's last: its values bound the last ply's searches
	// (book.Bounds). Closed after the build.
	prior io.Closer
}

// NewCmdDBBuild builds db build; runF, if any, replaces its run.
func NewCmdDBBuild(f *Factory, runF func(*DBBuildOptions) error) *cobra.Command {
	opts := &DBBuildOptions{}
	c := &cobra.Command{
		Use:   "build DIR",
		Short: "Solve the whole game tier by tier into a database folder",
		Long: `Build solves the whole game tier by tier into the database folder DIR, a ply
at a time from the last, and prints what solve prints of the whole game.
Before any work it says what it needs (memory, disk, time) and refuses what
will not fit (exit 2); stopped, it resumes when run again.

--max-ply N builds an opening book instead: every position of plies 0 to N,
those of ply N valued by search, one at a time with their value alone, the
plies before from the ones after, as the whole game's; the same database
format, its manifest naming N. Any board up to 64 cells whose plies to N fit.
Where the book built in holds ply N-1, its values bound each search of ply N:
the same book, sooner.

--reach-only runs the forward pass alone, which fits where the whole build
does not, and counts each ply's positions (to ply N with --max-ply); a later
build goes on from it.

--wdl builds the win/draw/loss database instead: each board with no line
valued win, draw or loss for its side to move, two bits a board, no depths,
ranked by a decision diagram (docs/design/wdl-solve.md). Under gravity it is
built without the flag where values and depths do not fit and it does, as
for Connect Four 6x6; the plan says so. db info and db check read it, and
solve, serve and export --db probe it as any database: the values from its
tiers, each depth by a search it guides.`,
		Example: "  tateti-lab db build --size 3x4 --k 3 d34\n  tateti-lab db build --gravity --size 5x6 --k 4 c4-5x6\n  tateti-lab db build --gravity --size 6x7 --k 4 --max-ply 8 c4-book\n  tateti-lab db build --size 5x5 --k 4 --reach-only f55\n  tateti-lab db build --gravity --size 6x6 --k 4 c4-6x6",
		Args:    dirArg,
		RunE: func(c *cobra.Command, args []string) error {
			var err error
			if opts.GameOptions, err = f.options(c); err != nil {
				return err
			}
			if err := buildTarget(c, opts, args[0], f.Memory()); err != nil {
				return err
			}
			return runOr(c.Context(), runF, runDBBuild, opts)
		},
	}
	c.Flags().BoolVar(&opts.ReachOnly, "reach-only", false, "only the forward pass: count the positions play reaches by ply, which fits where the whole build does not")
	c.Flags().IntVar(&opts.MaxPly, "max-ply", 0, "build an opening book of plies 0 to N, ply N valued by search; with --reach-only: stop the forward pass at ply N")
	c.Flags().BoolVar(&opts.ValuesOnly, "wdl", false, "build the win/draw/loss database: values alone, two bits a board with no line, which fits where values and depths do not (chosen then without it); with --reach-only: its forward pass, in memory")
	return c
}

// buildTarget checks, before any work, what db build is to build into
// dir within memory bytes: the whole game's values and depths, its
// opening book, its forward pass, or with --wdl its win/draw/loss
// database, also chosen for the whole game under gravity where values
// and depths do not fit and it does, or where dir holds one already.
func buildTarget(c *cobra.Command, opts *DBBuildOptions, dir string, memory uint64) error {
	if opts.ValuesOnly && c.Flags().Changed("max-ply") {
		return flagErrorf("--wdl builds the whole game; leave out --max-ply")
	}
	if opts.ValuesOnly || opts.Rules.Spec().Gravity && !c.Flags().Changed("max-ply") && tier.HoldsWDL(dir) {
		return wdlTarget(opts, dir, memory, "")
	}
	job, err := buildJob(c, opts)
	if err != nil {
		return err
	}
	whole := opts.MaxPly < 0 && !opts.ReachOnly && opts.Rules.Spec().Gravity // either kind may be built
	if opts.Target, err = tier.NewTarget(dir, job, opts.Workers, memory, opts.ReachOnly); err != nil {
		if whole && wdlTarget(opts, dir, memory, err.Error()) == nil {
			return nil
		}
		if errors.Is(err, tier.ErrOnlyReachFits) {
			err = fmt.Errorf("%w: db build --reach-only with the same flags", err)
		}
		return dbFlagError(err, opts.Rules.Spec(), dir)
	}
	if whole && !opts.Target.Finished {
		opts.Target.Why = opts.Target.Fits(memory)
	}
	return nil
}

// wdlTarget makes opts' target the win/draw/loss database in dir, within
// memory bytes, chosen because of why ("" where --wdl asks for it).
func wdlTarget(opts *DBBuildOptions, dir string, memory uint64, why string) error {
	j, err := tier.NewWDLJob(opts.Rules)
	if err != nil {
		return err
	}
	t, err := tier.NewWDLTarget(dir, j, opts.Workers, memory, opts.ReachOnly)
	if err != nil {
		return dbFlagError(err, opts.Rules.Spec(), dir)
	}
	if why != "" {
		t.Why = "values and depths do not fit: " + why
	}
	opts.Target = t
	return nil
}

// buildJob gives the job db build runs: the whole game, or with --max-ply
// the opening book to that ply (the whole game's forward pass to it, with
// --reach-only). A book's last ply is 1 to the last ply but one: the last
// ply is the whole game's.
func buildJob(c *cobra.Command, opts *DBBuildOptions) (*tier.Job, error) {
	cells := opts.Rules.Spec().Cells()
	if !c.Flags().Changed("max-ply") {
		opts.MaxPly = -1
		return tier.NewJob(opts.Rules)
	}
	if opts.ReachOnly {
		if err := checkMaxPly(opts.MaxPly, cells); err != nil {
			return nil, err
		}
		return tier.NewJob(opts.Rules)
	}
	if opts.MaxPly < 1 || opts.MaxPly >= cells {
		return nil, flagErrorf("--max-ply %d: an opening book holds plies 0 to N, want N from 1 to %d; leave --max-ply out for the whole game's database", opts.MaxPly, cells-1)
	}
	j, err := tier.NewBook(opts.Rules, opts.MaxPly)
	if err != nil {
		return nil, err
	}
	prior, ok, err := book.Bounds(opts.Rules, opts.MaxPly-1)
	if !ok || err != nil {
		return j, err
	}
	opts.prior = prior
	return j.WithPrior(prior), nil
}

func runDBBuild(ctx context.Context, opts *DBBuildOptions) error {
	if opts.prior != nil {
		defer opts.prior.Close()
	}
	report.BuildPlan(opts.IO.Notes, opts.Target)
	defer opts.Target.Policy().Apply()()
	if opts.ReachOnly {
		r, err := opts.Target.Reach(ctx, opts.Rules, opts.Workers, opts.MaxPly)
		if err != nil {
			return err
		}
		return show(opts.GameOptions, r, true, func(w io.Writer) error { return report.Reached(w, r) })
	}
	s, err := opts.Target.Build(ctx, opts.Workers)
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
	// Sample is db check's --sample: the positions a ply held to the
	// game's rules, 0 for every one.
	Sample int
}

// NewCmdDBCheck builds db check; runF, if any, replaces its run.
func NewCmdDBCheck(f *Factory, runF func(*DBFolderOptions) error) *cobra.Command {
	opts := &DBFolderOptions{}
	c := newCmdDBFolder(f, runF, &cobra.Command{
		Use:   "check DIR",
		Short: "Hold every tier of a database to its checksum, counts and the game's rules",
		Long: `Check reads every tier of the finished database in DIR whole and holds it to
the manifest: each file's size and SHA-256, each block's checksum, the ply's
counts again from its codes, the manifest's total and the empty board's
value; and to the game's rules: each position's code is what its children's
make of it, each finished board's what the rules say, so that a tier of
another game is found. It names each damaged tier and exits 1 when any is.

--sample N holds N positions of each ply, drawn at random, to the rules
instead of every one: the whole check of a database of billions of
positions takes as long as its build, the sampled one as long as reading
its tiers.`,
		Example: "  tateti-lab db check c4-5x6\n  tateti-lab db check --sample 100000 c4-6x6",
	}, func(ctx context.Context, opts *DBFolderOptions) error {
		checked, err := db.CheckSampled(ctx, opts.DB, tier.Rule, opts.Workers, opts.Sample)
		if err != nil {
			in, _ := tier.Inspect(opts.DB) // an unfinished build's game, for the hint
			return dbFlagError(err, in.Game, opts.DB)
		}
		return show(opts.GameOptions, checked, checked.OK, func(w io.Writer) error { return report.Checked(w, checked) })
	}, opts)
	c.Flags().IntVar(&opts.Sample, "sample", 0, "hold N positions of each ply, drawn at random, to the game's rules, not every one")
	return c
}

// NewCmdDBInfo builds db info; runF, if any, replaces its run.
func NewCmdDBInfo(f *Factory, runF func(*DBFolderOptions) error) *cobra.Command {
	return newCmdDBFolder(f, runF, &cobra.Command{
		Use:   "info DIR",
		Short: "Say what a database folder holds: its game, plies, sizes, what is finished",
		Long: `Info says what the database folder DIR holds, finished or not, without
reading its tiers: the game, the empty board's value once finished, and for
each ply its placements, its positions once counted, and which of its files
are written.`,
	}, func(_ context.Context, opts *DBFolderOptions) error {
		in, err := tier.Inspect(opts.DB)
		if err != nil {
			return flagError(err)
		}
		return show(opts.GameOptions, in, true, func(w io.Writer) error { return report.DBInfo(w, in) })
	}, &DBFolderOptions{})
}

// newCmdDBFolder completes c, a verb on one database folder whose manifest
// or marker names the game: it takes the folder and no game flags, then
// runs runF when not nil, else run, with opts, whose own flags c binds.
func newCmdDBFolder(f *Factory, runF func(*DBFolderOptions) error, c *cobra.Command, run func(context.Context, *DBFolderOptions) error, opts *DBFolderOptions) *cobra.Command {
	c.Long += " The game is the database's: give no game flags."
	if c.Example == "" {
		c.Example = "  tateti-lab db " + strings.Fields(c.Use)[0] + " c4-5x6"
	}
	c.Args = dirArg
	c.RunE = func(c *cobra.Command, args []string) error {
		var err error
		if opts.GameOptions, err = f.fixedOptions(c, "the database's manifest names its game"); err != nil {
			return err
		}
		if opts.Sample < 0 {
			return flagErrorf("--sample %d is not a count; give the positions a ply to check, or leave it out to check every one", opts.Sample)
		}
		opts.DB = args[0]
		return runOr(c.Context(), runF, run, opts)
	}
	return c
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
		if spec.Cells() > 0 { // a folder with no marker names no game
			dir = spec.Flags() + " " + dir
		}
		return flagErrorf("%w; build it with: tateti-lab db build %s", err, dir)
	}
	return flagError(err)
}
