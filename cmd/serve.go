package cmd

import (
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

// NewCmdServe builds serve; runF, when not nil, runs instead of the
// command's own run (and must close the listener).
func NewCmdServe(f *Factory, runF func(*ServeOptions) error) *cobra.Command {
	opts := &ServeOptions{}
	c := &cobra.Command{
		Use:   "serve",
		Short: "Explore the solved game in a local web page",
		Long: `Serve solves the game once, then serves a local web page, embedded in the
binary, that draws a position with every legal move coloured by its result
for the side to move (win, draw, loss) and the plies it takes, best moves
marked; a click plays a move, with undo and redo, and the URL holds the
position (?board=...) so that it can be shared. The page's JSON API is
GET /api/position?board=BOARD[&move=M], which answers what solve --position
--json prints; a bad board or move gets a 400 with a JSON error.

Past the exhaustive limit (Connect Four's 7x6) positions are answered by
search (--engine chooses; auto takes memory where the game fits): each
position is searched once, one at a time with every worker, and its answer
kept; a request that waits more than half a second gets a 202 with the
legal moves, the page draws the board and fills the values in when they come,
and a search no page waits for is stopped. --time-limit bounds each
position's search, after which it shows what was proved.

It listens on loopback unless --addr says otherwise, says where, and stops
cleanly on Ctrl-C or SIGTERM (exit 130).` + memoryHelp,
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
			if opts.Plan, err = planFor(c, plan.Request{Rules: opts.Rules, Scope: plan.Many, Memory: f.Memory(), Workers: opts.Workers}); err != nil {
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
			if runF != nil {
				return runF(opts)
			}
			return runServe(opts)
		},
	}
	c.Flags().StringVar(&opts.Addr, "addr", "127.0.0.1:8080", "the address to listen on")
	c.Flags().String("engine", "auto", "who answers: memory (the game solved exhaustively, once, before serving), search (each position searched once when asked), or auto: memory where the game fits, search otherwise")
	c.Flags().String("db", "", dbHelp+", ready at once") // planFor reads both
	c.Flags().DurationVar(&opts.TimeLimit, "time-limit", 0, "with search, the most each position is searched, such as 2m, after which the page shows what was proved; 0 for no limit")
	return c
}

// runServe serves until a signal stops it: its normal end, said as
// "stopped", exit 0. A signal before it serves (while it solves the game)
// is an interruption, exit 130.
func runServe(opts *ServeOptions) error {
	ln, ctx := opts.Listener, opts.Ctx
	defer ln.Close()
	served := false
	err := opts.Plan.Use(ctx, oracle.Options{}, func(o oracle.Oracle) error {
		srv := web.NewServer(web.NewExplorer(ctx, opts.Rules, o, opts.TimeLimit), ln)
		fmt.Fprintf(opts.IO.Out, "serving %s at http://%s/ (Ctrl-C to stop), answered by %s\n", opts.Rules.Spec().Words(), ln.Addr(), opts.Plan.Answered())
		served = true
		return web.Serve(ctx, srv, ln)
	})
	if err == nil && served {
		fmt.Fprintln(opts.IO.ErrOut, "tateti-lab: stopped")
	}
	return err
}
