package oracle

import (
	"context"
	"fmt"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

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
