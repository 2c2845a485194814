package cmd

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/spf13/cobra"
	"github.com/tateti-lab/tateti-lab/solve"
	"github.com/tateti-lab/tateti-lab/web"
)

type serveOptions struct {
	*globalOptions
	addr string
}

func newServeCmd(g *globalOptions) *cobra.Command {
	opts := &serveOptions{globalOptions: g}
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

It listens on loopback unless --addr says otherwise, says where, and stops
cleanly on Ctrl-C or SIGTERM (exit 130).`,
		Example: "  tateti-lab serve\n  tateti-lab serve --gravity --size 4x4 --k 4 --addr 127.0.0.1:9000",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return runServe(c, opts)
		},
	}
	c.Flags().StringVar(&opts.addr, "addr", "127.0.0.1:8080", "the address to listen on")
	return c
}

func runServe(c *cobra.Command, opts *serveOptions) error {
	rl, err := opts.exhaustive()
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", opts.addr)
	if err != nil {
		return fmt.Errorf("--addr %q: cannot listen: %w", opts.addr, err)
	}
	defer ln.Close()
	sol, err := solve.Game(c.Context(), rl, opts.workers)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: web.Handler(sol), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(c.OutOrStdout(), "serving %s at http://%s/ (Ctrl-C to stop)\n", rl.Spec().Words(), ln.Addr())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-c.Context().Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return c.Context().Err()
}
