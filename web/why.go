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
// play after it (view.Why), from the views of the positions along it,
// each the explorer's own answer, queued and kept as any other. An
// opening book's line stops at its last ply: the line goes on from the
// view of the position there, to the game's end. When a view is still
// being searched it gives that Solving instead; asked again, the line
// goes on from the views kept.
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
	m, best, ok := moveAndBest(v, cell)
	if !ok {
		return nil, nil, fmt.Errorf("%w: %s", errNoMoves, valueNote(v))
	}
	shows, first := "refutation", m
	switch {
	case m.Best:
		shows = "best"
	case m.Result == "win":
		shows, first = "faster", best
	}
	line := []int{first.Cell}
	p := b.Play(first.Cell, b.ToMove())
	short := false
	for {
		if over, _ := x.rl.Outcome(p); over {
			break
		}
		pv, s, err := x.view(ctx, p, client, false)
		if pv == nil || err != nil {
			return nil, s, err
		}
		if pv.Proved != nil || len(pv.BestLine) == 0 {
			short = true
			break
		}
		line = append(line, pv.BestLine...)
		for _, c := range pv.BestLine {
			p = p.Play(c, p.ToMove())
		}
		if pv.LineEnd == 0 {
			break
		}
	}
	w := view.NewWhy(x.rl, b, m.Move, best.Move, shows, line, short)
	return &w, nil, nil
}

// moveAndBest finds the move to cell among v's moves, and v's first best
// move; ok is false when v's moves have no values.
func moveAndBest(v *view.Position, cell int) (m, best view.Move, ok bool) {
	found := false
	for _, mv := range v.Moves {
		if mv.Cell == cell {
			m, found = mv, true
		}
		if mv.Best && !ok {
			best, ok = mv, true
		}
	}
	return m, best, ok && found
}

// valueNote says why a position's moves have no values.
func valueNote(v *view.Position) string {
	if v.Proved != nil {
		return "its search was not settled within the time limit, and asking again gives the same answer; serve it with a longer --time-limit, or none"
	}
	return "they were not asked for"
}
