package cmd

import (
	"context"
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/tateti-lab/tateti-lab/perfect"
)

// parse runs the command line args through a root with the game flags and
// the one command newCmd builds, whose run is replaced by one that keeps its
// options: the flags are tested apart from the work, as cli/cli tests them.
// memory is what the factory says a run may use.
func parse[O any](t *testing.T, newCmd func(*Factory, func(*O) error) *cobra.Command, memory uint64, args ...string) (*O, error) {
	t.Helper()
	f := NewFactory(&IOStreams{In: strings.NewReader(""), Out: io.Discard, ErrOut: io.Discard, Notes: io.Discard})
	f.Memory = func() uint64 { return memory }
	var got *O
	root := &cobra.Command{Use: "tateti-lab", SilenceErrors: true, SilenceUsage: true}
	root.SetFlagErrorFunc(flagErrorFunc)
	f.game.bind(root.PersistentFlags())
	root.AddCommand(newCmd(f, func(o *O) error { got = o; return nil }))
	root.SetArgs(args)
	root.SetOut(io.Discard)
	root.SetErr(io.Discard)
	err := root.ExecuteContext(context.Background())
	if err == nil && got == nil {
		t.Fatalf("%v: the run was not reached", args)
	}
	return got, err
}

// wantFlagError checks that err is a FlagError saying want.
func wantFlagError(t *testing.T, err error, want string) {
	t.Helper()
	var fe *FlagError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want a flag error containing %q", err, want)
	}
}

func TestSolveFlags(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		memory   uint64
		position bool
		board    string
		engine   perfect.Engine
		err      string
	}{
		{"the whole game", []string{"solve"}, 0, false, "", perfect.Memory, ""},
		{"a position", []string{"solve", "--position", "XX./O../..."}, 0, true, "XX./O../...", "", ""},
		{"moves from the empty board", []string{"solve", "--moves", "4,0"}, 0, true, "O../.X./...", "", ""},
		{"gravity columns", []string{"solve", "--gravity", "--moves", "22"}, 0, true, ".../.O./.X.", "", ""},
		{"tier by tier when the enumeration does not fit", []string{"solve", "--size", "4x4"}, 300e6, false, "", perfect.Tiers, ""},
		{"too large for either", []string{"solve", "--size", "4x4"}, 1e6, false, "", "", "4x4 k=4 needs about 439.5 MB of memory: up to 9,987,585 positions at 44 bytes each (439.5 MB); the memory a run may use is 1.0 MB"},
		{"past 25 cells, the empty board by search", []string{"solve", "--gravity", "--size", "6x7", "--k", "4", "--time-limit", "1m"}, 0, true, "......./......./......./......./......./.......", "", ""},
		{"a board that cannot arise", []string{"solve", "--position", "XXX/OOO/..."}, 0, false, "", "", "cannot arise in play"},
		{"a move after the end", []string{"solve", "--moves", "0,3,1,4,2,5"}, 0, false, "", "", "comes after the game is over"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts, err := parse(t, NewCmdSolve, tt.memory, tt.args...)
			if tt.err != "" {
				wantFlagError(t, err, tt.err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := opts.Position; got != tt.position {
				t.Errorf("Position = %v, want %v", got, tt.position)
			}
			if got := opts.Rules.Spec().Format(opts.Board); tt.position && got != tt.board {
				t.Errorf("Board = %s, want %s", got, tt.board)
			}
			if got := opts.Plan.Engine; !tt.position && got != tt.engine {
				t.Errorf("Plan.Engine = %v, want %v", got, tt.engine)
			}
		})
	}
}

