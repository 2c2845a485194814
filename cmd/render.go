package cmd

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/tateti-lab/tateti-lab/report"
)

type renderOptions struct {
	*globalOptions
	position string
	moves    string
	out      string
}

func newRenderCmd(g *globalOptions) *cobra.Command {
	opts := &renderOptions{globalOptions: g}
	c := &cobra.Command{
		Use:   "render",
		Short: "Draw a position as SVG, every legal move coloured by its result",
		Long: `Render analyses one position (--position, and --moves played after it, as in
solve) and draws it as SVG: the marks, and on every legal move's cell the
result for the side to move, W win (green), D draw (amber) or L loss (red),
with the plies left after it; best moves are ringed. The caption names the
position and its value. --out - writes to stdout; a file appears complete or
not at all.`,
		Example: "  tateti-lab render --position 'XX./O../...' --out position.svg\n  tateti-lab render --gravity --size 4x4 --k 4 --moves 2332 --out -",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return runRender(c, opts)
		},
	}
	c.Flags().StringVar(&opts.position, "position", "", "the board, such as 'XO./.X./..O' (default the empty board)")
	c.Flags().StringVar(&opts.moves, "moves", "", "moves to play first, as in solve --moves")
	c.Flags().StringVar(&opts.out, "out", "", "the SVG file to write, or - for stdout")
	return c
}

func runRender(c *cobra.Command, opts *renderOptions) error {
	if opts.out == "" {
		return fmt.Errorf("--out is missing, name the SVG file to write, such as --out position.svg, or - for stdout")
	}
	a, err := analyzePosition(c, opts.globalOptions, opts.position, opts.moves)
	if err != nil {
		return err
	}
	var svg bytes.Buffer
	if err := report.SVG(&svg, report.NewPosition(a)); err != nil {
		return err
	}
	if opts.out == "-" {
		_, err := c.OutOrStdout().Write(svg.Bytes())
		return err
	}
	return writeFileAtomic(opts.out, svg.Bytes())
}

// writeFileAtomic writes data to a temporary file beside name and renames it
// into place, so that name holds the whole file or is untouched.
func writeFileAtomic(name string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp-*")
	if err != nil {
		return fmt.Errorf("--out %q cannot be written: %w", name, err)
	}
	defer os.Remove(f.Name())
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(0o644)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		return fmt.Errorf("--out %q cannot be written: %w", name, err)
	}
	return nil
}
