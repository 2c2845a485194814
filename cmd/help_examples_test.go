package cmd

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/tateti-lab/tateti-lab/internal/longtest"
)

// stubbedRoot is the command line with every command's run replaced by
// nothing: each command validates its flags as it does before any work,
// and stops there.
func stubbedRoot(f *Factory) *cobra.Command {
	root := NewCmdRoot(f)
	for _, c := range root.Commands() {
		root.RemoveCommand(c)
	}
	verify := NewCmdVerify(f, func(*VerifyOptions) error { return nil })
	for _, c := range verify.Commands() {
		verify.RemoveCommand(c)
	}
	verify.AddCommand(NewCmdVerifyChecker(f, func(*VerifyCheckerOptions) error { return nil }),
		NewCmdVerifySolver(f, func(*VerifySolverOptions) error { return nil }))
	judge := &cobra.Command{Use: "judge"}
	judge.AddCommand(NewCmdUVa10111(f, func(*UVa10111Options) error { return nil }))
	db := &cobra.Command{Use: "db"}
	db.AddCommand(NewCmdDBBuild(f, func(*DBBuildOptions) error { return nil }),
		NewCmdDBCheck(f, func(*DBFolderOptions) error { return nil }),
		NewCmdDBInfo(f, func(*DBFolderOptions) error { return nil }))
	root.AddCommand(
		NewCmdEnumerate(f, func(*EnumerateOptions) error { return nil }),
		NewCmdSolve(f, func(*SolveOptions) error { return nil }),
		verify,
		NewCmdExport(f, func(*ExportOptions) error { return nil }),
		NewCmdGrade(f, func(*GradeOptions) error { return nil }),
		judge,
		NewCmdRender(f, func(*RenderOptions) error { return nil }),
		NewCmdServe(f, func(o *ServeOptions) error { return o.Listener.Close() }),
		db,
	)
	return root
}

// examples gives the example command lines of c and of every command
// under it, as their help shows them.
func examples(c *cobra.Command) []string {
	var out []string
	for _, line := range strings.Split(c.Example, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			out = append(out, line)
		}
	}
	for _, sub := range c.Commands() {
		out = append(out, examples(sub)...)
	}
	return out
}

// fields splits an example line as a shell does: at spaces, a quoted
// word ('...') whole.
func fields(line string) []string {
	var out []string
	for len(line) > 0 {
		line = strings.TrimLeft(line, " ")
		if strings.HasPrefix(line, "'") {
			word, rest, _ := strings.Cut(line[1:], "'")
			out, line = append(out, word), rest
			continue
		}
		word, rest, _ := strings.Cut(line, " ")
		if word != "" {
			out = append(out, word)
		}
		line = rest
	}
	return out
}

// needDB are the examples whose --db folder is a database an example
// before them builds: their flags are checked, and the database, absent
// here, is all they are refused for.
var needDB = map[string]bool{
	"tateti-lab solve --gravity --size 5x6 --k 4 --db c4-5x6": true,
}

// longExamples are the examples whose checks before any work take seconds:
// the plan of Connect Four 6x6's build counts its decision diagram's 44
// billion boards. They are long checks.
var longExamples = map[string]bool{
	"tateti-lab db build --gravity --size 6x6 --k 4 c4-6x6": true,
}

// Every example of every command's help is a command line the command
// takes: its flags exist, and its values pass the checks made before any
// work (the run itself stubbed out). The programs and files the examples
// name are made in an empty folder first; a help that drifts from the
// flags fails here, as the docs' commands fail in CI.
func TestHelpExamples(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"checker.py", "solver.py", "agent.py", "uva10111.py"} {
		writeFile(t, filepath.Join(dir, name), "", 0o644)
	}
	for _, name := range []string{"agent", "c4", "a.out", "c4solver"} {
		writeFile(t, filepath.Join(dir, name), "#!/bin/sh\n", 0o755)
	}
	writeFile(t, filepath.Join(dir, "Test_L3_R1"), "4453 0\n", 0o644) // Pons' format
	t.Chdir(dir)
	lines := examples(NewCmdRoot(NewFactory(&IOStreams{Out: io.Discard, ErrOut: io.Discard, Notes: io.Discard})))
	if len(lines) < 30 {
		t.Fatalf("%d examples found, want every command's", len(lines))
	}
	for _, line := range lines {
		t.Run(line, func(t *testing.T) {
			if longExamples[line] {
				longtest.Skip(t, "an example whose plan counts billions of boards")
			}
			args := fields(line)
			if args[0] != "tateti-lab" {
				t.Fatalf("an example that does not start with tateti-lab: %q", line)
			}
			f := NewFactory(&IOStreams{In: strings.NewReader(""), Out: io.Discard, ErrOut: io.Discard, Notes: io.Discard})
			root := stubbedRoot(f)
			root.SetArgs(args[1:])
			root.SetOut(io.Discard)
			root.SetErr(io.Discard)
			err := root.ExecuteContext(context.Background())
			switch {
			case needDB[line]:
				if err == nil || !strings.Contains(err.Error(), "c4-5x6") {
					t.Errorf("refused for %v; want only the database it names, which an earlier example builds", err)
				}
			case err != nil && args[1] == "serve" && strings.Contains(err.Error(), "address already in use"):
				// the flags passed; another program holds the port here
			case err != nil:
				t.Errorf("refused: %v", err)
			}
		})
	}
}

// writeFile writes text to path with mode perm.
func writeFile(t *testing.T, path, text string, perm os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), perm); err != nil {
		t.Fatal(err)
	}
}
