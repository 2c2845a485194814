// Package cmd owns the command line of tateti-lab, built as the GitHub CLI
// builds its own: a Factory of what commands share, and for each command an
// options struct and NewCmdX(f, runF), whose RunE validates every flag before
// any work (a FlagError, exit 2) and hands the options to runF, or to the
// command's run: one call into the domain and one into report. It holds no
// game logic, verdict or view.
package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/tateti-lab/tateti-lab/internal/release"
	"github.com/tateti-lab/tateti-lab/plan"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/extproc"
	"github.com/tateti-lab/tateti-lab/internal/interrupt"
	"github.com/tateti-lab/tateti-lab/internal/progress"
	"github.com/tateti-lab/tateti-lab/internal/sysmem"
	"github.com/tateti-lab/tateti-lab/internal/term"
	"github.com/tateti-lab/tateti-lab/judge"
	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/report"
)

// Version is the tool's version, printed by --version and written into
// exports (release.Version).
const Version = release.Version

// Exit codes.
const (
	exitOK          = 0
	exitFailed      = 1   // a check found a disagreement, or the work failed
	exitUsage       = 2   // bad usage or bad input
	exitInterrupted = 130 // SIGINT or SIGTERM
)

// Execute runs the command line on the process's arguments and streams and
// returns the exit code. SIGINT and SIGTERM cancel the run's context: the
// work stops, cleans up after itself, and the exit code is 130.
func Execute() int {
	ctx, stop := interrupt.Context(context.Background())
	defer stop()
	signalsSet()
	return Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
}

// signalsSet is called once Execute's signal handlers are set: the tests
// that signal the command line as a program wait for it (a signal before
// it would kill the program, which tests nothing).
var signalsSet = func() {}

// logEvery is how often a run whose stderr is no terminal (a log) writes
// a line of progress, none before the first.
var logEvery = time.Minute

// Run runs the command line on args with the given streams and returns the
// exit code. Errors are printed to stderr, and with --json also as an object
// on stdout. A failure to write the output is an error too.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runWith(ctx, args, stdin, stdout, stderr, plan.Open)
}

// runWith is Run, the engines that answer positions opened by engines
// (Factory.Engines): the tests' seam.
func runWith(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, engines plan.Opener) int {
	out := &term.Sticky{W: stdout}
	io := &IOStreams{In: stdin, Out: out, ErrOut: stderr, Notes: stderr, ErrTTY: term.Is(stderr),
		Colour: term.Is(stdout) && os.Getenv("NO_COLOR") == ""}
	f := NewFactory(io)
	f.Engines = engines
	if io.ErrTTY {
		f.Progress = progress.NewLine(stderr)
		defer f.Progress.Done()
		// The output starts on a line of its own: the progress line, on the
		// same terminal, is cleared before anything is written.
		out.Before = f.Progress.Done
	} else {
		f.Progress = progress.NewLog(stderr, logEvery)
	}
	ctx = progress.With(ctx, f.Progress)
	root := NewCmdRoot(f)
	if completing(args) {
		completeFlagValues(root)
	}
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(out)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	if out.Err != nil && (err == nil || errors.Is(err, out.Err)) {
		err = fmt.Errorf("cannot write the output: %w", out.Err)
	}
	code := exitCode(ctx, err)
	if code == exitOK || errors.Is(err, errDisagree) || errors.Is(err, errMisbehaved) {
		return code
	}
	msg := err.Error()
	if lm := (*enumerate.LayerMemoryError)(nil); errors.As(err, &lm) { // the flag is cmd's to name
		msg += fmt.Sprintf(": lower --max-ply to %d", lm.Ply-1)
	}
	if code == exitInterrupted {
		msg = context.Cause(ctx).Error() + ": stopped before the end, nothing half-written is left"
	}
	fmt.Fprintf(stderr, "tateti-lab: %s\n", msg)
	var shown *shownError
	if (f.game.json || jsonWanted(args)) && !errors.As(err, &shown) {
		if out.Err == nil {
			_ = report.JSON(stdout, report.Failure{Error: msg, Exit: code})
		}
	}
	return code
}

