package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/export"
	"github.com/tateti-lab/tateti-lab/plan"
	"github.com/tateti-lab/tateti-lab/positions"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/tier"
)

// options are the command's flags, named as tateti-lab's: the game, and
// the database folder to solve into or the positions file to label and
// the dataset's folder. Beam's own (--runner, --endpoint, ...) are Beam's.
type options struct {
	game   rules.GameFlags
	store  string
	maxPly int // an opening book's last ply; -1 for the whole game
	label  string
	out    string
	format string
	spec   rules.Spec
	job    *tier.Job
	labels *labelJob // with --label
	flags  *flag.FlagSet
}

func (o *options) bind(fs *flag.FlagSet) {
	o.flags = fs
	o.game.Bind(fs)
	fs.StringVar(&o.store, "db", "", "the database folder to solve into (required)")
	fs.IntVar(&o.maxPly, "max-ply", -1, "build an opening book of plies 0 to N, ply N valued by search, as db build --max-ply does")
	fs.StringVar(&o.label, "label", "", "label this positions file (move sequences, one a line) as export --positions does, instead of solving into --db")
	fs.StringVar(&o.out, "out", "", "with --label: the folder the dataset is written into")
	fs.StringVar(&o.format, "format", "parquet,csv", "with --label: file formats, separated by commas: parquet, csv")
}

// check validates the flags before any work and makes the game's spec.
func (o *options) check() error {
	if err := o.makeSpec(); err != nil {
		return err
	}
	if o.label != "" {
		return o.checkLabel()
	}
	if o.store == "" {
		return errors.New("no database folder: name one with --db DIR, or a positions file to label with --label FILE")
	}
	var err error
	if o.job, err = tier.JobOf(rules.New(o.spec), o.maxPly); err != nil {
		return err
	}
	if !store(o.store).local() {
		return nil // the run finds a finished database there, or writes one
	}
	if err := o.job.CheckFolder(o.store); err != nil {
		return err
	}
	if _, err := db.ReadManifest(o.store); err == nil {
		return nil // finished: the run reports it
	}
	e, err := tier.EstimateJob(o.job, 1)
	if err != nil {
		return err
	}
	if err := e.CheckDisk(o.store); err != nil {
		return fmt.Errorf("%w (the solve: %s)", err, e.BeamNeeds())
	}
	return nil
}

// makeSpec makes the game's spec from --game, or from the game flags, as
// tateti-lab does (rules.GameFlags).
func (o *options) makeSpec() error {
	given := map[string]bool{}
	o.flags.Visit(func(f *flag.Flag) { given[f.Name] = true })
	o.game.Given = func(name string) bool { return given[name] }
	var err error
	o.spec, err = o.game.Spec()
	return err
}

// checkLabel validates the labelling flags and reads the positions file,
// every line of it, before any work.
func (o *options) checkLabel() error {
	switch {
	case o.store != "" || o.maxPly >= 0:
		return errors.New("--db and --max-ply solve a game into a database, --label labels a positions file: give one of them")
	case o.out == "":
		return errors.New("no dataset folder: name one with --out DIR")
	}
	formats := strings.Split(o.format, ",")
	if err := export.CheckFormats(formats); err != nil {
		return fmt.Errorf("--format %w", err)
	}
	if err := export.CheckTarget(o.out); err != nil {
		return fmt.Errorf("--out %w", err)
	}
	rl := rules.New(o.spec)
	choice, err := positions.Open(context.Background(), rl, o.label)
	if err != nil {
		return fmt.Errorf("--label: %w", err)
	}
	p, err := plan.For(plan.Request{Rules: rl, Scope: plan.Many, Workers: 1})
	if err != nil {
		return err
	}
	bs, paths, err := p.Positions(context.Background(), choice, 1, 0)
	if err != nil {
		return fmt.Errorf("--label: %w", err)
	}
	o.labels = &labelJob{dataset: dataset{Spec: o.spec, Choice: *choice, Paths: paths, Out: o.out, Formats: formats}, Boards: bs}
	return nil
}

// run solves the game into the store, on the runner the flags name, and
// reports the manifest; a finished database there is reported as it is. A
// local folder is claimed and locked for the run, as db build claims it.
func run(ctx context.Context, o options, w io.Writer) error {
	st := store(o.store)
	if st.local() {
		unlock, err := o.job.Claim(o.store)
		if err != nil {
			return err
		}
		defer unlock()
	}
	data, err := st.read(ctx, db.ManifestName)
	if errors.Is(err, fs.ErrNotExist) {
		e, estErr := tier.EstimateJob(o.job, 1)
		if estErr != nil {
			return estErr
		}
		fmt.Fprintf(w, "tateti-beam: solving tier by tier into %s: %s\n", o.store, e.BeamNeeds())
		p, s := beam.NewPipelineWithRoot()
		if err := build(s, stage{Spec: o.spec, MaxPly: o.maxPly, Store: o.store}, false); err != nil {
			return err
		}
		if err := beamx.Run(ctx, p); err != nil {
			return fmt.Errorf("the pipeline failed: %w", err)
		}
		data, err = st.read(ctx, db.ManifestName)
	}
	if err != nil {
		return err
	}
	var m db.Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return fmt.Errorf("%s: %w", st.path(db.ManifestName), err)
	}
	if m.Game != o.spec || (m.MaxPly == nil) != (o.maxPly < 0) || (m.MaxPly != nil && *m.MaxPly != o.maxPly) {
		return fmt.Errorf("%s holds another game's database, or another book (%s); name another with --db", o.store, m.Game)
	}
	finished(w, o.store, m.Positions, m.Value, m.Depth)
	return nil
}
