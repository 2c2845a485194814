package plan

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/gc"
	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/positions"
	"github.com/tateti-lab/tateti-lab/solve"
	"github.com/tateti-lab/tateti-lab/tier"
)

// Oracle opens the engine of p for positions, with what o asks (the
// workers and memory are the request's): the game in memory is solved whole
// now for Many, search makes its table, a database opens its files. The
// caller closes it. A plan for the whole game has no oracle.
func (p Plan) Oracle(ctx context.Context, o oracle.Options) (oracle.Oracle, error) {
	o.Workers, o.Memory = p.req.Workers, p.req.Memory
	return p.open(ctx, o)
}

// An Opener opens the engine of a plan for positions, with what o asks,
// its workers and memory set: Open, or where a Request says so
// (Request.Open) another, such as a test's fake.
type Opener func(ctx context.Context, p Plan, o oracle.Options) (oracle.Oracle, error)

// open opens the engine of p for positions with o, its workers and memory
// set, by the request's opener.
func (p Plan) open(ctx context.Context, o oracle.Options) (oracle.Oracle, error) {
	if p.req.Open != nil {
		return p.req.Open(ctx, p, o)
	}
	return Open(ctx, p, o)
}

// Open is the Opener of the engines themselves: the database or book,
// search, or the game in memory, as p's engine says.
func Open(ctx context.Context, p Plan, o oracle.Options) (oracle.Oracle, error) {
	rl := p.req.Rules
	switch {
	case p.built != nil:
		return oracle.DatabaseFS(rl, p.built.Files, p.built.Where(), o)
	case p.Engine == perfect.DB, p.Engine == perfect.Book:
		return oracle.Database(rl, p.req.DB, o)
	case p.Engine == perfect.Search:
		return oracle.Search(rl, o)
	case p.Engine == perfect.Memory && (p.Scope == Many || p.Scope == Every):
		r, err := p.solved(ctx)
		if err != nil {
			return nil, err
		}
		return oracle.OfSolved(rl, r, o), nil
	case p.Engine == perfect.Memory && p.Scope == One:
		return oracle.InMemory(rl, o), nil
	}
	return nil, fmt.Errorf("the %s engine answers the whole game, not positions: a bug", p.Engine)
}

// Use opens the engine of p for positions with what o asks, as Oracle
// does, hands it to use, and closes it when use returns.
func (p Plan) Use(ctx context.Context, o oracle.Options, use func(oracle.Oracle) error) error {
	or, err := p.Oracle(ctx, o)
	if err != nil {
		return err
	}
	defer or.Close()
	return use(or)
}

// Answer answers the position b by p's engine, opened with what o asks,
// giving up after limit (never when it is 0), as oracle.Within does.
func (p Plan) Answer(ctx context.Context, b game.Board, o oracle.Options, limit time.Duration) (a perfect.Analysis, err error) {
	err = p.Use(ctx, o, func(or oracle.Oracle) error {
		a, err = oracle.Within(ctx, or, b, limit)
		return err
	})
	return a, err
}

// AnswerAll answers the positions bs by p's engine, opened with what o
// asks, as the batch b says (oracle.All). An engine that searches is
// opened once a worker, each with one worker and its share of the memory:
// positions answered side by side, each search keeping its own table,
// take less time than each position searched by all the workers together
// (docs/performance.md); the other engines answer at once, opened once.
func (p Plan) AnswerAll(ctx context.Context, bs []game.Board, b oracle.Batch, o oracle.Options) ([]perfect.Analysis, error) {
	b.ValueOnly, b.NoDepths = o.ValueOnly, o.NoDepths
	var as []perfect.Analysis
	err := p.useEach(ctx, o, len(bs), func(ors []oracle.Oracle) (err error) {
		as, err = oracle.All(ctx, ors, p.req.Rules, bs, b)
		return err
	})
	return as, err
}

// useEach opens p's engine with what o asks, once a worker for up to n
// positions where it searches (each with one worker and its share of the
// memory) and once otherwise, hands the oracles to use, and closes them
// when use returns.
func (p Plan) useEach(ctx context.Context, o oracle.Options, n int, use func([]oracle.Oracle) error) error {
	o.Workers, o.Memory = p.req.Workers, p.req.Memory
	k := p.alongside(o.Workers, n)
	if k > 1 {
		o.Workers, o.Memory = 1, o.Memory/uint64(k) // 0, search's default, stays 0
	}
	return p.useK(ctx, o, k, use)
}

// alongside gives how many oracles answer up to n positions side by side
// with workers workers: one a worker where p's engine searches, one
// otherwise.
func (p Plan) alongside(workers, n int) int {
	if p.Engine == perfect.Search || p.Engine == perfect.Book {
		return max(1, min(workers, n))
	}
	return 1
}

// useK opens p's engine with o k times, hands the oracles to use, and
// closes them when use returns.
func (p Plan) useK(ctx context.Context, o oracle.Options, k int, use func([]oracle.Oracle) error) error {
	ors := make([]oracle.Oracle, 0, k)
	defer func() {
		for _, or := range ors {
			or.Close()
		}
	}()
	for range k {
		or, err := p.open(ctx, o)
		if err != nil {
			return err
		}
		ors = append(ors, or)
	}
	return use(ors)
}

