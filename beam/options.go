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
	"github.com/tateti-lab/tateti-lab/choose"
	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/export"
	"github.com/tateti-lab/tateti-lab/internal/sysmem"
	"github.com/tateti-lab/tateti-lab/positions"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/tier"
)

// options are the command's flags, named and checked as tateti-lab's
// (package choose holds the rules of those that choose positions and who
// answers them): the game, the database folder to solve into, or the
// positions file or sample to label, who answers it, and the dataset's
// folder. Beam's own (--runner, --endpoint, ...) are Beam's.
type options struct {
	game   rules.GameFlags
	store  string
	maxPly int // an opening book's last ply; -1 for the whole game
	set    choose.Flags
	answer answerer
	out    string
	format string
	spec   rules.Spec
	job    *tier.Job
	wdl    *tier.WDLJob // with --wdl, in place of job
	labels *labelJob    // with --positions or --sample
	// valuesOnly is --wdl: the win/draw/loss database.
	valuesOnly bool
	flags      *flag.FlagSet
}

// offered are the flags of this command that choose positions: --max-ply
// builds an opening book here, as db build --max-ply does.
var offered = []string{"positions", "sample"}

func (o *options) bind(fs *flag.FlagSet) {
	o.flags = fs
	o.game.Bind(fs)
	fs.StringVar(&o.store, "db", "", "the database folder to solve into; with --positions or --sample, answer from the finished database there instead, as export --db does (on a cluster, a folder every worker reaches)")
	fs.IntVar(&o.maxPly, "max-ply", -1, "build an opening book of plies 0 to N, ply N valued by search, as db build --max-ply does")
	fs.BoolVar(&o.valuesOnly, "wdl", false, "build the win/draw/loss database, as db build --wdl does: values alone, two bits a board with no line; db build DIR then counts the positions play reaches")
	fs.StringVar(&o.set.Positions, "positions", "", "label the positions in this file (one a line: a move sequence such as 4453, or a board) as export --positions does, instead of solving into --db")
	fs.IntVar(&o.set.Sample, "sample", 0, "draw N positions by play and label them as export --sample does, instead of solving into --db")
	fs.StringVar(&o.set.Plies, "plies", "", "with --sample: the plies play stops at, such as 8 or 0-30")
	fs.Uint64Var(&o.set.Seed, "seed", 1, "with --sample: the seed of every choice of the play")
	fs.Float64Var(&o.set.Epsilon, "epsilon", 1, "with --sample: each side plays a best move with probability 1-E, a random legal move otherwise (1: random play)")
	fs.BoolVar(&o.set.Quiet, "quiet-positions", false, "with --sample: only quiet positions (no immediate win, no line to stop), one of each symmetry class, as export's")
	fs.BoolVar(&o.set.OnePerClass, "one-per-class", false, "with --positions or --sample: one position of each class of boards equal up to the rules' symmetries (under gravity, of each mirror pair), as export's")
	fs.StringVar(&o.answer.Named, "engine", "auto", "with --positions or --sample, who answers: memory (the game solved exhaustively), search, or auto: memory where the game fits a worker's memory, search otherwise (the opening book built in first, on Connect Four)")
	fs.BoolVar(&o.answer.ValueOnly, "value-only", false, "with --positions or --sample: each position's value and depth alone, as export --value-only")
	fs.BoolVar(&o.answer.NoDepths, "no-depths", false, "with --positions or --sample: values without depths, the position's and every move's, as export --no-depths")
	fs.DurationVar(&o.answer.Limit, "time-limit", 0, "with --positions or --sample: the most each position is searched, such as 30s; one not settled is left out of the tables and named in manifest.json (0: no limit)")
	fs.StringVar(&o.out, "out", "", "with --positions or --sample: the folder the dataset is written into")
	fs.StringVar(&o.format, "format", "parquet,csv", "with --positions or --sample: file formats, separated by commas: parquet, csv")
}

// check validates the flags before any work and makes the game's spec.
func (o *options) check() error {
	if err := o.makeSpec(); err != nil {
		return err
	}
	given := o.given()
	from, err := choose.Chooser(func(name string) bool { return given[name] }, offered, true, false)
	if err != nil {
		return err
	}
	if from != "" {
		return o.checkLabel(given, from)
	}
	if err := choose.WithSet(func(name string) bool { return given[name] }, false, offered, "engine", "value-only", "no-depths", "time-limit", "out", "format"); err != nil {
		return err
	}
	if o.store == "" {
		return errors.New("no database folder: name one with --db DIR, a positions file to label with --positions FILE, or a sample with --sample N")
	}
	if err := o.makeJob(); err != nil {
		return err
	}
	if !store(o.store).local() {
		return nil // the run finds a finished database there, or writes one
	}
	if err := o.checkFolder(); err != nil {
		return err
	}
	if _, err := db.ReadManifest(o.store); err == nil {
		return nil // finished: the run reports it
	}
	e, err := o.estimate()
	if err != nil {
		return err
	}
	if err := e.CheckDisk(o.store); err != nil {
		return fmt.Errorf("%w (the solve: %s)", err, e.BeamNeeds())
	}
	return nil
}

