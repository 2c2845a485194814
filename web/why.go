package web

import (
	"context"
	"errors"
	"fmt"
	"math/bits"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/view"
)

// errNoMoves refuses "why?" on a position whose moves' values are not
// known.
var errNoMoves = errors.New("this position's moves have no values yet")

// why answers "why?" about move on b, asked by client: the line of perfect
// play after it (view.Explain), from the views of the positions along it,
// each the explorer's own answer, queued and kept as any other. When a
// view is still being searched it gives that Solving instead; asked again,
// the line goes on from the views kept.
func (x *Explorer) why(ctx context.Context, b game.Board, move string, client oracle.Client) (*view.Why, *Solving, error) {
	child, err := rules.Play(x.rl, b, move)
	if err != nil {
		return nil, nil, err
	}
	cell := bits.TrailingZeros64(uint64((child.X | child.O) &^ (b.X | b.O)))
	v, s, err := x.view(ctx, b, client, false)
	if v == nil || err != nil {
		return nil, s, err
	}
	if !view.HasValues(v) {
		return nil, nil, fmt.Errorf("%w: %s", errNoMoves, valueNote(v))
	}
	var solving *Solving
	look := func(p game.Board) (*view.Position, error) {
		pv, s, err := x.view(ctx, p, client, false)
		if pv == nil && err == nil {
			solving = s
		}
		return pv, err
	}
	w, err := view.Explain(x.rl, v, b, cell, look)
	if w == nil || err != nil {
		return nil, solving, err
	}
	return w, nil, nil
}

// valueNote says why a position's moves have no values.
func valueNote(v *view.Position) string {
	if v.Proved != nil {
		return "its search was not settled within the time limit, and asking again gives the same answer; serve it with a longer --time-limit, or none"
	}
	return "they were not asked for"
}
