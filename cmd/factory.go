package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"runtime"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/progress"
	"github.com/tateti-lab/tateti-lab/internal/sysmem"
	"github.com/tateti-lab/tateti-lab/plan"
	"github.com/tateti-lab/tateti-lab/report"
	"github.com/tateti-lab/tateti-lab/rules"
)

// IOStreams are the streams a command reads and writes. ErrTTY says that
// ErrOut is a terminal, where long work shows its progress.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// Notes is where a command says what it is about to do or did beside
	// its result (an estimate, a plan, what replaced what): ErrOut, and
	// nothing under --quiet, which leaves only errors on stderr.
	Notes  io.Writer
	ErrTTY bool
	// Colour says that Out is a terminal and NO_COLOR is not set: results
	// may be painted in their colours.
	Colour bool
}

// Style gives the style of text views on Out.
func (io *IOStreams) Style() report.Style { return report.Style{Colour: io.Colour} }

// Factory gives every command what it shares with the others: the streams,
// the memory a run may use, and the game flags of the root command.
type Factory struct {
	IO *IOStreams
	// Memory gives the bytes of memory a run may use, 0 when unknown.
	Memory func() uint64
	// Progress shows long work on ErrOut: on a terminal a line redrawn,
	// otherwise a line a minute (progress.NewLog); nil outside Run.
	Progress *progress.Line
	// Engines opens the engine the planner picks to answer positions:
	// plan.Open, the engines themselves; a test's fakes (oracletest).
	Engines plan.Opener
	game    *gameFlags
	quiet   bool
}

// NewFactory gives a factory over the streams, with the machine's memory
// (capped by TATETI_MEMORY).
func NewFactory(io *IOStreams) *Factory {
	return &Factory{IO: io, Memory: sysmem.Available, Engines: plan.Open, game: &gameFlags{}}
}

// maxWorkers is the most goroutines --workers may ask for: many more than
// the CPUs, to check that results do not depend on the count, but not so many
// that their bookkeeping is the work.
func maxWorkers() int { return 64 * runtime.NumCPU() }

// gameFlags are the persistent flags every command shares, as typed: the
// game flags, and how to run and print.
type gameFlags struct {
	rules.GameFlags
	json    bool
	workers int
}

func (g *gameFlags) bind(f *pflag.FlagSet) {
	g.GameFlags.Bind(f)
	f.BoolVar(&g.json, "json", false, "print stable JSON instead of text")
	f.IntVar(&g.workers, "workers", runtime.NumCPU(), "goroutines for parallel work")
}

// GameOptions are the game flags validated: the rules of the game, and how
// to run and print.
type GameOptions struct {
	IO      *IOStreams
	Rules   rules.Rules
	JSON    bool
	Workers int
}

// options validates the game flags into the options of a run of c.
func (f *Factory) options(c *cobra.Command) (GameOptions, error) {
	g := f.game
	if most := maxWorkers(); g.workers < 1 || g.workers > most {
		return GameOptions{}, flagErrorf("--workers %d is not a count of goroutines this machine can use, want 1 to %d (it has %d CPUs)", g.workers, most, runtime.NumCPU())
	}
	spec, err := f.spec(c)
	if err != nil {
		return GameOptions{}, err
	}
	return GameOptions{IO: f.IO, Rules: rules.New(spec), JSON: g.json, Workers: g.workers}, nil
}

// fixedOptions is options for a command whose game is fixed, by what why
// says: it refuses the game flags.
func (f *Factory) fixedOptions(c *cobra.Command, why string) (GameOptions, error) {
	for _, name := range []string{"game", "size", "k", "gravity", "misere"} {
		if c.Flags().Changed(name) {
			return GameOptions{}, flagErrorf("--%s does not go with %s: %s", name, c.CommandPath(), why)
		}
	}
	return f.options(c)
}