func TestProgramFlags(t *testing.T) {
	self := os.Args[0]
	t.Run("verify checker", func(t *testing.T) {
		opts, err := parse(t, NewCmdVerifyChecker, 0, "checker", "--cells", "0,1,-1", "--results", "0,1,2,3", "--timeout", "5s", "--", self, "-v", "--size", "9x9")
		if err != nil {
			t.Fatal(err)
		}
		if got, want := opts.Program.Argv, []string{self, "-v", "--size", "9x9"}; !slices.Equal(got, want) {
			t.Errorf("Argv = %q, want %q: flags after -- are the program's", got, want)
		}
		if got, want := opts.Results, [4]string{"0", "1", "2", "3"}; got != want {
			t.Errorf("Results = %q, want %q", got, want)
		}
		if got, want := opts.Program.Timeout, 5*time.Second; got != want {
			t.Errorf("Timeout = %v, want %v", got, want)
		}
		if got := opts.Rules.Spec().Size(); got != "3x3" {
			t.Errorf("size %s, want 3x3: the program's --size is not the game's", got)
		}
	})
	t.Run("verify solver", func(t *testing.T) {
		opts, err := parse(t, NewCmdVerifySolver, 0, "solver", "--check", "value,best", "--sample", "10", "--seed", "3", "--", self)
		if err != nil {
			t.Fatal(err)
		}
		if !opts.Check.Best || opts.Check.Depth || opts.Selection.Sample != 10 || opts.Selection.Seed != 3 {
			t.Errorf("Check %+v, Selection %+v; want best only, sample 10, seed 3", opts.Check, opts.Selection)
		}
	})
	t.Run("grade", func(t *testing.T) {
		opts, err := parse(t, NewCmdGrade, 0, "grade", "--min-accuracy", "99.5", "--", self)
		if err != nil {
			t.Fatal(err)
		}
		if opts.MinAccuracy == nil || *opts.MinAccuracy != 99.5 {
			t.Errorf("MinAccuracy = %v, want 99.5", opts.MinAccuracy)
		}
		opts, err = parse(t, NewCmdGrade, 0, "grade", "--", self)
		if err != nil || opts.MinAccuracy != nil {
			t.Errorf("MinAccuracy = %v, %v; want nil when not given", opts.MinAccuracy, err)
		}
	})
	t.Run("judge uva10111 --all", func(t *testing.T) {
		opts, err := parse(t, NewCmdUVa10111, 0, "uva10111", "--all", "--", self)
		if err != nil || opts.Cases != -1 {
			t.Fatalf("Cases = %d, %v; want -1 for every case", opts.Cases, err)
		}
	})
	// Each is refused before anything runs: the program is looked up last,
	// after every flag is checked.
	refused := []struct {
		name string
		args []string
		want string
	}{
		{"a program before --", []string{"grade", "python3", "agent.py"}, `"python3" is not a flag of tateti-lab grade`},
		{"no program", []string{"grade"}, "the program is missing"},
		{"a bad flag before a missing program", []string{"grade", "--sample", "-2", "--", "/nonexistent"}, "--sample -2 is not a count"},
		{"a missing program", []string{"grade", "--", "/nonexistent"}, "cannot start the program"},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parse(t, NewCmdGrade, 0, tt.args...)
			wantFlagError(t, err, tt.want)
		})
	}
}

// Export checks its own flags before the game's memory estimate.
func TestExportFlags(t *testing.T) {
	_, err := parse(t, NewCmdExport, 1, "export", "--size", "4x4")
	wantFlagError(t, err, "--out is missing")
	_, err = parse(t, NewCmdExport, 1, "export", "--size", "4x4", "--out", t.TempDir(), "--format", "xls")
	wantFlagError(t, err, `file format "xls" is unknown`)
	_, err = parse(t, NewCmdExport, 1, "export", "--size", "4x4", "--out", t.TempDir())
	wantFlagError(t, err, "needs about")
	opts, err := parse(t, NewCmdExport, 0, "export", "--out", "d", "--format", "csv")
	if err != nil || opts.Out != "d" || !slices.Equal(opts.Formats, []string{"csv"}) {
		t.Fatalf("options %+v, %v; want --out d and csv", opts, err)
	}
}

