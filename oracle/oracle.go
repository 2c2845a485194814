// Package oracle owns the one seam through which commands ask for perfect
// play of one position: an Oracle answers a board's value, depth, every
// legal move and a best line. Four engines stand behind it: InMemory, the
// game solved exhaustively from each board asked (package solve); Solved, the
// whole game solved once in memory; Database, a finished database on disk
// (package db); and Search, one position at a time on any board of up to
// 64 cells (package search). Which of them answers a command is the
// planner's choice (package plan), never the oracle's.
//
// Every Oracle is safe for concurrent use: InMemory and Solved answer side by
// side, Database's probes share a cache under a lock, and Search answers
// one position at a time, the calls taking turns. Whoever made an oracle
// closes it, after its last call.
package oracle

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/search"
	"github.com/tateti-lab/tateti-lab/solve"
)

// An Oracle answers positions of one game with perfect play.
type Oracle interface {
	// Analyze gives b's status, value, depth, every legal move with the
	// value and depth of its child, and a best line unless the oracle was
	// made with NoLines or ValueOnly (then no moves either). b must be
	// able to arise in play.
	Analyze(ctx context.Context, b game.Board) (perfect.Analysis, error)
	// Name says who answers, as the JSON names it: "memory", "db",
	// "book" (an opening book, and search past it) or "search".
	Name() perfect.Engine
	// Instant reports whether the oracle answers b without search, within
	// a request: the game solved in memory and a database, every position;
	// an opening book, its positions before its last ply (and at it, for
	// the value alone); search and the game solved from each board, none.
	// A server answers such positions at once, and queues the others.
	Instant(b game.Board) bool
	// Close lets go of what the oracle holds (a database's files, search's
	// table). No call may follow it.
	Close() error
}

// Options are what an oracle is made with.
type Options struct {
	// Workers is the goroutines an answer may use; at least 1.
	Workers int
	// Memory is the bytes search's table may take (0: its default).
	Memory uint64
	// Cores, when set, is shared by oracles answering positions side by
	// side: the helpers of each search start only on the cores the others
	// leave idle (search.Cores); nil for no sharing.
	Cores *search.Cores
	// NoLines leaves the best line out of every answer, for callers that
	// show none: search then takes about half the time (the children of
	// each position on the line are searched); the exhaustive engines find
	// a line at little cost, and give it all the same.
	NoLines bool
	// ValueOnly has every answer give the position's value and depth
	// alone, no move's and no line, for callers that need no more (labels,
	// an opening book): search then settles the position and none of its
	// children. Every engine leaves the moves out, so that the answers are
	// the same whoever gives them.
	ValueOnly bool
	// NoDepths has every answer give values without depths (win, draw or
	// loss): the position's and, unless ValueOnly, every move's, the best
	// moves those of the best value, and no line. Search then asks at most
	// two null-window questions of a position (is it above a draw, and if
	// not above a loss?) and of a child of a won one (above the slowest
	// loss first, as a move that keeps the win leaves), one of a child of
	// a drawn one and none of a lost one's, where a depth takes several; a
	// win/draw/loss database answers from its tables alone. Every engine
	// leaves the depths out, so that the answers are the same whoever
	// gives them.
	NoDepths bool
}

// BestMove says whether a move of a position is a best one as o answers
// it (best by value, then by depth: perfect.Analysis.BestCells), what
// noisy perfect play asks move by move (perfect.Noisy.Pick): by o's
// IsBest where it has one (search and a book ask one question a child
// there, not a settled score), else from its analysis of the position,
// kept for the next question about the same one. Not safe for concurrent
// use: each player of a draw has its own.
func BestMove(o Oracle) func(ctx context.Context, b game.Board, cell int) (bool, error) {
	if ib, ok := o.(interface {
		IsBest(ctx context.Context, b game.Board, cell int) (bool, error)
	}); ok {
		return ib.IsBest
	}
	var last game.Board
	var best uint64
	asked := false
	return func(ctx context.Context, b game.Board, cell int) (bool, error) {
		if !asked || b != last {
			a, err := o.Analyze(ctx, b)
			if err != nil {
				asked = false
				return false, err
			}
			last, best, asked = b, a.BestCells(), true
		}
		return best>>cell&1 == 1, nil
	}
}

