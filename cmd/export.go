package cmd

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/spf13/cobra"
	"github.com/tateti-lab/tateti-lab/export"
	"github.com/tateti-lab/tateti-lab/solve"
)

type exportOptions struct {
	*globalOptions
	out     string
	formats []string
}

func newExportCmd(g *globalOptions) *cobra.Command {
	opts := &exportOptions{globalOptions: g}
	c := &cobra.Command{
		Use:   "export",
		Short: "Write the states and moves tables as Parquet and CSV",
		Long: `Export solves the game and writes two tables into a folder: states (one row
per reachable position, sorted by ply then state_id) and moves (one row per
legal move, in the same order, then by cell), each as Parquet (zstd) and CSV,
and manifest.json with row counts and SHA-256 sums. The same command gives
byte-identical files.

The dataset is written as a unit: into a staging folder beside --out, which
then replaces --out whole in one atomic exchange, so a reader sees the earlier
dataset or the new one, never a mix; an export that fails or is interrupted
leaves the earlier one as it was. Other files in --out (a README) are kept;
files of an earlier dataset that the new one lacks (say the Parquet files when
only CSV is asked for) are gone, and a line on stderr names them. --out must
hold no subfolder. data/README.md is the data dictionary.`,
		Example: "  tateti-lab export --out data\n  tateti-lab export --size 4x4 --out out4x4 --format parquet",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return runExport(c, opts)
		},
	}
	c.Flags().StringVar(&opts.out, "out", "", "the folder to write into (created if missing)")
	c.Flags().StringSliceVar(&opts.formats, "format", export.Formats, "file formats, separated by commas: parquet, csv")
	return c
}

func runExport(c *cobra.Command, opts *exportOptions) error {
	g, err := opts.exhaustive()
	if err != nil {
		return err
	}
	if opts.out == "" {
		return fmt.Errorf("--out is missing, name the folder to write into, such as --out data")
	}
	// Fail before the solve, not after it.
	if err := export.CheckFormats(opts.formats); err != nil {
		return fmt.Errorf("--format %q: %w", strings.Join(opts.formats, ","), err)
	}
	if err := export.CheckTarget(opts.out); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	ctx := c.Context()
	// The export holds the solved game (about 500 MB on 4x4) while it
	// streams the tables; Go's default, a heap twice the live data, would
	// take it past 1 GiB. Collecting at half is no slower here (measured).
	defer debug.SetGCPercent(debug.SetGCPercent(50))
	r, err := solve.Game(c.Context(), g, opts.workers)
	if err != nil {
		return err
	}
	m, err := export.Write(ctx, r, export.Options{
		Dir:      opts.out,
		Formats:  opts.formats,
		Meta:     export.Meta{Tool: "tateti-lab", Version: Version},
		Progress: exportProgress(c.ErrOrStderr()),
		Workers:  opts.workers,
	})
	if err != nil {
		return err
	}
	if len(m.Dropped) > 0 {
		fmt.Fprintf(c.ErrOrStderr(), "tateti-lab: replaced the earlier dataset in %s; these files of it are gone: %s\n", opts.out, strings.Join(m.Dropped, ", "))
	}
	w := c.OutOrStdout()
	if opts.json {
		return writeJSON(w, m)
	}
	fmt.Fprintf(w, "wrote %s for %s\n", opts.out, g.Spec().Words())
	t := newTable(w)
	fmt.Fprintln(t, "file\trows\tbytes\tsha256\t")
	for _, f := range m.Files {
		fmt.Fprintf(t, "%s\t%s\t%s\t%s\t\n", f.Name, commas(f.Rows), commas(f.Bytes), f.SHA256)
	}
	fmt.Fprintf(t, "%s\t\t\t\t\n", export.ManifestName)
	return t.Flush()
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// exportProgress reports long work on w when w is a terminal, and nowhere
// otherwise. The tables are written at once, so it keeps the last count of
// each.
func exportProgress(w io.Writer) func(table string, done, total int) {
	if !isTerminal(w) {
		return nil
	}
	var mu sync.Mutex
	done := map[string]int{}
	return func(table string, n, total int) {
		mu.Lock()
		defer mu.Unlock()
		done[table] = n
		fmt.Fprintf(w, "\rexport: states %s, moves from %s of %s positions", commas(int64(done["states"])), commas(int64(done["moves"])), commas(int64(total)))
		if done["states"] == total && done["moves"] == total {
			fmt.Fprintln(w)
		}
	}
}
