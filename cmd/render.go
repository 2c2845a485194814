package cmd

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/tateti-lab/tateti-lab/internal/atomicfile"
	"github.com/tateti-lab/tateti-lab/plan"
	"github.com/tateti-lab/tateti-lab/report"
	"github.com/tateti-lab/tateti-lab/view"
)

// RenderOptions are the options of render.
type RenderOptions struct {
	GameOptions
	Query
	// Set, when its Choice is not nil, chooses the positions drawn
	// instead of Query's one, into the folder Out.
	plan.Set
	Out string // the SVG file, or - for stdout; the folder for a set
}

// NewCmdRender builds render; runF, if any, replaces its run.
func NewCmdRender(f *Factory, runF func(*RenderOptions) error) *cobra.Command {
	opts := &RenderOptions{}
	who := f.engines()
	pf := positionFlags{who: &who}
	choice := choiceFlags{who: &who, alsoOne: true}
	c := &cobra.Command{
		Use:   "render",
		Short: "Draw a position as SVG, every legal move coloured by its result",
		Long: `Render analyses one position (--position, and --moves played after it, as in
solve) and draws it as SVG: the marks, and on every legal move's cell the
result for the side to move, W win (green), D draw (amber) or L loss (red),
with the plies left after it; best moves are ringed. The caption names the
position and its value. --out - writes to stdout; a file appears complete or
not at all.

--positions FILE (one position a line: moves such as 4453, or a board),
--sample N with --plies (positions reached by random play) or --max-ply N
draw a set instead, each position answered by --engine, into the folder
--out as position-1.svg, position-2.svg, ... in the set's order, numbered
with as many digits as the set's size has (position-01.svg of 12): the folder holds
the earlier pictures or the new ones, never a mix, and its other files are
kept.`,
		Example: "  tateti-lab render --position 'XX./O../...' --out position.svg\n  tateti-lab render --gravity --size 4x4 --k 4 --moves 2332 --out -\n" +
			"  tateti-lab render --gravity --size 6x7 --k 4 --sample 5 --plies 30-34 --out pictures",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			var err error
			if opts.GameOptions, err = f.options(c); err != nil {
				return err
			}
			if opts.JSON {
				return flagErrorf("--json does not go with render, which draws SVG; solve --position BOARD --json gives the position as JSON")
			}
			if opts.Choice, err = choice.resolve(c, opts.Rules); err != nil {
				return err
			}
			if opts.Choice != nil {
				if err := checkSet(c, opts.Out); err != nil {
					return err
				}
				if err := answerer(&opts.Set, &who, c, f, opts.Rules, opts.Workers, plan.Many); err != nil {
					return err
				}
			} else if err := opts.checkOne(c, pf, f); err != nil {
				return err
			}
			return runOr(c.Context(), runF, runRender, opts)
		},
	}
	pf.bind(c, "the board, such as 'XO./.X./..O' (default the empty board)", "moves to play first, as in solve --moves")
	c.Flags().StringVar(&opts.Out, "out", "", "the SVG file to write, or - for stdout; for a set, the folder")
	choice.bind(c)
	who.bind(c.Flags(), dbHelp)
	return c
}

// checkOne validates --out for one position, and the position.
func (opts *RenderOptions) checkOne(c *cobra.Command, pf positionFlags, f *Factory) error {
	if opts.Out == "" {
		return flagErrorf("--out is missing, name the SVG file to write, such as --out position.svg, or - for stdout")
	}
	if err := checkOutFile(opts.Out, "position.svg"); err != nil {
		return err
	}
	q, err := pf.resolve(c, opts.GameOptions, f.Memory())
	opts.Query = q
	return err
}

// checkSet validates a set's flags: no one position, and --out a folder
// that can take the pictures.
func checkSet(c *cobra.Command, out string) error {
	for _, name := range []string{"position", "moves", "time-limit"} {
		if c.Flags().Changed(name) {
			return flagErrorf("--%s goes with one position, and --positions, --sample and --max-ply draw a set; give one of them", name)
		}
	}
	if out == "" || out == "-" {
		return flagErrorf("--out names the folder a set's pictures go into, such as --out pictures")
	}
	if err := atomicfile.CheckFolder(out); err != nil {
		return flagErrorf("--out: %w", err)
	}
	return nil
}

func runRender(ctx context.Context, opts *RenderOptions) error {
	if opts.Choice != nil {
		return renderSet(ctx, opts)
	}
	a, err := opts.Query.answer(ctx)
	if err != nil {
		return err
	}
	if a.Proved != nil {
		return unsettledError(opts.Query, *a.Proved)
	}
	if err := report.WritePicture(opts.Out, opts.IO.Out, view.NewPosition(a)); err != nil {
		return fmt.Errorf("--out %w", err)
	}
	if opts.Out != "-" {
		report.Rendered(opts.IO.Out, opts.Out, opts.Query.Plan.Answered())
	}
	return nil
}

// renderSet draws the chosen set into the folder --out.
func renderSet(ctx context.Context, opts *RenderOptions) error {
	as, _, err := opts.Set.Answer(ctx, "render", false)
	if err != nil {
		return err
	}
	ps := report.Positions(as)
	dropped, err := report.WritePictures(opts.Out, ps)
	if err != nil {
		return fmt.Errorf("--out %w", err)
	}
	report.Pictures(opts.IO.Out, opts.Out, ps, dropped, opts.Set.Plan.Answered())
	return nil
}
