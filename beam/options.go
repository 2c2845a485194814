package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/export"
	"github.com/tateti-lab/tateti-lab/internal/sysmem"
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
	sample int // with --sample: the positions to draw, by play (positions.Sample)
	plies  string
	seed   uint64
	eps    float64
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
	fs.IntVar(&o.sample, "sample", 0, "draw N positions by play and label them as export --sample does, instead of solving into --db")
	fs.StringVar(&o.plies, "plies", "", "with --sample: the plies play stops at, such as 8 or 0-30")
	fs.Uint64Var(&o.seed, "seed", 1, "with --sample: the seed of every choice of the play")
	fs.Float64Var(&o.eps, "epsilon", 1, "with --sample: each side plays a best move with probability 1-E, a random legal move otherwise (1: random play)")
	fs.StringVar(&o.out, "out", "", "with --label or --sample: the folder the dataset is written into")
	fs.StringVar(&o.format, "format", "parquet,csv", "with --label or --sample: file formats, separated by commas: parquet, csv")
}

// check validates the flags before any work and makes the game's spec.
func (o *options) check() error {
	if err := o.makeSpec(); err != nil {
		return err
	}
	given := o.given()
	for _, name := range []string{"plies", "seed", "epsilon"} {
		if given[name] && !given["sample"] {
			return fmt.Errorf("--%s goes with --sample N, whose play it sets", name)
		}
	}
	if o.label != "" || given["sample"] {
		return o.checkLabel(given)
	}
	if o.store == "" {
		return errors.New("no database folder: name one with --db DIR, a positions file to label with --label FILE, or a sample with --sample N")
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
	given := o.given()
	o.game.Given = func(name string) bool { return given[name] }
	var err error
	o.spec, err = o.game.Spec()
	return err
}

// given gives the flags set on the command line.
func (o *options) given() map[string]bool {
	given := map[string]bool{}
	o.flags.Visit(func(f *flag.Flag) { given[f.Name] = true })
	return given
}

// checkLabel validates the labelling flags before any work: the positions
// file, every line of it, or the sample to draw.
func (o *options) checkLabel(given map[string]bool) error {
	switch {
	case o.store != "" || o.maxPly >= 0:
		return errors.New("--db and --max-ply solve a game into a database, --label and --sample label positions: give one of them")
	case o.label != "" && given["sample"]:
		return errors.New("--label and --sample each choose the positions: give one of them")
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
	p, err := plan.For(plan.Request{Rules: rl, Scope: plan.Many, Workers: 1, Memory: sysmem.Available()})
	if err != nil {
		return err
	}
	set := dataset{Spec: o.spec, Out: o.out, Formats: formats}
	if given["sample"] {
		return o.checkSample(rl, set, given["epsilon"])
	}
	choice, err := positions.Open(context.Background(), rl, o.label)
	if err != nil {
		return fmt.Errorf("--label: %w", err)
	}
	bs, paths, err := p.Positions(context.Background(), choice, 1, 0)
	if err != nil {
		return fmt.Errorf("--label: %w", err)
	}
	set.Choice, set.Paths = *choice, paths
	o.labels = &labelJob{dataset: set, Boards: bs}
	return nil
}

// checkSample validates the sample's flags, as tateti-lab export checks
// them, and whether so many positions exist where that can be counted;
// noisy says --epsilon was given, which the manifest then records.
func (o *options) checkSample(rl rules.Rules, set dataset, noisy bool) error {
	if o.sample < 1 {
		return fmt.Errorf("--sample %d is not a count of positions, want 1 or more", o.sample)
	}
	if o.plies == "" {
		return errors.New("--sample goes with --plies, the plies play stops at, such as --plies 8 or --plies 0-30")
	}
	pl, err := positions.ParsePlies(o.plies, rl.Spec().Cells())
	if err != nil {
		return fmt.Errorf("--plies: %w", err)
	}
	s := positions.Sample{N: o.sample, Seed: o.seed, Plies: pl}
	if noisy {
		if err := s.WithEpsilon(o.eps); err != nil { // the manifest records it, as export's does
			return fmt.Errorf("--epsilon %w", err)
		}
	}
	if err := s.Check(context.Background(), rl, 1, sysmem.Available()); err != nil {
		return fmt.Errorf("--sample: %w", err)
	}
	set.Choice = positions.Choice{From: "sample", Sample: &s}
	set.Paths = slices.Repeat([]int64{-1}, s.N)
	o.labels = &labelJob{dataset: set, Games: drawGames(s.N)}
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