// spec gives the game the flags of c name: a named game (--game, with
// --misere if given), or the board flags. The two gravity boards people
// take for Connect Four by mistake (7x6, 7 rows by 6 columns; 6x7 with its
// default line, six in a row) get a note on stderr: Connect Four is --game
// connect-four.
func (f *Factory) spec(c *cobra.Command) (rules.Spec, error) {
	g := f.game.GameFlags // a copy: the flags as given to c
	g.Given = c.Flags().Changed
	spec, err := g.Spec()
	if err != nil {
		return spec, flagError(err)
	}
	if !c.Flags().Changed("game") && g.Gravity && rules.Mistaken(spec.Rows, spec.Cols, g.K) {
		fmt.Fprintf(f.IO.Notes, "tateti-lab: note: this is %s; Connect Four is --game connect-four (--gravity --size 6x7 --k 4: 6 rows, 7 columns)\n", spec.Words())
	}
	return spec, nil
}

// exhaustive is options for the commands that walk every position: the
// board must be small enough, and the run's estimated memory must fit what
// a run may use.
func (f *Factory) exhaustive(c *cobra.Command) (GameOptions, error) {
	o, err := f.options(c)
	if err != nil {
		return o, err
	}
	if err := enumerate.CheckFits(o.Rules.Spec(), f.Memory()); err != nil {
		return o, flagError(err)
	}
	return o, nil
}

// memoryHelp ends the help of the commands that solve or walk whole games.
const memoryHelp = `

Before any work the run estimates the memory it needs (the positions it may
meet, at 44 bytes each) and refuses with exit 2 when that will not fit;
TATETI_MEMORY caps the memory it may use: bytes, or an amount such as 4G,
512MiB or 1.5GB.`

// FlagError is bad usage or bad input, found before any work: exit 2.
type FlagError struct{ err error }

func (e *FlagError) Error() string { return e.err.Error() }
func (e *FlagError) Unwrap() error { return e.err }

func flagError(err error) error { return &FlagError{err} }

func flagErrorf(format string, a ...any) error { return &FlagError{fmt.Errorf(format, a...)} }

// errDisagree is returned after a check has printed its disagreements: exit 1.
var errDisagree = errors.New("a check found a disagreement")

// A shownError follows output that already says what went wrong (the
// JSON of an unsettled answer, say): its message goes to stderr, and no
// second JSON object to stdout. Exit 1.
type shownError struct{ err error }

func (e *shownError) Error() string { return e.err.Error() }
func (e *shownError) Unwrap() error { return e.err }

// errMisbehaved is returned after a report has said how a user's program
// misbehaved (a judge's Runtime Error, say): exit 2, nothing more to print.
var errMisbehaved = errors.New("the program misbehaved")

// programArgs gives the user's program and its arguments: every argument
// after --, as cargo and kubectl take them. The program must be found.
func programArgs(c *cobra.Command, args []string) ([]string, error) {
	at := c.ArgsLenAtDash()
	example := c.CommandPath() + " -- python3 prog.py"
	switch {
	case at < 0 && len(args) == 0:
		return nil, flagErrorf("the program is missing: give it and its arguments after --, such as %s", example)
	case at < 0 || at > 0:
		return nil, flagErrorf("%q is not a flag of %s: give the program and its arguments after --, such as %s", game.Echo(args[0]), c.CommandPath(), example)
	case len(args) == 0:
		return nil, flagErrorf("nothing after --: give the program and its arguments, such as %s", example)
	}
	if _, err := exec.LookPath(args[0]); err != nil {
		return nil, flagErrorf("cannot start the program %q: %v", game.Echo(args[0]), err)
	}
	return args, nil
}

// show prints v as JSON or through text, and gives errDisagree when the
// check did not pass.
func show(o GameOptions, v any, ok bool, text func(w io.Writer) error) error {
	var err error
	if o.JSON {
		err = report.JSON(o.IO.Out, v)
	} else {
		err = text(o.IO.Out)
	}
	if err == nil && !ok {
		return errDisagree
	}
	return err
}

// runOr runs the validated options through runF, a test's stand-in for the
// run, when there is one, else through the command's own run.
func runOr[T any](ctx context.Context, runF func(*T) error, run func(context.Context, *T) error, opts *T) error {
	if runF != nil {
		return runF(opts)
	}
	return run(ctx, opts)
}
