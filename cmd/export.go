package cmd

import (
	"context"
	"errors"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/tateti-lab/tateti-lab/choose"
	"github.com/tateti-lab/tateti-lab/export"
	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/plan"
	"github.com/tateti-lab/tateti-lab/report"
)

// ExportOptions are the options of export.
type ExportOptions struct {
	GameOptions
	Out     string   // --out
	Formats []string // --format
	// Target is --out and --format, checked.
	Target export.Target
	// Set, when its Choice is not nil, chooses the positions
	// written; otherwise every reachable position is.
	plan.Set
}

// exportLong is the command's long help.
const exportLong = `Export solves the game and writes two tables into a folder: states (one row
per reachable position, sorted by ply then state_id) and moves (one row per
legal move, in the same order, then by cell), each as Parquet (zstd) and CSV,
and manifest.json with row counts and SHA-256 sums. The same command gives
byte-identical files.

The dataset replaces --out whole, in one atomic exchange: a reader sees the
earlier dataset or the new one, never a mix, and an export that fails or is
stopped leaves the earlier one. Other files in --out (a README) are kept;
those of the earlier dataset the new one lacks are gone, named on stderr.
--out must hold no subfolder. data/README.md is the data dictionary.

--positions, --sample (with --plies) or --max-ply write a chosen set instead,
on any board up to 64 cells, each position answered first; past 40 cells the
board's text keys the tables (data/README.md). manifest.json's "positions"
says which positions are in and who answered them. --value-only writes their
values and depths alone (labels: no moves, no column of the moves' values);
--no-depths their values and every move's without depths, win, draw or loss,
at a fraction of the search's time past an opening book.

--db DIR writes the whole game from its database (db build DIR makes
one), a ply at a time, so games past memory export too (free 4x5 with k=4):
rows by ply, then by rank in the database's layout (docs/database.md), and
paths null, as tier by tier does not count them; "positions" says
"from": "db".`

// NewCmdExport builds export; runF, if any, replaces its run.
func NewCmdExport(f *Factory, runF func(*ExportOptions) error) *cobra.Command {
	opts := &ExportOptions{}
	who := f.engines()
	choice := choiceFlags{who: &who, wholeDB: true}
	var limit time.Duration
	var valueOnly, noDepths bool
	c := &cobra.Command{
		Use:   "export",
		Short: "Write the states and moves tables as Parquet and CSV",
		Long:  exportLong + memoryHelp,
		Example: "  tateti-lab export --out data\n  tateti-lab export --size 4x4 --out out4x4 --format parquet\n" +
			"  tateti-lab export --gravity --size 6x7 --k 4 --sample 20 --plies 8 --quiet-positions --out uci-sample",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if opts.Out == "" {
				return flagErrorf("--out is missing, name the folder to write into, such as --out data")
			}
			var err error
			if opts.Target, err = export.NewTarget(opts.Out, opts.Formats); err != nil {
				if errors.As(err, new(*export.FormatError)) {
					return flagErrorf("--format %q: %w", strings.Join(opts.Formats, ","), err)
				}
				return flagErrorf("--out: %w", err)
			}
			if slices.ContainsFunc(choose.Choosers, c.Flags().Changed) { // a chosen set: the journals of its answers and games
				if err := plan.CheckJournalsBeside(opts.Out); err != nil {
					return err
				}
			}
			if opts.GameOptions, opts.Set, err = choice.options(c, f); err != nil {
				return err
			}
			opts.Set.KeepBeside(opts.Out) // a chosen set's answers and games kept as they come
			if err := checkSetLimit(c, opts, limit); err != nil {
				return err
			}
			opts.ValueOnly, opts.NoDepths = valueOnly, noDepths
			return runOr(c.Context(), runF, runExport, opts)
		},
	}
	c.Flags().StringVar(&opts.Out, "out", "", "the folder to write into (created if missing)")
	c.Flags().StringSliceVar(&opts.Formats, "format", export.Formats, "file formats, separated by commas: parquet, csv")
	c.Flags().BoolVar(&valueOnly, "value-only", false, "with a chosen set: each position's value and depth alone, as UCI's labels: search settles none of its children, the moves table is empty, and the states table has no column of the moves' values")
	c.Flags().BoolVar(&noDepths, "no-depths", false, "with a chosen set: "+noDepthsHelp+"; the tables have no depth columns")
	c.Flags().DurationVar(&limit, "time-limit", 0, "with a chosen set: the most each position is searched, such as 30s; one not settled is left out of the tables and named in manifest.json (0: no limit)")
	choice.bind(c)
	who.bind(c.Flags(), "the whole game from the solved game in this database folder, as db build writes it, streamed a ply at a time (with a chosen set: answer it from there instead of --engine)")
	return c
}

// checkSetLimit validates --time-limit, --value-only and --no-depths,
// which go with a chosen set.
func checkSetLimit(c *cobra.Command, opts *ExportOptions, limit time.Duration) error {
	if err := choose.WithSet(c.Flags().Changed, opts.Choice != nil, choose.Choosers, "time-limit", "value-only", "no-depths"); err != nil {
		return flagError(err)
	}
	opts.Batch.Limit = limit
	return checkTimeLimit(limit)
}

func runExport(ctx context.Context, opts *ExportOptions) error {
	defer export.Policy.Apply()()
	src, done, err := exportSource(ctx, opts)
	if err != nil {
		if !errors.As(err, new(*oracle.ForeignJournalError)) { // of answers or of games
			if opts.Choice != nil {
				report.Kept(opts.IO.ErrOut, "the games played", opts.Choice.Games)
			}
			report.Kept(opts.IO.ErrOut, "the answers", opts.Batch.Journal)
		}
		return err
	}
	defer done()
	o := export.Options{Target: opts.Target, Meta: export.Meta{Tool: "tateti-lab", Version: Version}, Workers: opts.Workers, Committed: opts.Set.Done}
	if opts.Choice == nil { // a whole game: say what it will take, and refuse what does not fit
		o.Estimated = func(e export.Estimate) { report.ExportEstimate(opts.IO.Notes, opts.Out, e) }
	}
	m, err := export.Write(ctx, src, o)
	if err != nil {
		return err
	}
	report.Dropped(opts.IO.Notes, opts.Out, m.Dropped)
	x := report.Exported{Written: m, Answered: opts.Plan.Answered()}
	err = show(opts.GameOptions, x, true, func(w io.Writer) error {
		return report.Export(w, opts.Out, opts.Rules.Spec(), m, x.Answered)
	})
	if unsettled := choose.Unsettled(m.Manifest.Unsettled(), opts.Batch.Limit); err == nil && unsettled != nil {
		return &shownError{unsettled}
	}
	return err
}

// exportSource gives the whole game as the planner answers it, or the
// chosen set answered; done lets go of what the source holds.
func exportSource(ctx context.Context, opts *ExportOptions) (src export.Source, done func(), err error) {
	if opts.Choice == nil {
		g, err := opts.Plan.Game(ctx)
		if err != nil {
			return nil, nil, err
		}
		return export.Whole(ctx, g.Solved, g.DB, opts.Workers), func() { g.Close() }, nil
	}
	as, known, err := opts.Set.Answer(ctx, "export", false)
	if err != nil {
		return nil, nil, err
	}
	return export.Label(opts.Rules, as, known, *opts.Choice), func() {}, nil
}
