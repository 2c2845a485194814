package main

import (
	"context"
	"flag"
	"path/filepath"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/tateti-lab/tateti-lab/export"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/release"
	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/plan"
	"github.com/tateti-lab/tateti-lab/positions"
	"github.com/tateti-lab/tateti-lab/rules"
)

// The labelling pipeline, run on Prism, writes the rows export --positions
// writes on one machine for the same file, byte for byte: positions from
// Connect Four's book, past it (searched), and a finished game.
func TestLabelSameRows(t *testing.T) {
	file := positionsFile(t, "4453\n44\n444444333\n1212121\n")
	out := filepath.Join(t.TempDir(), "beam")
	var o options
	fs := flag.NewFlagSet("tateti-beam", flag.ContinueOnError)
	o.bind(fs)
	if err := fs.Parse([]string{"--game", "connect-four", "--label", file, "--out", out, "--format", "csv,parquet"}); err != nil {
		t.Fatal(err)
	}
	if err := o.check(); err != nil {
		t.Fatal(err)
	}
	p, s := beam.NewPipelineWithRoot()
	buildLabel(s, *o.labels)
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
	sameFiles(t, out, localExport(t, o.spec, file))
}

// The sampling pipeline, run on Prism, writes the rows export --sample
// writes on one machine with two workers, byte for byte: positions drawn by
// noisy perfect play and by random play, from the book and past it; and
// when the games played side by side fall short, the ones the keeper plays
// after them.
func TestSampleSameRows(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		games int // the games played side by side; 0 for drawGames's
	}{
		{"noisy perfect play", []string{"--sample", "24", "--plies", "9-15", "--epsilon", "0.25", "--seed", "3"}, 0},
		{"random play", []string{"--sample", "20", "--plies", "0-12", "--seed", "4"}, 0},
		{"games fall short", []string{"--sample", "12", "--plies", "2-13", "--epsilon", "0.5", "--seed", "5"}, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "beam")
			var o options
			fs := flag.NewFlagSet("tateti-beam", flag.ContinueOnError)
			o.bind(fs)
			if err := fs.Parse(append([]string{"--game", "connect-four", "--out", out}, tt.args...)); err != nil {
				t.Fatal(err)
			}
			if err := o.check(); err != nil {
				t.Fatal(err)
			}
			if tt.games > 0 {
				o.labels.Games = tt.games
			}
			p, s := beam.NewPipelineWithRoot()
			buildLabel(s, *o.labels)
			if err := ptest.Run(p); err != nil {
				t.Fatal(err)
			}
			sameFiles(t, out, exportHere(t, o.spec, &o.labels.Choice, 2))
		})
	}
}

// localExport labels the positions file as tateti-lab export --positions
// does, into a folder of its own; its files name the pipeline as their
// writer (Parquet's metadata holds it), so that they differ in nothing else.
func localExport(t *testing.T, spec rules.Spec, file string) string {
	t.Helper()
	choice, err := positions.Open(context.Background(), rules.New(spec), file)
	if err != nil {
		t.Fatal(err)
	}
	return exportHere(t, spec, choice, 1)
}

// exportHere labels the positions choice chooses as tateti-lab export does,
// with workers, into a folder of its own.
func exportHere(t *testing.T, spec rules.Spec, choice *positions.Choice, workers int) string {
	t.Helper()
	ctx := context.Background()
	rl := rules.New(spec)
	p, err := plan.For(plan.Request{Rules: rl, Scope: plan.Many, Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	bs, paths, err := p.Positions(ctx, choice, workers, 0)
	if err != nil {
		t.Fatal(err)
	}
	as, err := p.AnswerAll(ctx, bs, oracle.Batch{Phase: "export"}, oracle.Options{NoLines: true})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "local")
	if _, err := export.Write(ctx, export.Label(rl, as, paths, *choice), export.Options{Dir: dir, Formats: export.Formats, Meta: export.Meta{Tool: "tateti-beam", Version: release.Version}}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// A worker's engine is planned within the memory of its machine, as
// TATETI_MEMORY caps it there: a game that fits is solved in memory, and
// under a cap too small for it searched.
func TestEngineHonoursMemoryCap(t *testing.T) {
	spec := rules.Spec{Spec: game.Spec{Rows: 4, Cols: 4, K: 4}, Gravity: true}
	tests := []struct {
		name, cap, want string
	}{
		{"no cap", "", "memory"},
		{"a cap of 1M", "1M", "search"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("TATETI_MEMORY", tt.cap)
			o, err := openEngine(context.Background(), spec)
			if err != nil {
				t.Fatal(err)
			}
			defer o.Close()
			if got := o.Name(); got != tt.want {
				t.Errorf("the engine: %q, want %q", got, tt.want)
			}
		})
	}
}
