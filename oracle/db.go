package oracle

import (
	"context"
	"errors"
	"io/fs"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Database gives the oracle of the finished database in the folder dir
// (package db), which must hold rl's game: each answer probes the position
// and its children, a block read each at most. A database that is an
// opening book answers the positions of its plies, and search those past
// its last ply, a position of its last ply's children among them: its
// answers then take turns, as search's do. A win/draw/loss database
// answers values, and search guided by it the depths (Values). Close
// closes its files.
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
	return &single{rl: rl, name: perfect.Book, asked: o, close: d.Close, lineTo: d.Manifest.Last(), past: perfect.Search, split: d.Split, vs: vs,
		settle: pastBook(probe, searched), valueOf: pastBook(depthless(probe), vs.value)}, nil
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
