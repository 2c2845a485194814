// Package cmd owns the command line of tateti-lab: the Cobra commands, their
// flags and options, and human and JSON output. It holds no game logic: each
// command validates its options and calls the domain packages.
package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/progress"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Version is the tool's version, printed by --version and written into exports.
const Version = "0.1.0"

// Exit codes.
const (
	exitOK          = 0
	exitDisagree    = 1   // a check found a disagreement
	exitUsage       = 2   // bad usage, bad input, or a failure to finish
	exitInterrupted = 130 // SIGINT or SIGTERM
)

// Execute runs the command line on the process's arguments and streams and
// returns the exit code. SIGINT and SIGTERM cancel the run's context: the
// work stops, cleans up after itself, and the exit code is 130.
func Execute() int {
	ctx, stop := interruptible(context.Background())
	defer stop()
	return Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
}

// interrupted is the cause of a context cancelled by a signal.
type interrupted struct{ sig os.Signal }

func (i interrupted) Error() string { return "interrupted by " + signalName(i.sig) }

func signalName(s os.Signal) string {
	if s == os.Interrupt {
		return "SIGINT"
	}
	if s == syscall.SIGTERM {
		return "SIGTERM"
	}
	return s.String()
}

// interruptible gives a context cancelled, with an interrupted cause, by the
// first SIGINT or SIGTERM.
func interruptible(parent context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sigs:
			cancel(interrupted{s})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel(nil)
	}
}

// Run runs the command line on args with the given streams and returns the
// exit code. Errors are printed to stderr, and with --json also as an object
// on stdout. A failure to write the output is an error too.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCmd()
	if isTerminal(stderr) {
		line := progress.NewLine(stderr)
		ctx = progress.With(ctx, line)
		defer line.Done()
	}
	out := &stickyWriter{w: stdout}
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(out)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	if out.err != nil && (err == nil || errors.Is(err, out.err)) {
		err = fmt.Errorf("cannot write the output: %w", out.err)
	}
	code := exitCode(ctx, err)
	if code == exitOK || code == exitDisagree || errors.Is(err, errMisbehaved) {
		return code
	}
	msg := err.Error()
	if code == exitInterrupted {
		msg = context.Cause(ctx).Error() + ": stopped before the end, nothing half-written is left"
	}
	fmt.Fprintf(stderr, "tateti-lab: %s\n", msg)
	if jsonWanted(root, args) && out.err == nil {
		_ = writeJSON(stdout, struct {
			Error string `json:"error"`
			Exit  int    `json:"exit"`
		}{msg, code})
	}
	return code
}

// exitCode classifies how a run ended. A run whose context a signal
// cancelled was interrupted, whatever error the work gave on the way out.
func exitCode(ctx context.Context, err error) int {
	var sig interrupted
	switch {
	case err == nil:
		return exitOK
	case errors.As(context.Cause(ctx), &sig):
		return exitInterrupted
	case errors.Is(err, errDisagree):
		return exitDisagree
	}
	return exitUsage
}

// jsonWanted reports whether --json was given, even when parsing stopped at a
// bad flag before reaching it.
func jsonWanted(root *cobra.Command, args []string) bool {
	if on, err := root.PersistentFlags().GetBool("json"); err == nil && on {
		return true
	}
	return slices.Contains(args, "--json") || slices.Contains(args, "--json=true")
}

// stickyWriter passes writes on and keeps the first error, so that a run
// whose output could not be written fails even where a printer ignores it.
type stickyWriter struct {
	w   io.Writer
	err error
}

func (s *stickyWriter) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(p)
	s.err = err
	return n, err
}

// errDisagree is returned after a check has printed its disagreements.
var errDisagree = errors.New("a check found a disagreement")

// errMisbehaved is returned after a report has said how a user's program
// misbehaved (a judge's Runtime Error, say): exit 2, nothing more to print.
var errMisbehaved = errors.New("the program misbehaved")

// globalOptions are the persistent flags every command shares.
type globalOptions struct {
	size    string
	k       int
	gravity bool
	misere  bool
	json    bool
	workers int
}

func newRootCmd() *cobra.Command {
	opts := &globalOptions{}
	root := &cobra.Command{
		Use:   "tateti-lab",
		Short: "Exhaust tic-tac-toe and small m,n,k games",
		Long: `tateti-lab walks a whole m,n,k game (tic-tac-toe by default): it enumerates
every reachable position, solves each with perfect play, proves that
independent win checkers agree on every position, and exports a dataset.

Every command takes the game flags: --size ROWSxCOLS, --k, and the rule
switches --gravity (Connect-Four placement: a mark drops to the lowest empty
cell of its column; row 0 is the top) and --misere (k in a row loses), which
combine.`,
		Version:       Version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return fmt.Errorf("%w (see '%s --help')", err, c.CommandPath())
	})
	f := root.PersistentFlags()
	f.StringVar(&opts.size, "size", "3x3", "board size as ROWSxCOLS")
	f.IntVar(&opts.k, "k", 0, "marks in a row to win (default: the shorter side)")
	f.BoolVar(&opts.gravity, "gravity", false, "a mark drops to the lowest empty cell of its column, as in Connect Four")
	f.BoolVar(&opts.misere, "misere", false, "misère: whoever completes k in a row loses")
	f.BoolVar(&opts.json, "json", false, "print stable JSON instead of text")
	f.IntVar(&opts.workers, "workers", runtime.NumCPU(), "goroutines for parallel work")

	root.AddCommand(
		newEnumerateCmd(opts),
		newSolveCmd(opts),
		newVerifyCmd(opts),
		newExportCmd(opts),
		newGradeCmd(opts),
		newJudgeCmd(opts),
		newRenderCmd(opts),
		newServeCmd(opts),
	)
	return root
}

// rules validates the game flags and builds the game's rules.
func (o *globalOptions) rules() (rules.Rules, error) {
	rows, cols, err := game.ParseSize(o.size)
	if err != nil {
		return nil, err
	}
	s, err := game.NewSpec(rows, cols, o.k)
	if err != nil {
		return nil, err
	}
	if o.workers < 1 {
		return nil, fmt.Errorf("--workers %d is not a count of goroutines, want 1 or more", o.workers)
	}
	return rules.New(rules.Spec{Spec: s, Gravity: o.gravity, Misere: o.misere}), nil
}

// exhaustive is rules for the commands that walk every position: it also
// checks that the board is small enough, and that the run's estimated memory
// fits what the machine has, before any work starts.
func (o *globalOptions) exhaustive() (rules.Rules, error) {
	rl, err := o.rules()
	if err != nil {
		return nil, err
	}
	if err := enumerate.CheckSize(rl.Spec().Spec); err != nil {
		return nil, err
	}
	return rl, enumerate.CheckMemory(rl.Spec(), availableMemory())
}
