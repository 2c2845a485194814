package oracle

import (
	"context"
	"fmt"
	"sync"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

// single is an oracle that knows one position at a time, search or a
// database: each legal move's child is asked, and the position weighed
// from them as every solve here weighs moves.
type single struct {
	rl     rules.Rules
	name   perfect.Engine
	settle settler
	// valueOf settles the value of one position alone, its depth left 0
	// (Options.NoDepths); a search stopped early gives what it proved.
	valueOf settler
	asked   Options        // what each answer holds (NoLines, ValueOnly, NoDepths)
	turns   sync.Mutex     // held by each answer, where settle is not safe for concurrent use
	shared  bool           // settle is safe for concurrent use: no turns
	tabled  bool           // valueOf reads tables alone, safe for concurrent use: no turns for values
	close   func() error   // lets go of what settle holds
	lineTo  int            // the ply a best line stops at (an opening book's last), 0 for the end
	past    perfect.Engine // who answers past lineTo: Search behind a book, "" for none
	// split says what it means that b is worth worth and its moves weigh
	// weigh: a database's damage (db.DB.Split); nil for search, where it
	// is a bug.
	split func(b game.Board, worth, weigh perfect.Outcome) error
	// vs asks search about a position against an outcome; nil where no
	// position is searched.
	vs *versus
	// floor gives what an opening book says of a position one ply past
	// it from its parents (perfect.Floor); nil where there is no book.
	floor floorer
	// known holds the outcomes IsBest found of the positions it was asked
	// about and of best moves' children, exact (a child that does not beat
	// the outcome after a best move has it): the position a game reaches
	// next, asked next, is not searched again, nor one asked about again
	// for another move. Held under turns; emptied past maxKnown.
	known map[game.Board]perfect.Outcome
}

// maxKnown bounds the outcomes IsBest keeps (single.known).
const maxKnown = 1 << 16

// versus asks search about b, a position in progress, against an outcome
// than: beats, whether its side to move does better than than would give
// it, by one null-window search (search.Solver.Beats); from, b's outcome
// where its side to move does at least as well (search.Solver.SolveFrom):
// than after one question when it does no better, else searched from that
// bound up.
type versus struct {
	beats func(ctx context.Context, b game.Board, than perfect.Outcome) (bool, error)
	from  func(ctx context.Context, b game.Board, than perfect.Outcome) (perfect.Outcome, perfect.Bounds, error)
	value settler // b's value alone (search.Solver.Value)
}

// A settler gives the value (for X) and depth of one position (a finished
// one at depth 0); stopped early, what it proved of the value, and the error.
type settler func(ctx context.Context, b game.Board) (o perfect.Outcome, proved perfect.Bounds, err error)

// IsBest says whether the move at cell is one of b's best, those Analyze
// marks best, asking little of search: b settled once (its outcome kept,
// as a best move's child's is), then one question of the move's child,
// whether its mover does better than the outcome b has after a best move
// (a best move's child does not: b's score is the best of its
// children's), where Analyze settles every child. A child the oracle
// holds (a database's, a book's) is settled, at once. Noisy perfect play
// asks it move by move until one is best (perfect.Noisy.Pick).
func (o *single) IsBest(ctx context.Context, b game.Board, cell int) (bool, error) {
	var worth perfect.Outcome
	known := false
	searched := o.vs != nil && b.Ply() >= o.lineTo
	if searched { // search answers: its turn, and known, held under it
		o.turns.Lock()
		defer o.turns.Unlock()
		worth, known = o.known[b]
	}
	if !known {
		var err error
		if worth, _, err = o.settle(ctx, b); err != nil {
			return false, err
		}
		if searched {
			o.remember(b, worth)
		}
	}
	after := perfect.Outcome{Value: worth.Value, Depth: worth.Depth - 1}
	c := b.Play(cell, b.ToMove())
	if o.held(c) {
		got, _, err := o.settle(ctx, c)
		return got == after, err
	}
	if f, err := o.floorOf(c, after); err != nil || f != after {
		return false, err // c's mover is sure of better than after: not best
	}
	better, err := o.vs.beats(ctx, c, after)
	if err == nil && !better {
		o.remember(c, after)
	}
	return err == nil && !better, err
}

// held says whether the oracle settles c at once, with no question of
// search: c is over, or a database or a book (to its last ply) holds it.
func (o *single) held(c game.Board) bool {
	over, _ := o.rl.Outcome(c)
	return over || o.vs == nil || o.past != "" && c.Ply() <= o.lineTo
}

// remember keeps the exact outcome of c, a position asked about or a best
// move's child; turns is held.
func (o *single) remember(c game.Board, outcome perfect.Outcome) {
	if o.known == nil || len(o.known) >= maxKnown {
		o.known = make(map[game.Board]perfect.Outcome)
	}
	o.known[c] = outcome
}

// Name says who answers: Search, DB or Book.
func (o *single) Name() perfect.Engine { return o.name }

// Close lets go of what the oracle holds.
func (o *single) Close() error { return o.close() }

// Analyze settles b itself first, so that a search stopped early (by a
// time limit in ctx) still says what it proved of b's value; then each
// child, and a best line unless the oracle gives none.
func (o *single) Analyze(ctx context.Context, b game.Board) (perfect.Analysis, error) {
	if !o.Instant(b) {
		o.turns.Lock()
		defer o.turns.Unlock()
	}
	a := perfect.Analysis{Spec: o.rl.Spec(), Board: b, Status: o.rl.Game().Status(b), Paths: -1, Engine: o.Name(), AnsweredBy: o.answeredBy(b)}
	if o.past != "" {
		a.BookLast = o.lineTo
	}
	if o.rl.Spec().HasIDs() {
		a.StateID = game.ID(b)
		a.CanonicalID, _ = o.rl.Canonical(a.StateID)
	}
	if a.Status.Terminal() {
		_, winner := o.rl.Outcome(b)
		a.Value = perfect.Of(winner)
		a.NoDepths = o.asked.NoDepths
		if o.asked.ValueOnly {
			return valueOnly(a, nil)
		}
		return a, nil
	}
	a.ToMove = b.ToMove()
	if o.asked.NoDepths {
		return o.values(ctx, a, b)
	}
	settled, proved, err := o.settle(ctx, b)
	if err != nil {
		return unsettled(a, proved, err)
	}
	if o.asked.ValueOnly {
		a.Value, a.Depth = settled.Value, settled.Depth
		return valueOnly(a, nil)
	}
	var weighed perfect.Outcome
	if a.Moves, weighed, err = o.moves(ctx, b, settled); err != nil {
		return unsettled(a, proved, err)
	}
	if weighed != settled {
		return a, o.disagree(b, settled, weighed)
	}
	a.Value, a.Depth = weighed.Value, weighed.Depth
	if o.asked.NoLines {
		return a, nil
	}
	if a.BestLine, a.LineEnd, err = o.bestLine(ctx, b, a.Moves); err != nil {
		return unsettled(a, proved, err)
	}
	return a, nil
}

// values answers a, the analysis of b in progress, with values alone
// (Options.NoDepths): b's value, then, unless the value alone was asked,
// each child's, weighed by value. No line is given.
func (o *single) values(ctx context.Context, a perfect.Analysis, b game.Board) (perfect.Analysis, error) {
	a.NoDepths = true
	worth, proved, err := o.valueOf(ctx, b)
	if err != nil {
		return unsettled(a, proved, err)
	}
	a.Value = worth.Value
	if o.asked.ValueOnly {
		return valueOnly(a, nil)
	}
	var weighed perfect.Outcome
	if a.Moves, weighed, err = perfect.MovesBy(o.rl, b, func(c game.Board) (perfect.Outcome, error) { return o.childValue(ctx, c, worth.Value) }); err != nil {
		return unsettled(a, proved, err)
	}
	if weighed.Value != worth.Value {
		return a, o.disagree(b, worth, perfect.Outcome{Value: weighed.Value})
	}
	return a, nil
}

// childValue gives the value (for X) of c, a child of a position in
// progress worth worth (for X), asking of search no more than worth, or
// what the book says of c's parents (floorOf), leaves open. A child of a
// lost position is lost for its parent's mover: no question. Of a won
// one, c's mover most often loses (the moves that keep the win): first
// whether c's mover beats the slowest loss, then, if so, as of a drawn
// one's: whether c's mover beats a draw.
func (o *single) childValue(ctx context.Context, c game.Board, worth perfect.Value) (perfect.Outcome, error) {
	if o.held(c) || o.tabled { // no question of search: a table holds c's value
		v, _, err := o.valueOf(ctx, c)
		return v, err
	}
	win := perfect.XWins.For(c.ToMove()) // c's mover's win, for X
	f, err := o.floorOf(c, perfect.Outcome{Value: worth})
	if err != nil {
		return f, err
	}
	switch f.Value { // at least worth for c's mover
	case win: // c's mover won before the move, or the book says it wins
		return perfect.Outcome{Value: win}, nil
	case -win:
		slowest := perfect.Outcome{Value: -win, Depth: perfect.Depth(o.rl.Spec().Cells() - c.Ply())}
		if better, err := o.vs.beats(ctx, c, slowest); err != nil || !better {
			return perfect.Outcome{Value: -win}, err
		}
	}
	better, err := o.vs.beats(ctx, c, perfect.Outcome{Value: perfect.Draw})
	if better {
		return perfect.Outcome{Value: win}, err
	}
	return perfect.Outcome{Value: perfect.Draw}, err
}

// disagree gives the error of b, worth worth, whose moves weigh weigh:
// damage where a database answered (split), else a bug.
func (o *single) disagree(b game.Board, worth, weigh perfect.Outcome) error {
	if o.split != nil {
		return o.split(b, worth, weigh)
	}
	return fmt.Errorf("%s: %s is worth %v in %d plies, and its moves weigh %v in %d: a bug", o.name, o.rl.Spec().Format(b), worth.Value, worth.Depth, weigh.Value, weigh.Depth)
}

// unsettled gives the analysis a of a search stopped by err, with what it
// proved: only the bounds of the value (met, when b itself was settled
// and its moves or line were cut short); value and depth are cleared, so
// that no figure of an unfinished step is taken for an answer.
func unsettled(a perfect.Analysis, proved perfect.Bounds, err error) (perfect.Analysis, error) {
	a.Proved, a.Moves, a.BestLine = &proved, nil, nil
	a.Value, a.Depth = 0, 0
	return a, err
}

// moves settles the child of every legal move of b, which is not over and
// is worth worth, and weighs them. A child that search answers is first
// asked whether its mover beats the outcome b has after a best move: a
// best move's child does not, and has that outcome; any other is searched
// from that bound up (versus), where settle would search every score.
func (o *single) moves(ctx context.Context, b game.Board, worth perfect.Outcome) ([]perfect.Move, perfect.Outcome, error) {
	after := perfect.Outcome{Value: worth.Value, Depth: worth.Depth - 1}
	return perfect.MovesBy(o.rl, b, func(c game.Board) (perfect.Outcome, error) {
		if o.held(c) {
			settled, _, err := o.settle(ctx, c)
			return settled, err
		}
		than, err := o.floorOf(c, after)
		if err != nil {
			return than, err
		}
		settled, _, err := o.vs.from(ctx, c, than)
		return settled, err
	})
}

// floorOf gives the best outcome (for X) c's side to move is known to be
// sure of: than, the outcome after a best move of a parent in progress,
// or what the book says of c's parents (single.floor) where that is
// better for it.
func (o *single) floorOf(c game.Board, than perfect.Outcome) (perfect.Outcome, error) {
	if o.floor == nil {
		return than, nil
	}
	f, ok, err := o.floor(c)
	if err != nil || !ok || !f.Better(than, c.ToMove()) {
		return than, err
	}
	return f, nil
}

// answeredBy names the engine that gives b's value: the oracle's own, or
// past an opening book's last ply the engine the book hands b to.
func (o *single) answeredBy(b game.Board) perfect.Engine {
	if o.past != "" && b.Ply() > o.lineTo {
		return o.past
	}
	return o.name
}

// Instant reports whether the oracle answers b without search, so that
// answers of such positions need not wait their turn: a database's every
// position, and an opening book's before its last ply (whose moves and
// line are in it), or at it for the value alone.
func (o *single) Instant(b game.Board) bool {
	return o.shared || o.tabled && o.asked.NoDepths || b.Ply() < o.lineTo || o.asked.ValueOnly && b.Ply() == o.lineTo
}

// bestLine follows the first best move, in cell order, from b (whose moves
// ms are weighed) to the end of the game, or to the ply lineTo, which it
// gives as end when the game goes on there.
func (o *single) bestLine(ctx context.Context, b game.Board, ms []perfect.Move) (line []int, end int, err error) {
	for {
		i := 0
		for !ms[i].Best {
			i++
		}
		b = b.Play(ms[i].Cell, b.ToMove())
		line = append(line, ms[i].Cell)
		worth := perfect.Outcome{Value: ms[i].Value, Depth: ms[i].Depth}
		switch over, _ := o.rl.Outcome(b); {
		case over:
			return line, 0, nil
		case b.Ply() == o.lineTo:
			return line, o.lineTo, nil
		}
		if ms, _, err = o.moves(ctx, b, worth); err != nil {
			return nil, 0, err
		}
	}
}
