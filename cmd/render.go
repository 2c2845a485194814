package cmd

import (
	"bytes"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/tateti-lab/tateti-lab/internal/atomicfile"
	"github.com/tateti-lab/tateti-lab/report"
)

// RenderOptions are the options of render.
type RenderOptions struct {
	GameOptions
	Query
	Out string // the SVG file, or - for stdout
}

// NewCmdRender builds render; runF, when not nil, runs instead of the
// command's own run.
func NewCmdRender(f *Factory, runF func(*RenderOptions) error) *cobra.Command {
	opts := &RenderOptions{}
	var pf positionFlags
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
		Args:    noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			var err error
			if opts.GameOptions, err = f.options(c); err != nil {
				return err
			}
			if opts.JSON {
				return flagErrorf("--json does not go with render, which draws SVG; solve --position BOARD --json gives the position as JSON")
			}
			if opts.Out == "" {
				return flagErrorf("--out is missing, name the SVG file to write, such as --out position.svg, or - for stdout")
			}
			if err := checkOutFile(opts.Out, "position.svg"); err != nil {
				return err
			}
			if opts.Query, err = pf.resolve(opts.GameOptions, f.Memory()); err != nil {
				return flagError(err)
			}
			if runF != nil {
				return runF(opts)
			}
			return runRender(opts)
		},
	}
	pf.bind(c, "the board, such as 'XO./.X./..O' (default the empty board)", "moves to play first, as in solve --moves")
	c.Flags().StringVar(&opts.Out, "out", "", "the SVG file to write, or - for stdout")
	return c
}

func runRender(opts *RenderOptions) error {
	a, err := opts.answer(opts.Ctx)
	if err != nil {
		return err
	}
	if a.Proved != nil {
		return unsettledError(opts.Query, *a.Proved)
	}
	var svg bytes.Buffer
	if err := report.SVG(&svg, report.NewPosition(a)); err != nil {
		return err
	}
	if opts.Out == "-" {
		_, err := opts.IO.Out.Write(svg.Bytes())
		return err
	}
	if err := atomicfile.Write(opts.Out, svg.Bytes()); err != nil {
		return fmt.Errorf("--out %w", err)
	}
	return nil
}
