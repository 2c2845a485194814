package export

import (
	"context"
	"math/bits"
	"sort"
	"sync"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/positions"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
)

// Whole is the source of every position of a game, as the planner opened
// it: read from its database d (Database, its reads ended by ctx), or
// solved in memory r (Game), whichever is not nil.
func Whole(ctx context.Context, r *solve.Result, d *db.DB, workers int) Source {
	if d != nil {
		return Database(ctx, d, workers)
	}
	return Game(r)
}

// Database is the source of every reachable position of the solved game in
// d, sorted by ply, then by rank in the database's layout
// (docs/database.md): a whole game past memory, streamed a ply at a time.
// Each row is made from the codes of its ply and, for its moves, of the
// next; a few plies' codes are held at once (db.Plies). Paths are not
// counted tier by tier: null. workers inflate a ply's blocks. A read stops
// when ctx ends, the run's: the export then fails with its error.
func Database(ctx context.Context, d *db.DB, workers int) Source {
	src := &dbSource{ctx: ctx, d: d, rl: d.Rules, plies: d.Plies(workers, heldPlies)}
	src.start = make([]int64, len(d.Manifest.Plies)+1)
	for p, ply := range d.Manifest.Plies {
		src.start[p+1] = src.start[p] + ply.Positions
	}
	src.count = &dbRows{src: src}
	return src
}

// heldPlies is how many plies' codes a database source holds at once.
const heldPlies = 6

type dbSource struct {
	ctx   context.Context // the run's: reads stop when it ends
	d     *db.DB
	rl    rules.Rules
	start []int64 // start[p]: the positions of the plies before p; one more at the end
	plies *db.Plies
	mu    sync.Mutex
	count *dbRows // nMoves's own cursor
}

func (s *dbSource) shape() shape { return shape{game: s.rl.Spec(), chosen: true} }
func (s *dbSource) len() int     { return int(s.start[len(s.start)-1]) }
func (s *dbSource) chosen() *Chosen {
	return &Chosen{Choice: positions.Choice{From: positions.FromDB}, Engine: perfect.DB, AnsweredBy: map[perfect.Engine]int{perfect.DB: s.len()}}
}
func (s *dbSource) rows() rowMaker {
	return &dbRows{src: s, cells: newCellTable(s.rl.Spec().Spec)}
}

// nMoves gives position i's legal moves; moveChunks asks for every i in
// order, through a cursor of its own.
func (s *dbSource) nMoves(i int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, r, ok := s.count.seek(int64(i))
	if !ok {
		return 0
	}
	return bits.OnesCount64(uint64(s.rl.Moves(s.d.Layout().Unrank(p, r))))
}

// dbRows makes rows from a cursor over the reachable placements: a row
// after the last one it made is the next reachable rank, found by a short
// scan; any other by its ply's directory.
type dbRows struct {
	src   *dbSource
	cells *cellTable
	i     int64 // the position last found; -1 (with cur nil) before the first
	p     int
	r     int64
	cur   *db.PlyCodes
	next  *db.PlyCodes // ply nextP, for the moves: asked of the cache once a ply
	nextP int
	kids  []int64
	err   error
	a     perfect.Analysis
}

// seek finds position i: its ply and rank; false after a read error
// (kept in err).
func (c *dbRows) seek(i int64) (p int, r int64, ok bool) {
	if c.err != nil {
		return 0, 0, false
	}
	if c.cur != nil && i == c.i+1 {
		if r := c.cur.Next(c.r + 1); r >= 0 {
			c.i, c.r = i, r
			return c.p, c.r, true
		}
	}
	p = sort.Search(len(c.src.start)-1, func(p int) bool { return c.src.start[p+1] > i })
	if c.cur, c.err = c.src.plies.Get(c.src.ctx, p); c.err != nil {
		return 0, 0, false
	}
	c.i, c.p, c.r = i, p, c.cur.Find(i-c.src.start[p])
	return c.p, c.r, true
}

// analysis gives the row of the placement of rank r of ply p: its value
// and depth, and its moves from the next ply's codes.
func (c *dbRows) analysis(p int, r int64) *perfect.Analysis {
	rl, layout := c.src.rl, c.src.d.Layout()
	b := layout.Unrank(p, r)
	v, d, _ := db.Unpack(c.cur.Codes[r])
	a := &c.a
	*a = perfect.Analysis{Spec: rl.Spec(), Board: b, Status: rl.Game().Status(b), Value: v, Depth: d, Paths: -1, Engine: perfect.DB, AnsweredBy: perfect.DB, Moves: a.Moves[:0]}
	if rl.Spec().HasIDs() {
		a.StateID = game.ID(b)
		a.CanonicalID, _ = rl.Canonical(a.StateID)
	}
	if a.Status.Terminal() {
		return a
	}
	if c.next == nil || c.nextP != p+1 {
		if c.next, c.err = c.src.plies.Get(c.src.ctx, p+1); c.err != nil {
			return a
		}
		c.nextP = p + 1
	}
	next := c.next
	a.ToMove = b.ToMove()
	moves := uint64(rl.Moves(b))
	spec := rl.Spec()
	c.kids = layout.Children(c.kids[:0], b, game.Mask(moves))
	for _, k := range c.kids {
		cell := bits.TrailingZeros64(moves)
		moves &= moves - 1
		cv, cd, _ := db.Unpack(next.Codes[k])
		m := perfect.NewMove(spec, cell, cv, cd)
		if spec.HasIDs() {
			m.Child = game.ID(b.Play(cell, a.ToMove))
		}
		a.Moves = append(a.Moves, m)
	}
	perfect.Weigh(a.ToMove, a.Moves)
	return a
}

func (c *dbRows) state(i int, dst *State) {
	if p, r, ok := c.seek(int64(i)); ok {
		analysisState(c.src.rl, c.cells, c.analysis(p, r), dst)
	}
}

func (c *dbRows) moves(i int, dst []Move) []Move {
	if p, r, ok := c.seek(int64(i)); ok {
		return analysisMoves(c.src.rl, c.analysis(p, r), dst)
	}
	return dst
}

func (c *dbRows) failed() error { return c.err }
