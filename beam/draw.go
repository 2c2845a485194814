package main

import (
	"bytes"
	"context"
	"encoding/gob"
	"fmt"
	"slices"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/tateti-lab/tateti-lab/internal/sysmem"
	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/plan"
	"github.com/tateti-lab/tateti-lab/positions"
	"github.com/tateti-lab/tateti-lab/rules"
)

// chunkGames is the games of a sample one draw task plays.
const chunkGames = 64

// drawGames is the games a sample of n positions plays side by side,
// 2n + 64: many games end over before their ply, or stop where an earlier
// one did (at plies 0 to 30 of Connect Four, by noisy perfect play at E
// 0.25, 3,000 positions took 5,447 games), and the keeper plays what is
// missing itself, one game after another.
func drawGames(n int) int { return 2*n + 64 }

// gamesChunk is the games a draw task plays: First to First+N-1.
type gamesChunk struct{ First, N int }

// drawnChunk is where a chunk's games stopped, gob-encoded as it passes
// through the engine.
type drawnChunk struct {
	First int
	Games []positions.Drawn
}

// buildDraw adds to s the draw of j's sample and gives its positions as
// items to label: its first j.Games games side by side, a chunk of them a
// task (each game from its own stream of choices, so whoever plays it
// plays the same game), then one task that keeps the sample's positions in
// the games' order, as the local draw keeps them, playing on past j.Games
// itself if they fall short.
func buildDraw(s beam.Scope, j labelJob) beam.PCollection {
	var chunks []gamesChunk
	for a := 0; a < j.Games; a += chunkGames {
		chunks = append(chunks, gamesChunk{First: a, N: min(chunkGames, j.Games-a)})
	}
	sample := *j.Choice.Sample
	drawn := beam.ParDo(s, &drawFn{Spec: j.Spec, Sample: sample, Answer: j.Answer}, beam.Reshuffle(s, beam.CreateList(s, chunks)))
	return beam.ParDo(s, &keepFn{Spec: j.Spec, Sample: sample, Answer: j.Answer, Games: j.Games}, beam.GroupByKey(s, beam.AddFixedKey(s, drawn)))
}

// drawFn plays chunks of a sample's games, with the engine the planner
// picks for its best moves, opened once a worker.
type drawFn struct {
	Spec   rules.Spec
	Sample positions.Sample
	Answer answerer
	o      oracle.Oracle
	p      *positions.Player
}

// Setup makes the worker's player.
func (f *drawFn) Setup(ctx context.Context) (err error) {
	f.p, f.o, err = player(ctx, f.Spec, f.Sample, f.Answer)
	return err
}

// Teardown lets the engine go.
func (f *drawFn) Teardown() error { return closeEngine(f.o) }

// ProcessElement plays one chunk of games.
func (f *drawFn) ProcessElement(ctx context.Context, c gamesChunk, emit func([]byte)) error {
	d := drawnChunk{First: c.First, Games: make([]positions.Drawn, c.N)}
	for i := range d.Games {
		var err error
		if d.Games[i], err = f.p.Play(ctx, c.First+i); err != nil {
			return fmt.Errorf("game %d of the sample: %w", c.First+i, err)
		}
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(d); err != nil {
		return err
	}
	emit(buf.Bytes())
	return nil
}

// keepFn keeps a sample's positions from its chunks of games, gathered
// under one key, in the games' order.
type keepFn struct {
	Spec   rules.Spec
	Sample positions.Sample
	Answer answerer
	Games  int
}

// ProcessElement keeps the positions of the first Games games, plays more
// games one after another while the sample is short, and emits each
// position kept with its place in the sample.
func (f *keepFn) ProcessElement(ctx context.Context, _ int, chunks func(*[]byte) bool, emit func(labelItem)) error {
	var all []drawnChunk
	var data []byte
	for chunks(&data) {
		var d drawnChunk
		if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&d); err != nil {
			return err
		}
		all = append(all, d)
	}
	slices.SortFunc(all, func(a, b drawnChunk) int { return a.First - b.First })
	k := f.Sample.Keeper(rules.New(f.Spec))
	next := 0
	for _, d := range all {
		if d.First != next {
			return fmt.Errorf("games %d on of the sample were not drawn", next)
		}
		for _, g := range d.Games {
			if err := k.Add(g); err != nil {
				return err
			}
		}
		next += len(d.Games)
	}
	if err := f.more(ctx, k, next); err != nil {
		return err
	}
	hs := k.Histories()
	for i, b := range k.Boards() {
		emit(item(i, b, hs[i]))
	}
	return nil
}

// more plays the sample's games from next on, one after another, until k
// is full.
func (f *keepFn) more(ctx context.Context, k *positions.Keeper, next int) error {
	if k.Full() {
		return nil
	}
	p, o, err := player(ctx, f.Spec, f.Sample, f.Answer)
	if err != nil {
		return err
	}
	defer closeEngine(o)
	for ; !k.Full(); next++ {
		g, err := p.Play(ctx, next)
		if err != nil {
			return fmt.Errorf("game %d of the sample: %w", next, err)
		}
		if err := k.Add(g); err != nil {
			return err
		}
	}
	return nil
}

// player makes a player of the sample's games, and the engine it asks for
// best moves (nil for random play, which asks none).
func player(ctx context.Context, spec rules.Spec, s positions.Sample, a answerer) (*positions.Player, oracle.Oracle, error) {
	rl := rules.New(spec)
	if !s.Play().NeedsBest() {
		p, err := s.Player(rl, nil)
		return p, nil, err
	}
	o, err := openEngine(ctx, spec, a, oracle.Options{NoLines: true}) // best moves: every move's value and depth
	if err != nil {
		return nil, nil, err
	}
	p, err := s.Player(rl, oracle.BestMove(o))
	if err != nil {
		o.Close()
		return nil, nil, err
	}
	return p, o, nil
}

// answerer is who answers a labelling's positions, as the flags say, the
// command line's way: the engine named (Named, "auto" to let the planner
// choose), or the finished database in DB; each position's value alone
// (ValueOnly), values without depths (NoDepths), within Limit (0: none).
type answerer struct {
	Named, DB string
	ValueOnly bool
	NoDepths  bool
	Limit     time.Duration
}

// labels gives what a labelling asks of each answer, as export's: no
// best line, and values alone or without depths as a says.
func (a answerer) labels() oracle.Options {
	return oracle.Options{NoLines: true, ValueOnly: a.ValueOnly, NoDepths: a.NoDepths}
}

// plan has the planner choose who answers positions of rl's game, with one
// worker and the memory of the machine it runs on (capped by
// TATETI_MEMORY there, as the command line's).
func (a answerer) plan(rl rules.Rules) (plan.Plan, error) {
	return plan.For(plan.Request{Rules: rl, Scope: plan.Many, Named: a.Named, DB: a.DB, Workers: 1, Memory: sysmem.Available()})
}

// openEngine opens the engine a names for positions of the game of spec,
// answering as asked says: on Connect Four by default the opening book
// built in, and search past it.
func openEngine(ctx context.Context, spec rules.Spec, a answerer, asked oracle.Options) (oracle.Oracle, error) {
	p, err := a.plan(rules.New(spec))
	if err != nil {
		return nil, err
	}
	return p.Oracle(ctx, asked)
}

// closeEngine lets an engine go, if there is one.
func closeEngine(o oracle.Oracle) error {
	if o == nil {
		return nil
	}
	return o.Close()
}