// The game flags reach every command's options.
func TestGameFlags(t *testing.T) {
	opts, err := parse(t, NewCmdEnumerate, 0, "enumerate", "--gravity", "--misere", "--size", "4x3", "--k", "3", "--json", "--workers", "3")
	if err != nil {
		t.Fatal(err)
	}
	s := opts.Rules.Spec()
	if got, want := s.String(), "4x3 k=3 gravity misère"; got != want || !opts.JSON || opts.Workers != 3 {
		t.Fatalf("game %q, json %v, workers %d; want %q, true, 3", got, opts.JSON, opts.Workers, want)
	}
}

func TestRenderAndVerifyFlags(t *testing.T) {
	opts, err := parse(t, NewCmdRender, 0, "render", "--position", "XX./O../...", "--moves", "2", "--out", "-")
	if err != nil || opts.Out != "-" || opts.Rules.Spec().Format(opts.Board) != "XXO/O../..." {
		t.Fatalf("render options %+v, %v; want XXO/O../... to stdout", opts, err)
	}
	_, err = parse(t, NewCmdRender, 0, "render", "--out", "/nonexistent/dir/x.svg")
	wantFlagError(t, err, "the folder /nonexistent/dir is missing")
	dir := t.TempDir()
	_, err = parse(t, NewCmdRender, 0, "render", "--out", dir)
	wantFlagError(t, err, "is a folder; name the file to write, such as ")
	v, err := parse(t, NewCmdVerify, 0, "verify", "--all-boards")
	if err != nil || !v.AllBoards {
		t.Fatalf("verify options %+v, %v; want all boards", v, err)
	}
	_, err = parse(t, NewCmdVerify, 0, "verify", "--all-boards", "--size", "3x6", "--k", "3")
	wantFlagError(t, err, "--all-boards: the raw boards are walked up to 16 cells")
}

// serve says loudly when it listens beyond loopback, and not otherwise.
func TestServeWarnsBeyondLoopback(t *testing.T) {
	tests := []struct {
		addr string
		warn bool
	}{
		{"127.0.0.1:0", false},
		{":0", true},
		{"0.0.0.0:0", true},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			var errOut strings.Builder
			f := NewFactory(&IOStreams{In: strings.NewReader(""), Out: io.Discard, ErrOut: &errOut, Notes: &errOut})
			root := &cobra.Command{Use: "tateti-lab", SilenceErrors: true, SilenceUsage: true}
			f.game.bind(root.PersistentFlags())
			root.AddCommand(NewCmdServe(f, func(o *ServeOptions) error { return o.Listener.Close() }))
			root.SetArgs([]string{"serve", "--addr", tt.addr})
			if err := root.Execute(); err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(errOut.String(), "WARNING: --addr "+tt.addr+" listens beyond loopback"); got != tt.warn {
				t.Fatalf("stderr %q; want a warning %v", errOut.String(), tt.warn)
			}
		})
	}
}

// An empty --addr is no choice of where to listen, and is refused (issue
// 43, case 11): it would listen on every interface.
func TestServeEmptyAddr(t *testing.T) {
	for _, addr := range []string{"", " "} {
		_, err := parse(t, NewCmdServe, 0, "serve", "--addr", addr)
		wantFlagError(t, err, "--addr is empty, which would listen on every interface")
	}
}

// --oracle, the former name of --engine, still works on every command that
// took it, value "table" too, and no help shows it.
func TestFormerEngineFlag(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"solve", []string{"solve", "--moves", "4", "--oracle", "table", "--json"}, `"engine": "memory"`},
		{"export", []string{"export", "--max-ply", "1", "--oracle", "search", "--out", t.TempDir(), "--json"}, `"engine": "search"`},
		{"serve's help", []string{"serve", "--help"}, "--engine string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, "", tt.args...)
			if code != 0 || !strings.Contains(out, tt.want) {
				t.Fatalf("exit %d, stdout %q, stderr %q; want 0 and %q", code, out, errOut, tt.want)
			}
			if strings.Contains(out, "--oracle") {
				t.Errorf("the output names --oracle: %q", out)
			}
		})
	}
}