// exitCode classifies how a run ended: 130 when a signal cancelled its
// context, whatever error the work gave on the way out; 2 for bad usage or
// input, a user's program that misbehaved among them; 1 for a check that
// found a disagreement or work that failed.
func exitCode(ctx context.Context, err error) int {
	var flagErr *FlagError
	var progErr *extproc.ProgramError
	switch {
	case err == nil:
		return exitOK
	case interrupt.By(ctx):
		return exitInterrupted
	case errors.As(err, &flagErr), errors.As(err, &progErr), errors.Is(err, errMisbehaved), isCobraUsage(err),
		errors.Is(err, enumerate.ErrLayerMemory), errors.As(err, new(*db.DamagedError)), errors.As(err, new(*judge.CasesError)), errors.As(err, new(*oracle.ForeignJournalError)):
		return exitUsage
	}
	return exitFailed
}

// isCobraUsage reports whether err is Cobra's own word on a command it
// cannot find, which no flag error function sees (cli/cli tells it the same
// way). Argument counts are checked by noArgs and programArgs.
func isCobraUsage(err error) bool {
	return strings.HasPrefix(err.Error(), "unknown command ")
}

// noArgs refuses arguments where a command takes none.
func noArgs(c *cobra.Command, args []string) error {
	if len(args) > 0 {
		return flagErrorf("%s takes no arguments, and %q is not a flag (see '%s --help')", c.CommandPath(), game.Echo(args[0]), c.CommandPath())
	}
	return nil
}

// jsonWanted reports whether --json was given, even when parsing stopped at a
// bad flag before reaching it.
func jsonWanted(args []string) bool {
	return slices.Contains(args, "--json") || slices.Contains(args, "--json=true")
}

// NewCmdRoot builds the command line over f: the game flags on the root,
// shared by every command, and the commands.
func NewCmdRoot(f *Factory) *cobra.Command {
	root := &cobra.Command{
		Use:   "tateti-lab",
		Short: "Exhaust tic-tac-toe and small m,n,k games",
		Long: `tateti-lab walks a whole m,n,k game (tic-tac-toe by default): it enumerates
every reachable position, solves each with perfect play, proves that
independent win checkers agree on every position, and exports a dataset.

Every command takes the game flags: --size ROWSxCOLS, --k, and the rule
switches --gravity (Connect-Four placement: a mark drops to the lowest empty
cell of its column; row 0 is the top) and --misere (k in a row loses), which
combine. TATETI_MEMORY (bytes, or an amount such as 4G, 512MiB or 1.5GB)
caps the memory a run may plan on.`,
		Version:       Version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(flagErrorFunc)
	f.game.bind(root.PersistentFlags())
	root.PersistentFlags().BoolVarP(&f.quiet, "quiet", "q", false, "leave only errors on stderr: no progress (on a terminal a line redrawn, otherwise a line a minute in long runs), no estimate or note")
	root.PersistentPreRunE = func(*cobra.Command, []string) error {
		if f.quiet {
			f.IO.Notes = io.Discard
			if f.Progress != nil {
				f.Progress.Mute()
			}
		}
		if _, _, err := sysmem.Cap(); err != nil {
			return flagError(err)
		}
		return nil
	}
	root.AddCommand(
		NewCmdEnumerate(f, nil),
		NewCmdSolve(f, nil),
		NewCmdVerify(f, nil),
		NewCmdExport(f, nil),
		NewCmdGrade(f, nil),
		NewCmdJudge(f),
		NewCmdRender(f, nil),
		NewCmdServe(f, nil),
		NewCmdDB(f),
		NewCmdVersion(f),
	)
	root.SetGlobalNormalizationFunc(formerNames)
	return root
}

// formerNames reads a flag's former name as its name of now: --oracle,
// which named who answers before the engines were called so, is --engine.
// The former name works, and no help shows it.
func formerNames(_ *pflag.FlagSet, name string) pflag.NormalizedName {
	if name == "oracle" {
		name = "engine"
	}
	return pflag.NormalizedName(name)
}

// flagErrorFunc marks a flag Cobra cannot parse as bad usage, and points to
// the command's help.
func flagErrorFunc(c *cobra.Command, err error) error {
	return flagErrorf("%w (see '%s --help')", err, c.CommandPath())
}
