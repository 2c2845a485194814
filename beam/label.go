package main

import (
	"bytes"
	"context"
	"encoding/gob"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	"github.com/tateti-lab/tateti-lab/choose"
	"github.com/tateti-lab/tateti-lab/export"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/release"
	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/positions"
	"github.com/tateti-lab/tateti-lab/rules"
)

// labelItem is one position of the file to label: its place in the file
// and its board.
type labelItem struct {
	I       int
	X, O    uint64
	History []int8 // the cells played to it (positions.History), where Known
	// Known says the history is known: an empty one is the empty board's,
	// which no coder tells from none.
	Known bool
}

// item gives position i, b, as an item, with its history h (nil: not
// known).
func item(i int, b game.Board, h positions.History) labelItem {
	return labelItem{I: i, X: uint64(b.X), O: uint64(b.O), History: h, Known: h != nil}
}

// history gives the item's history: nil where not known, never where
// known and empty.
func (it labelItem) history() positions.History {
	if !it.Known {
		return nil
	}
	if it.History == nil {
		return positions.History{}
	}
	return it.History
}

// labelled is one position's answer as it passes through the engine,
// gob-encoded: its place and its analysis.
type labelled struct {
	I    int
	A    perfect.Analysis
	Item labelItem // for its history
}

// labelJob is what the labelling pipeline is given, checked before any
// work: the file's positions, or the sample to draw (dataset.Choice) and
// the games it plays side by side; and the dataset to write of them.
type labelJob struct {
	dataset
	Boards    []game.Board        // the file's positions; none for a sample
	Histories []positions.History // and their histories (nil where not known)
	Games     int                 // a sample's games played side by side (drawGames)
	Answer    answerer            // who answers, and how
}

// dataset is what the last task needs to write the dataset: the game, the
// file's choice and its positions' paths (one a position, in its order),
// and the folder and formats.
type dataset struct {
	Spec    rules.Spec
	Choice  positions.Choice
	Paths   []int64
	Out     string
	Formats []string
}

// buildLabel adds to s the labelling of j's positions, the file's or the
// sample's drawn first (buildDraw): each position a task (Reshuffle spreads
// them over the workers), answered by the engine the planner picks for
// positions of the game (the opening book built in, and search past it, on
// Connect Four), as export answers them; then one task gathers the answers
// in the set's order and writes the dataset, the very tables export writes.
func buildLabel(s beam.Scope, j labelJob) {
	var items beam.PCollection
	if j.Choice.Sample != nil {
		items = buildDraw(s.Scope("draw"), j)
	} else {
		list := make([]labelItem, len(j.Boards))
		for i, b := range j.Boards {
			list[i] = item(i, b, j.Histories[i])
		}
		items = beam.CreateList(s, list)
	}
	answered := beam.ParDo(s, &labelFn{Spec: j.Spec, Answer: j.Answer}, beam.Reshuffle(s, items))
	beam.ParDo0(s, &writeFn{Set: j.dataset}, beam.GroupByKey(s, beam.AddFixedKey(s, answered)))
}

// labelFn answers positions of the game of Spec, with the engine the
// planner picks, opened once a worker.
type labelFn struct {
	Spec   rules.Spec
	Answer answerer
	o      oracle.Oracle
}

// Setup opens the engine.
func (f *labelFn) Setup(ctx context.Context) (err error) {
	f.o, err = openEngine(ctx, f.Spec, f.Answer, f.Answer.labels())
	return err
}

// Teardown lets the engine go.
func (f *labelFn) Teardown() error { return closeEngine(f.o) }

// ProcessElement answers one position.
func (f *labelFn) ProcessElement(ctx context.Context, it labelItem, emit func([]byte)) error {
	b := game.Board{X: game.Mask(it.X), O: game.Mask(it.O)}
	a, err := oracle.Within(ctx, f.o, b, f.Answer.Limit)
	if err != nil {
		return fmt.Errorf("position %s: %w", f.Spec.Format(b), err)
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(labelled{I: it.I, A: a, Item: it}); err != nil {
		return err
	}
	emit(buf.Bytes())
	return nil
}

// writeFn writes the dataset of the answers, gathered under one key. It
// carries the dataset's description, not the positions, which come with
// their answers.
type writeFn struct{ Set dataset }

// ProcessElement puts the answers in the file's order and writes them as
// export does, into the folder Out, which replaces what was there whole.
func (f *writeFn) ProcessElement(ctx context.Context, _ int, answers func(*[]byte) bool) error {
	j := f.Set
	as := make([]perfect.Analysis, len(j.Paths))
	hist := make([]positions.History, len(j.Paths))
	have := make([]bool, len(j.Paths))
	var data []byte
	for answers(&data) {
		var l labelled
		if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&l); err != nil {
			return err
		}
		as[l.I], hist[l.I], have[l.I] = l.A, l.Item.history(), true
	}
	if i := slices.Index(have, false); i >= 0 {
		return fmt.Errorf("position %d of the set was not answered", i+1)
	}
	src := export.Label(rules.New(j.Spec), as, positions.Known{Paths: j.Paths, Histories: hist}, j.Choice)
	target, err := export.NewTarget(j.Out, j.Formats) // on this worker, now
	if err != nil {
		return err
	}
	_, err = export.Write(ctx, src, export.Options{Target: target, Meta: export.Meta{Tool: "tateti-beam", Version: release.Version}, Workers: 1})
	return err
}

// runLabel labels the positions file or the sample the flags name, on the
// runner they name, and says where the dataset went.
func runLabel(ctx context.Context, j labelJob, w io.Writer) error {
	if s := j.Choice.Sample; s != nil {
		fmt.Fprintf(w, "tateti-beam: drawing %d positions of %s at plies %s (%d games side by side, %d a task), and labelling them into %s\n", s.N, j.Spec, s.Plies, j.Games, chunkGames, j.Out)
	} else {
		fmt.Fprintf(w, "tateti-beam: labelling %d positions of %s into %s\n", len(j.Boards), j.Spec, j.Out)
	}
	p, s := beam.NewPipelineWithRoot()
	buildLabel(s, j)
	if err := beamx.Run(ctx, p); err != nil {
		return fmt.Errorf("the pipeline failed: %w", err)
	}
	return sayLabelled(w, j)
}

// sayLabelled says what the pipeline wrote into j's folder, from its
// manifest: the positions labelled, and, as the export does, an error
// (exit 1) for those left out, not settled within --time-limit.
func sayLabelled(w io.Writer, j labelJob) error {
	data, err := os.ReadFile(filepath.Join(j.Out, export.ManifestName))
	var m export.Manifest
	if err == nil {
		err = json.Unmarshal(data, &m)
	}
	if err != nil {
		return fmt.Errorf("the dataset's manifest: %w", err)
	}
	what := "with every move's value"
	switch a := j.Answer; {
	case a.ValueOnly && a.NoDepths:
		what = "their values alone, without depths"
	case a.ValueOnly:
		what = "their values and depths alone"
	case a.NoDepths:
		what = "with every move's value, without depths"
	}
	n := m.Unsettled()
	fmt.Fprintf(w, "%s: %d positions labelled, %s\n", j.Out, len(j.Paths)-n, what)
	return choose.Unsettled(n, j.Answer.Limit)
}