// makeJob makes the job --db is built by: the win/draw/loss solve's with
// --wdl (the whole game), else the tier solve's, of the whole game or of
// its book to --max-ply.
func (o *options) makeJob() (err error) {
	rl := rules.New(o.spec)
	switch {
	case o.valuesOnly && o.maxPly >= 0:
		return errors.New("--wdl builds the whole game; leave out --max-ply")
	case o.valuesOnly:
		o.wdl, err = tier.NewWDLJob(rl)
	default:
		o.job, err = tier.JobOf(rl, o.maxPly)
	}
	return err
}

// checkFolder checks the local --db folder for the run's job, as its claim
// will.
func (o *options) checkFolder() error {
	if o.wdl != nil {
		return o.wdl.CheckFolder(o.store)
	}
	return o.job.CheckFolder(o.store)
}

// claim claims the local --db folder for the run's job.
func (o *options) claim() (func(), error) {
	if o.wdl != nil {
		return o.wdl.Claim(o.store)
	}
	return o.job.Claim(o.store)
}

// estimate gives what the run's job needs, one worker's work.
func (o *options) estimate() (tier.Estimate, error) {
	if o.wdl != nil {
		return tier.EstimateWDL(o.wdl, 1), nil
	}
	return tier.EstimateJob(o.job, 1)
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

// checkLabel validates the labelling flags before any work: who answers,
// the dataset's folder and formats, and the positions file, every line
// of it, or the sample to draw (from names which).
func (o *options) checkLabel(given map[string]bool, from string) error {
	switch {
	case o.maxPly >= 0:
		return fmt.Errorf("--max-ply builds an opening book into --db; --%s labels positions: give one of them", from)
	case o.out == "":
		return errors.New("no dataset folder: name one with --out DIR")
	}
	if err := errors.Join(choose.Who(o.answer.Named, o.store), choose.TimeLimit(o.answer.Limit)); err != nil {
		return err
	}
	formats := strings.Split(o.format, ",")
	// The folder is checked here, before any work, and again by the task
	// that writes the dataset, on its worker, hours later (writeFn).
	if _, err := export.NewTarget(o.out, formats); err != nil {
		if errors.As(err, new(*export.FormatError)) {
			return fmt.Errorf("--format %w", err)
		}
		return fmt.Errorf("--out %w", err)
	}
	rl := rules.New(o.spec)
	o.answer.DB = o.store
	p, err := o.answer.plan(rl)
	if err != nil {
		return err
	}
	set := dataset{Spec: o.spec, Out: o.out, Formats: formats}
	if from == "sample" {
		return o.checkSample(rl, set, given)
	}
	choice, err := positions.Open(context.Background(), rl, o.set.Positions)
	if err != nil {
		return fmt.Errorf("--positions: %w", err)
	}
	choice.OnePerClass = o.set.OnePerClass
	bs, known, err := p.Positions(context.Background(), choice, 1, 0)
	if err != nil {
		return fmt.Errorf("--positions: %w", err)
	}
	set.Choice, set.Paths = *choice, known.Paths
	o.labels = &labelJob{dataset: set, Boards: bs, Histories: known.Histories, Answer: o.answer}
	return nil
}

// checkSample validates the sample's flags, as tateti-lab export checks
// them (choose.SampleOf), and whether so many positions exist where that
// can be counted within the memory of this machine.
func (o *options) checkSample(rl rules.Rules, set dataset, given map[string]bool) error {
	s, err := choose.SampleOf(o.set, rl, given["plies"], given["epsilon"])
	if err != nil {
		return err
	}
	if err := s.Check(context.Background(), rl, 1, sysmem.Available()); err != nil {
		return fmt.Errorf("--sample: %w", err)
	}
	set.Choice = positions.Choice{From: positions.FromSample, Sample: s}
	set.Paths = slices.Repeat([]int64{-1}, s.N)
	o.labels = &labelJob{dataset: set, Games: drawGames(s.N), Answer: o.answer}
	return nil
}

// run solves the game into the store, on the runner the flags name, and
// reports the manifest; a finished database there is reported as it is. A
// local folder is claimed and locked for the run, as db build claims it.
func run(ctx context.Context, o options, w io.Writer) error {
	st := store(o.store)
	if st.local() {
		unlock, err := o.claim()
		if err != nil {
			return err
		}
		defer unlock()
	}
	data, err := st.read(ctx, db.ManifestName)
	if errors.Is(err, fs.ErrNotExist) {
		e, estErr := o.estimate()
		if estErr != nil {
			return estErr
		}
		fmt.Fprintf(w, "tateti-beam: solving tier by tier into %s: %s\n", o.store, e.BeamNeeds())
		p, s := beam.NewPipelineWithRoot()
		g := stage{Spec: o.spec, MaxPly: o.maxPly, Store: o.store, WDL: o.wdl != nil}
		build := build
		if g.WDL {
			build = buildWDL
		}
		if err := build(s, g, false); err != nil {
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
	if m.Game != o.spec || (m.MaxPly == nil) != (o.maxPly < 0) || (m.MaxPly != nil && *m.MaxPly != o.maxPly) || db.Packed(m.Layout) != (o.wdl != nil) {
		return fmt.Errorf("%s holds another game's database, another book, or one of another kind (%s, layout %s); name another with --db", o.store, m.Game, m.Layout)
	}
	finished(w, o.store, m.Positions, m.Value, m.Depth)
	if db.Packed(m.Layout) && len(m.Reached) == 0 {
		fmt.Fprintf(w, "%s: the positions play reaches are not counted yet: tateti-lab db build %s --wdl %s counts them\n", o.store, m.Game.Flags(), o.store)
	}
	return nil
}
