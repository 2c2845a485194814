package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/tateti-lab/tateti-lab/export"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/release"
	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/plan"
	"github.com/tateti-lab/tateti-lab/positions"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/tier"
)

// The labelling pipeline, run on Prism, writes the rows export --positions
// writes on one machine for the same file, byte for byte: positions from
// Connect Four's book, past it (searched), and a finished game.
func TestLabelSameRows(t *testing.T) {
	file := positionsFile(t, "4453\n44\n444444333\n1212121\n")
	out := filepath.Join(t.TempDir(), "beam")
	o := runLabelling(t, nil, "--game", "connect-four", "--positions", file, "--out", out, "--format", "csv,parquet")
	sameFiles(t, out, localExport(t, o.spec, file, o.answer))
}

// runLabelling checks the flags args as the command does, lets change
// alter the job (when not nil), and runs the labelling on Prism.
func runLabelling(t *testing.T, change func(*labelJob), args ...string) options {
	t.Helper()
	var o options
	fs := flag.NewFlagSet("tateti-beam", flag.ContinueOnError)
	o.bind(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	if err := o.check(); err != nil {
		t.Fatal(err)
	}
	if change != nil {
		change(o.labels)
	}
	p, s := beam.NewPipelineWithRoot()
	buildLabel(s, *o.labels)
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
	return o
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
		{"values alone, quiet, by search", []string{"--sample", "16", "--plies", "16-20", "--seed", "6", "--value-only", "--quiet-positions", "--engine", "search"}, 0},
		{"values without depths, past the book", []string{"--sample", "10", "--plies", "11-14", "--seed", "7", "--no-depths"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "beam")
			o := runLabelling(t, func(j *labelJob) {
				if tt.games > 0 {
					j.Games = tt.games
				}
			}, append([]string{"--game", "connect-four", "--out", out}, tt.args...)...)
			sameFiles(t, out, exportHere(t, o.spec, &o.labels.Choice, 2, o.answer))
			manifest, err := os.ReadFile(filepath.Join(out, export.ManifestName))
			if err != nil {
				t.Fatal(err)
			}
			if got, want := bytes.Contains(manifest, []byte(`"no_depths": true`)), slices.Contains(tt.args, "--no-depths"); got != want {
				t.Errorf("the manifest says no_depths %v, want %v", got, want)
			}
		})
	}
}

// localExport labels the positions file as tateti-lab export --positions
// does, into a folder of its own; its files name the pipeline as their
// writer (Parquet's metadata holds it), so that they differ in nothing else.
func localExport(t *testing.T, spec rules.Spec, file string, a answerer) string {
	t.Helper()
	choice, err := positions.Open(context.Background(), rules.New(spec), file)
	if err != nil {
		t.Fatal(err)
	}
	return exportHere(t, spec, choice, 1, a)
}

// exportHere labels the positions choice chooses as tateti-lab export does,
// with workers, answered as a says, into a folder of its own.
func exportHere(t *testing.T, spec rules.Spec, choice *positions.Choice, workers int, a answerer) string {
	t.Helper()
	ctx := context.Background()
	rl := rules.New(spec)
	p, err := plan.For(plan.Request{Rules: rl, Scope: plan.Many, Named: a.Named, DB: a.DB, Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	bs, paths, err := p.Positions(ctx, choice, workers, 0)
	if err != nil {
		t.Fatal(err)
	}
	as, err := p.AnswerAll(ctx, bs, oracle.Batch{Phase: "export", Limit: a.Limit}, a.labels())
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "local")
	target, err := export.NewTarget(dir, export.Formats)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := export.Write(ctx, export.Label(rl, as, paths, *choice), export.Options{Target: target, Meta: export.Meta{Tool: "tateti-beam", Version: release.Version}}); err != nil {
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
		name, cap string
		want      perfect.Engine
	}{
		{"no cap", "", "memory"},
		{"a cap of 1M", "1M", "search"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("TATETI_MEMORY", tt.cap)
			o, err := openEngine(context.Background(), spec, answerer{Named: "auto"}, oracle.Options{NoLines: true})
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

// --db answers a labelling from a finished database, as export --db does:
// the same rows, each answered by "db".
func TestLabelFromDatabase(t *testing.T) {
	spec := rules.Spec{Spec: game.Spec{Rows: 3, Cols: 3, K: 3}}
	store := filepath.Join(t.TempDir(), "db")
	if _, err := tier.Build(context.Background(), rules.New(spec), store, 1); err != nil {
		t.Fatal(err)
	}
	file := positionsFile(t, "4\n40\nX../.O./...\n")
	out := filepath.Join(t.TempDir(), "beam")
	o := runLabelling(t, nil, "--size", "3x3", "--positions", file, "--db", store, "--out", out)
	sameFiles(t, out, localExport(t, o.spec, file, o.answer))
	var w strings.Builder
	if err := sayLabelled(&w, *o.labels); err != nil || !strings.Contains(w.String(), "3 positions labelled") {
		t.Errorf("said %q, %v; want 3 positions labelled", w.String(), err)
	}
	data, err := os.ReadFile(filepath.Join(out, "manifest.json"))
	if err != nil || !strings.Contains(string(data), `"answered_by": {
      "db": 3
    }`) {
		t.Errorf("the manifest: %v; want three positions answered by db:\n%s", err, data)
	}
}