// valueOnly gives a without its moves and line, as Options.ValueOnly asks.
func valueOnly(a perfect.Analysis, err error) (perfect.Analysis, error) {
	a.Moves, a.BestLine, a.ValueOnly = nil, nil, true
	return a, err
}

// asked gives a, which an engine that knows everything at no cost
// answered, as o asks it: without depths (Options.NoDepths), without moves
// (Options.ValueOnly).
func asked(o Options, a perfect.Analysis, err error) (perfect.Analysis, error) {
	if o.NoDepths {
		a = a.WithoutDepths()
	}
	if o.ValueOnly {
		return valueOnly(a, err)
	}
	return a, err
}

// InMemory gives the oracle that solves the game of rl exhaustively from each
// board it is asked, in memory: the planner checks first that it fits.
func InMemory(rl rules.Rules, o Options) Oracle {
	return inMemory{rl: rl, workers: max(o.Workers, 1), asked: o}
}

// inMemory is the oracle of the game solved exhaustively from the board.
type inMemory struct {
	rl      rules.Rules
	workers int
	asked   Options // what each answer holds (ValueOnly, NoDepths)
}

// Name is "memory".
func (inMemory) Name() perfect.Engine { return perfect.Memory }

// Close has nothing to let go.
func (inMemory) Close() error { return nil }

// Instant is false: the game is solved from each board asked.
func (inMemory) Instant(game.Board) bool { return false }

// Analyze solves the game from b; stopped before the end, it has proved
// nothing of b's value.
func (t inMemory) Analyze(ctx context.Context, b game.Board) (perfect.Analysis, error) {
	a, err := solve.Analyze(ctx, t.rl, b, t.workers)
	if err != nil && ctx.Err() != nil {
		a = perfect.Analysis{Spec: t.rl.Spec(), Board: b, Status: t.rl.Game().Status(b), ToMove: b.ToMove(), Paths: -1, Engine: perfect.Memory}
		a.AnsweredBy = a.Engine
		return unsettled(a, perfect.Unknown, err)
	}
	return asked(t.asked, a, err)
}

// Within asks o for b, giving up after limit (never when it is 0): an
// answer cut short by the limit says what it proved, in its Proved, with no
// error. Other errors, an interruption among them, are o's.
func Within(ctx context.Context, o Oracle, b game.Board, limit time.Duration) (perfect.Analysis, error) {
	if limit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, limit)
		defer cancel()
	}
	a, err := o.Analyze(ctx, b)
	if a.Proved != nil && errors.Is(err, context.DeadlineExceeded) && context.Cause(ctx) == context.DeadlineExceeded {
		return a, nil
	}
	return a, err
}

// Solved gives the oracle of the whole game of rl, solved now, in memory,
// each position looked up in it: for many positions of one game, or a
// server that must answer at once. The planner checks first that it fits.
func Solved(ctx context.Context, rl rules.Rules, o Options) (Oracle, error) {
	r, err := solve.Game(ctx, rl, max(o.Workers, 1))
	if err != nil {
		return nil, err
	}
	return OfSolved(rl, r, o), nil
}

// OfSolved gives the oracle of the whole game of rl that r solved, each
// position looked up in it, as Solved does once it has solved it.
func OfSolved(rl rules.Rules, r *solve.Result, o Options) Oracle {
	return &solved{rl: rl, r: r, asked: o}
}

// solved is the oracle of the whole game, solved once.
type solved struct {
	rl    rules.Rules
	r     *solve.Result
	asked Options // what each answer holds (ValueOnly, NoDepths)
}

// Name is "memory": the exhaustive solve, as InMemory.
func (*solved) Name() perfect.Engine { return perfect.Memory }

// Instant is true: every position is looked up in the game solved once.
func (*solved) Instant(game.Board) bool { return true }

// Close lets the solved game go.
func (s *solved) Close() error {
	s.r = nil
	return nil
}

// Analyze looks b up in the solved game.
func (s *solved) Analyze(_ context.Context, b game.Board) (perfect.Analysis, error) {
	i, ok := s.r.Enum.Lookup(game.ID(b))
	if !ok {
		if err := rules.CheckReachable(s.rl, b); err != nil {
			return perfect.Analysis{}, err
		}
		return perfect.Analysis{}, fmt.Errorf("%s is not in the solved game: a bug", s.rl.Spec().Format(b))
	}
	return asked(s.asked, s.r.Analysis(i), nil)
}
