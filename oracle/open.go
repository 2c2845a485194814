package oracle

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/search"
)

// Search gives the oracle that searches each position asked, and each of
// its children, on any board of up to 64 cells, with a table of up to
// o.Memory bytes. Its answers take turns.
func Search(rl rules.Rules, o Options) (Oracle, error) {
	settle, vs, err := searching(rl, o)
	if err != nil {
		return nil, err
	}
	return &single{rl: rl, name: perfect.Search, asked: o, close: func() error { return nil }, settle: settle, valueOf: vs.value, vs: vs}, nil
}

// searching gives the settler that searches positions of rl's game, with
// o's workers and a table of o's memory, and the beater of the same
// search; not safe for concurrent use.
func searching(rl rules.Rules, o Options) (settler, *versus, error) {
	return guidedSearch(rl, o, nil)
}

// guidedSearch is searching, guided by g when it is not nil
// (search.Options.Guide).
func guidedSearch(rl rules.Rules, o Options, g search.Guide) (settler, *versus, error) {
	s, err := search.New(rl.Spec(), search.Options{TableBits: search.TableBitsFor(o.Memory), Workers: max(o.Workers, 1), Cores: o.Cores, Guide: g})
	if err != nil {
		return nil, nil, err
	}
	settle := func(ctx context.Context, b game.Board) (perfect.Outcome, perfect.Bounds, error) {
		r, err := s.Solve(ctx, uint64(b.X), uint64(b.O))
		return perfect.Outcome{Value: r.Value, Depth: r.Depth}, r.Bounds, err
	}
	vs := &versus{
		beats: func(ctx context.Context, b game.Board, than perfect.Outcome) (bool, error) {
			return s.Beats(ctx, uint64(b.X), uint64(b.O), than)
		},
		from: func(ctx context.Context, b game.Board, than perfect.Outcome) (perfect.Outcome, perfect.Bounds, error) {
			r, err := s.SolveFrom(ctx, uint64(b.X), uint64(b.O), than)
			return perfect.Outcome{Value: r.Value, Depth: r.Depth}, r.Bounds, err
		},
		value: func(ctx context.Context, b game.Board) (perfect.Outcome, perfect.Bounds, error) {
			r, err := s.Value(ctx, uint64(b.X), uint64(b.O))
			return perfect.Outcome{Value: r.Value}, r.Bounds, err
		},
	}
	return settle, vs, nil
}

// Database gives the oracle of the finished database in the folder dir
// (package db), which must hold rl's game: each answer probes the position
// and its children, a block read each at most. A database that is an
// opening book answers the positions of its plies, and search those past
// its last ply, a position of its last ply's children among them, those
// of the next ply searched from the bound their parents in the book give
// them (perfect.Floor): its answers then take turns, as search's do. A
// win/draw/loss database answers values, and search guided by it the
// depths (Values). Close closes its files.
func Database(rl rules.Rules, dir string, o Options) (Oracle, error) {
	m, err := db.Readable(dir, rl.Spec())
	if err != nil {
		return nil, err
	}
	if db.Packed(m.Layout) {
		v, err := db.OpenValues(dir, rl)
		if err != nil {
			return nil, err
		}
		return Values(rl, v, o)
	}
	d, err := db.Open(dir, rl)
	if err != nil {
		return nil, err
	}
	return database(rl, d, dir, o)
}

// DatabaseFS is Database of the files of fsys, named where in messages:
// an opening book built into tateti-lab (package book).
func DatabaseFS(rl rules.Rules, fsys fs.FS, where string, o Options) (Oracle, error) {
	d, err := db.OpenFS(fsys, where, rl)
	if err != nil {
		return nil, err
	}
	return database(rl, d, where, o)
}

// database is Database of d, open, named where.
func database(rl rules.Rules, d *db.DB, where string, o Options) (Oracle, error) {
	probe := probing(rl, d)
	if d.Manifest.MaxPly == nil {
		return &single{rl: rl, name: perfect.DB, asked: o, shared: true, close: d.Close, settle: probe, valueOf: depthless(probe), split: d.Split}, nil
	}
	searched, vs, err := searching(rl, o)
	if err != nil {
		d.Close()
		return nil, err
	}
	floor := floors(rl, d)
	return &single{rl: rl, name: perfect.Book, asked: o, close: d.Close, lineTo: d.Manifest.Last(), past: perfect.Search, split: d.Split, vs: vs, floor: floor,
		settle: pastBook(probe, floored(searched, vs.from, floor)), valueOf: pastBook(depthless(probe), vs.value)}, nil
}

// A floorer gives the outcome (for X) a position's side to move is sure
// of from what an oracle holds of its parents (perfect.Floor), and false
// where it holds none of them.
type floorer func(b game.Board) (perfect.Outcome, bool, error)

// floors gives the floorer of the positions in progress one ply past d's
// last, an opening book's, whose parents are all in it; of a finished
// position, or one of any other ply, it gives none.
func floors(rl rules.Rules, d *db.DB) floorer {
	next := d.Manifest.Last() + 1
	return func(b game.Board) (perfect.Outcome, bool, error) {
		if over, _ := rl.Outcome(b); over || b.Ply() != next {
			return perfect.Outcome{}, false, nil
		}
		return perfect.Floor(rl, b, d)
	}
}

