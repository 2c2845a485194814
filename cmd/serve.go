package cmd

import (
	"context"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/plan"
	"github.com/tateti-lab/tateti-lab/web"
)

// ServeOptions are the options of serve.
type ServeOptions struct {
	GameOptions
	Addr      string
	Listener  net.Listener  // bound to Addr before the game is solved
	Plan      plan.Plan     // who answers the positions, opened in the run
	TimeLimit time.Duration // the most a position is searched; 0: no limit
}

// NewCmdServe builds serve; runF, if any, replaces its run
// (and must close the listener).
func NewCmdServe(f *Factory, runF func(*ServeOptions) error) *cobra.Command {
	opts := &ServeOptions{}
	who := f.engines()
	c := &cobra.Command{
		Use:   "serve",
		Short: "Explore the solved game in a local web page",
		Long: `Serve serves a local web page, embedded in the binary, that draws a
position with every legal move coloured by its result for the side to move
(win, draw, loss) and the move by which the game then ends, best moves
marked, and draws the line of play that shows why a move loses; a click
plays a move, with undo and redo, and the URL holds the position
(?board=...) so that it can be shared. Its JSON API is in docs/reference.md.

Who answers is the planner's, as in solve: the game solved once where it
fits in memory, Connect Four's opening book, search past them (each
position once, its answer kept; --time-limit bounds it, and the page shows
what was proved), or --db. It listens on loopback unless --addr says
otherwise and says where. Ctrl-C or SIGTERM ends it, saying "stopped"
(exit 0); a signal while it still solves the game interrupts it (exit 130).` + memoryHelp,
		Example: "  tateti-lab serve\n  tateti-lab serve --gravity --size 4x4 --k 4 --addr 127.0.0.1:9000\n  tateti-lab serve --gravity --size 6x7 --k 4 --time-limit 2m",
		Args:    noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			var err error
			if opts.GameOptions, err = f.options(c); err != nil {
				return err
			}
			if err := checkTimeLimit(opts.TimeLimit); err != nil {
				return err
			}
			if opts.Plan, err = who.plan(plan.Request{Rules: opts.Rules, Scope: plan.Many, Memory: f.Memory(), Workers: opts.Workers}); err != nil {
				return err
			}
			if strings.TrimSpace(opts.Addr) == "" {
				return flagErrorf("--addr is empty, which would listen on every interface; give an address such as 127.0.0.1:8080, or :8080 to listen beyond loopback on purpose")
			}
			if opts.Listener, err = net.Listen("tcp", opts.Addr); err != nil {
				return flagErrorf("--addr %q: cannot listen: %w", opts.Addr, err)
			}
			if !web.Loopback(opts.Listener.Addr()) {
				fmt.Fprintf(f.IO.ErrOut, "tateti-lab: WARNING: --addr %s listens beyond loopback, at %s: any machine that reaches this one can use the explorer\n", opts.Addr, opts.Listener.Addr())
			}
			return runOr(c.Context(), runF, runServe, opts)
		},
	}
	c.Flags().StringVar(&opts.Addr, "addr", "127.0.0.1:8080", "the address to listen on")
	who.bind(c.Flags(), dbHelp+", ready at once")
	c.Flags().DurationVar(&opts.TimeLimit, "time-limit", 0, "with search, the most each position is searched, such as 2m, after which the page shows what was proved; 0 for no limit")
	return c
}

// runServe serves until a signal stops it: its normal end, said as
// "stopped", exit 0. A signal before it serves (while it solves the game)
// is an interruption, exit 130.
func runServe(ctx context.Context, opts *ServeOptions) error {
	ln := opts.Listener
	defer ln.Close()
	served := false
	err := opts.Plan.Use(ctx, oracle.Options{}, func(o oracle.Oracle) error {
		x := web.NewExplorer(ctx, opts.Rules, o, opts.TimeLimit)
		defer x.Stop() // its search returned before the oracle closes
		srv := web.NewServer(x, ln)
		fmt.Fprintf(opts.IO.Out, "serving %s at http://%s/ (Ctrl-C to stop), answered by %s\n", opts.Rules.Spec().Words(), ln.Addr(), opts.Plan.Answered())
		served = true
		return web.Serve(ctx, srv, ln)
	})
	if err == nil && served {
		fmt.Fprintln(opts.IO.Notes, "tateti-lab: stopped")
	}
	return err
}