// Positions gives the positions c chooses of the plan's game, and what is
// known of them (positions.Choice.Boards): a sample drawn by noisy perfect
// play asks its best moves of p's engine, as every answer does, opened
// once a game played side by side (useEach).
func (p Plan) Positions(ctx context.Context, c *positions.Choice, workers int, memory uint64) (bs []game.Board, known positions.Known, err error) {
	rl := p.req.Rules
	if c.Sample == nil || !c.Sample.Play().NeedsBest() {
		return c.Boards(ctx, rl, workers, memory, nil)
	}
	err = p.useEach(ctx, oracle.Options{NoLines: true}, c.Sample.N, func(ors []oracle.Oracle) error {
		best := make([]positions.BestMove, len(ors))
		for w, o := range ors {
			best[w] = oracle.BestMove(o)
		}
		drawn := *c
		if instantBelow(ors[0], c.Sample.Plies.High) { // games of microseconds, as random play's: no journal
			drawn.Games = ""
		}
		bs, known, err = drawn.Boards(ctx, rl, workers, memory, best)
		return err
	})
	return bs, known, err
}

// instantBelow says whether o answers at once (oracle.Oracle.Instant)
// every best move a draw asks before ply high: those of the positions of
// the plies below it, each asked with its children. It asks of a board of
// high-1 marks, X's and O's by turns over the first cells: an oracle
// answers at once by its kind, and an opening book by the ply alone.
func instantBelow(o oracle.Oracle, high int) bool {
	var b game.Board
	for c := range max(high-1, 0) {
		b = b.Play(c, b.ToMove())
	}
	return o.Instant(b)
}

// Whole solves the whole game as p says, and gives its summary: in memory,
// tier by tier in a temporary folder removed before it returns (the
// summary then has each ply's positions by value for the side to move
// too), or read from the database.
func (p Plan) Whole(ctx context.Context) (perfect.Summary, error) {
	rl, workers := p.req.Rules, p.req.Workers
	switch p.Engine {
	case perfect.Memory:
		return solve.Summarize(ctx, rl, workers)
	case perfect.DB:
		return p.dbSummary(ctx)
	case perfect.Tiers:
		defer p.Policy().Apply()()
		tmp, err := os.MkdirTemp("", "tateti-tiers-")
		if err != nil {
			return perfect.Summary{}, fmt.Errorf("a temporary folder for the tiers cannot be made (%v); set TMPDIR to a folder with room", err)
		}
		defer os.RemoveAll(tmp)
		return tier.Build(ctx, rl, filepath.Join(tmp, "db"), workers)
	}
	return perfect.Summary{}, fmt.Errorf("the %s engine answers positions, not the whole game: a bug", p.Engine)
}

// dbSummary reads the summary of the finished database p names, every
// file checked: a database of values and depths whole (tier.Summary); a
// win/draw/loss one from its manifest, the root's depth and its first
// moves answered as any position's.
func (p Plan) dbSummary(ctx context.Context) (perfect.Summary, error) {
	rl, dir := p.req.Rules, p.req.DB
	m, err := db.Readable(dir, rl.Spec())
	if err != nil || !db.Packed(m.Layout) {
		return tier.Summary(ctx, rl, dir)
	}
	v, err := db.OpenValues(dir, rl)
	if err != nil {
		return perfect.Summary{}, err
	}
	if err := v.Verify(ctx); err != nil {
		v.Close()
		return perfect.Summary{}, err
	}
	o, err := oracle.Values(rl, v, oracle.Options{Workers: p.req.Workers, Memory: p.req.Memory, NoLines: true})
	if err != nil {
		v.Close()
		return perfect.Summary{}, err
	}
	defer o.Close()
	a, err := o.Analyze(ctx, game.Board{})
	if err != nil {
		return perfect.Summary{}, err
	}
	s := tier.Summarize(m, a.Moves)
	s.Depth = a.Depth
	return s, nil
}

// Policy is what the collector is asked for while p's engine works: the
// tier solve's (tier.Estimate.Policy); none otherwise.
func (p Plan) Policy() gc.Policy {
	if p.Engine == perfect.Tiers {
		return p.Tiers.Policy()
	}
	return gc.Policy{}
}

// A Game is the whole game as a plan of Every answers it: solved in
// memory (Solved), or read from its finished database (DB); one of the
// two is set. Close lets go of it.
type Game struct {
	Solved *solve.Result
	DB     *db.DB
}

// Close lets go of what g holds: the database's files.
func (g Game) Close() error {
	if g.DB != nil {
		return g.DB.Close()
	}
	return nil
}

// Game opens the whole game as p, a plan of Every, answers it: its
// database, or the game solved now in memory. The caller closes it.
func (p Plan) Game(ctx context.Context) (Game, error) {
	if p.Engine == perfect.DB {
		d, err := db.Open(p.req.DB, p.req.Rules)
		return Game{DB: d}, err
	}
	r, err := p.solved(ctx)
	return Game{Solved: r}, err
}

// solved solves the whole game in memory, with the request's workers: the
// one place a plan does, for the whole game and for the memory engine's
// positions alike.
func (p Plan) solved(ctx context.Context) (*solve.Result, error) {
	return solve.Game(ctx, p.req.Rules, max(p.req.Workers, 1))
}