// floored gives the settler that searches a position from the outcome
// floor gives it (search.Solver.SolveFrom), one null-window question for
// a best move's child of one of its parents, and as searched does where
// floor gives none: the same answers, sooner.
func floored(searched settler, from func(context.Context, game.Board, perfect.Outcome) (perfect.Outcome, perfect.Bounds, error), floor floorer) settler {
	return func(ctx context.Context, b game.Board) (perfect.Outcome, perfect.Bounds, error) {
		f, ok, err := floor(b)
		switch {
		case err != nil:
			return perfect.Outcome{}, perfect.Unknown, err
		case !ok:
			return searched(ctx, b)
		}
		return from(ctx, b, f)
	}
}

// pastBook gives the settler that probes an opening book, and searches a
// position past its last ply.
func pastBook(probe, searched settler) settler {
	return func(ctx context.Context, b game.Board) (perfect.Outcome, perfect.Bounds, error) {
		o, proved, err := probe(ctx, b)
		if errors.Is(err, db.ErrPastBook) {
			return searched(ctx, b)
		}
		return o, proved, err
	}
}

// depthless gives the settler of s's values alone, depths left 0
// (Options.NoDepths), for an engine whose depths cost nothing more.
func depthless(s settler) settler {
	return func(ctx context.Context, b game.Board) (perfect.Outcome, perfect.Bounds, error) {
		o, proved, err := s(ctx, b)
		o.Depth = 0
		return o, proved, err
	}
}

// probing gives the settler that probes d, the database of rl's game.
func probing(rl rules.Rules, d *db.DB) settler {
	return func(_ context.Context, b game.Board) (perfect.Outcome, perfect.Bounds, error) {
		o, ok, err := d.Probe(b)
		switch {
		case err != nil:
			return o, perfect.Unknown, err
		case !ok:
			if err := rules.CheckReachable(rl, b); err != nil {
				return o, perfect.Unknown, err
			}
			return o, perfect.Unknown, d.Lacks(b)
		}
		return o, perfect.Bounds{Low: o.Value, High: o.Value}, nil
	}
}

// Values gives the oracle of v, an open win/draw/loss database of rl's
// game: a position's value and each move's are the database's; the depth
// of a won or lost one is found by search guided by the database, which
// cuts every move that does not keep the win (a drawn one's is its empty
// cells). Its answers take turns, as search's do. Closing it closes v.
func Values(rl rules.Rules, v *db.Values, o Options) (Oracle, error) {
	searched, vs, err := guidedSearch(rl, o, guide{v})
	if err != nil {
		v.Close()
		return nil, err
	}
	settle := func(ctx context.Context, b game.Board) (perfect.Outcome, perfect.Bounds, error) {
		val, err := valueIn(rl, v, b)
		if err != nil {
			return perfect.Outcome{}, perfect.Unknown, err
		}
		known := perfect.Bounds{Low: val, High: val}
		if val == perfect.Draw {
			return perfect.Outcome{Value: val, Depth: perfect.Depth(rl.Spec().Cells() - b.Ply())}, known, nil
		}
		o, _, err := searched(ctx, b)
		if err == nil && o.Value != val {
			return o, known, v.Split(b, val, o.Value)
		}
		return o, known, err
	}
	split := func(b game.Board, worth, weigh perfect.Outcome) error {
		if worth.Value == weigh.Value { // the depths, search's
			return fmt.Errorf("db: %s is worth %v in %d plies, and its moves weigh %v in %d: a bug", rl.Spec().Format(b), worth.Value, worth.Depth, weigh.Value, weigh.Depth)
		}
		return v.Split(b, worth.Value, weigh.Value)
	}
	valueOf := func(_ context.Context, b game.Board) (perfect.Outcome, perfect.Bounds, error) {
		val, err := valueIn(rl, v, b)
		if err != nil {
			return perfect.Outcome{}, perfect.Unknown, err
		}
		return perfect.Outcome{Value: val}, perfect.Bounds{Low: val, High: val}, nil
	}
	return &single{rl: rl, name: perfect.DB, asked: o, close: v.Close, settle: settle, valueOf: valueOf, tabled: true, split: split, vs: vs}, nil
}

// valueIn gives the value v holds of b, a position of rl's game, or why it
// holds none: b cannot arise, or v's tier is damaged.
func valueIn(rl rules.Rules, v *db.Values, b game.Board) (perfect.Value, error) {
	val, ok, err := v.Value(b)
	switch {
	case err != nil:
		return 0, err
	case !ok:
		if err := rules.CheckReachable(rl, b); err != nil {
			return 0, err
		}
		return 0, v.Lacks(b)
	}
	return val, nil
}

// guide is the search.Guide of a win/draw/loss database: a position it
// cannot read is left to the search, and the error met again where the
// oracle reads the position itself.
type guide struct{ v *db.Values }

// Value gives the value the database holds of the position x, o.
func (g guide) Value(x, o uint64) (perfect.Value, bool) {
	val, ok, err := g.v.Value(game.Board{X: game.Mask(x), O: game.Mask(o)})
	return val, ok && err == nil
}
