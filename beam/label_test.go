package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/tateti-lab/tateti-lab/export"
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
	local := localExport(t, o.spec, file)
	for _, name := range []string{"states.csv", "moves.csv", "states.parquet", "moves.parquet"} {
		got, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(local, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the pipeline wrote %d bytes, the local export %d, and they differ", name, len(got), len(want))
		}
	}
}

// localExport labels the positions file as tateti-lab export --positions
// does, into a folder of its own; its files name the pipeline as their
// writer (Parquet's metadata holds it), so that they differ in nothing else.
func localExport(t *testing.T, spec rules.Spec, file string) string {
	t.Helper()
	ctx := context.Background()
	rl := rules.New(spec)
	choice, err := positions.Open(ctx, rl, file)
	if err != nil {
		t.Fatal(err)
	}
	p, err := plan.For(plan.Request{Rules: rl, Scope: plan.Many, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	bs, paths, err := p.Positions(ctx, choice, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	as, err := p.AnswerAll(ctx, bs, oracle.Batch{Phase: "export"}, oracle.Options{NoLines: true})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "local")
	if _, err := export.Write(ctx, export.Label(rl, as, paths, *choice), export.Options{Dir: dir, Formats: export.Formats, Meta: export.Meta{Tool: "tateti-beam", Version: version()}}); err != nil {
		t.Fatal(err)
	}
	return dir
}
