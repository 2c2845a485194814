// Package oracle owns the one seam through which commands ask for perfect
// play of one position: an Oracle answers a board's value, depth, every
// legal move and a best line. Two stand behind it: the table, the game
// solved exhaustively from the board (package solve), where that fits the
// board limit and memory; and search (package search), one position at a
// time, on any board of up to 64 cells (Connect Four's 7x6, gravity and free
// 8x8, free 6x6). Choose picks one by
// name, "auto" taking the table where it fits and search where it does not.
package oracle

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/progress"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
)

// An Oracle answers positions of one game with perfect play.
type Oracle interface {
	// Analyze gives b's status, value, depth, every legal move with the
	// value and depth of its child, and a best line. b must be able to
	// arise in play.
	Analyze(ctx context.Context, b game.Board) (perfect.Analysis, error)
	// Name says who answers, as --oracle names it: "table" or "search".
	Name() string
}

// Names are the oracles Choose knows, as --oracle takes them.
var Names = []string{"auto", "table", "search"}

// Choose gives the oracle named name for positions of rl from b on:
// "table" when the game from b can be solved exhaustively within memory
// bytes, "search" when rl's board is one search handles, "auto" the table
// where it fits and search otherwise. The error says why none fits.
func Choose(rl rules.Rules, name string, b game.Board, memory uint64, workers int) (Oracle, error) {
	if !slices.Contains(Names, name) {
		return nil, fmt.Errorf("oracle %q is unknown, want auto, table or search", game.Echo(name))
	}
	tableErr := fitsTable(rl, b, memory)
	if name == "table" || (name == "auto" && tableErr == nil) {
		if tableErr != nil {
			return nil, tableErr
		}
		return table{rl: rl, workers: workers}, nil
	}
	s, searchErr := newSearcher(rl, memory, workers)
	if searchErr != nil && name == "auto" {
		return nil, fmt.Errorf("%w; and %w", tableErr, searchErr)
	}
	return s, searchErr
}

// fitsTable says why the game from b cannot be solved exhaustively, if it
// cannot.
func fitsTable(rl rules.Rules, b game.Board, memory uint64) error {
	if err := enumerate.CheckSize(rl.Spec()); err != nil {
		return err
	}
	return enumerate.CheckMemoryFrom(rl.Spec(), b, memory)
}

// table is the oracle of the game solved exhaustively from the board.
type table struct {
	rl      rules.Rules
	workers int
}

// Name is "table".
func (table) Name() string { return "table" }

// Analyze solves the game from b; stopped before the end, it has proved
// nothing of b's value.
func (t table) Analyze(ctx context.Context, b game.Board) (perfect.Analysis, error) {
	a, err := solve.Analyze(ctx, t.rl, b, t.workers)
	if err != nil && ctx.Err() != nil {
		a = perfect.Analysis{Spec: t.rl.Spec(), Board: b, Status: t.rl.Game().Status(b), ToMove: b.ToMove(), Paths: -1, Oracle: "table"}
		return unsettled(a, perfect.Unknown, err)
	}
	return a, err
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

// ChooseMany is Choose for many positions of rl's game: its table solves
// the whole game once, on the first question, and answers each position
// from it.
func ChooseMany(rl rules.Rules, name string, memory uint64, workers int) (Oracle, error) {
	o, err := Choose(rl, name, game.Board{}, memory, workers)
	if t, ok := o.(table); ok {
		return &solved{table: t}, err
	}
	return o, err
}

// Prepare does now what o would do at its first question, so that the
// answers come at once: ChooseMany's table solves the whole game; the
// others have nothing to prepare.
func Prepare(ctx context.Context, o Oracle) error {
	if s, ok := o.(*solved); ok {
		s.solve(ctx)
		return s.err
	}
	return nil
}

// solved is the oracle of the whole game, solved once.
type solved struct {
	table
	once sync.Once
	r    *solve.Result
	err  error
}

// solve solves the game, the first time.
func (s *solved) solve(ctx context.Context) {
	s.once.Do(func() { s.r, s.err = solve.Game(ctx, s.rl, s.workers) })
}

// Analyze looks b up in the solved game.
func (s *solved) Analyze(ctx context.Context, b game.Board) (perfect.Analysis, error) {
	s.solve(ctx)
	if s.err != nil {
		return perfect.Analysis{}, s.err
	}
	i, ok := s.r.Enum.Lookup(game.ID(b))
	if !ok {
		if err := rules.CheckReachable(s.rl, b); err != nil {
			return perfect.Analysis{}, err
		}
		return perfect.Analysis{}, fmt.Errorf("%s is not in the solved game: a bug", s.rl.Spec().Format(b))
	}
	return s.r.Analysis(i), nil
}

// All asks o for each of boards in turn, telling progress as phase, and
// gives their analyses in the same order. A position o cannot settle fails
// the whole, naming it.
func All(ctx context.Context, o Oracle, rl rules.Rules, boards []game.Board, phase string) ([]perfect.Analysis, error) {
	as := make([]perfect.Analysis, len(boards))
	err := Each(ctx, o, rl, boards, phase, func(i int, a perfect.Analysis) error {
		as[i] = a
		return nil
	})
	if err != nil {
		return nil, err
	}
	return as, nil
}

// Each is All for many positions: it gives each analysis to use, in the
// order of boards, and keeps none; an error of use stops it.
func Each(ctx context.Context, o Oracle, rl rules.Rules, boards []game.Board, phase string, use func(i int, a perfect.Analysis) error) error {
	for i, b := range boards {
		progress.Tell(ctx, phase, fmt.Sprintf("%d of %d positions answered", i, len(boards)))
		a, err := o.Analyze(ctx, b)
		if err != nil {
			return fmt.Errorf("position %s: %w", rl.Spec().Format(b), err)
		}
		if err := use(i, a); err != nil {
			return err
		}
	}
	return nil
}

// WithoutLines gives o answering with no best line, for callers that show
// none: search then takes about half the time (the children of each
// position on the line are searched); the table, which finds a line in the
// solved game at little cost, is given as it is. The two share everything
// else, search's table among it.
func WithoutLines(o Oracle) Oracle {
	if s, ok := o.(*single); ok {
		return &single{rl: s.rl, name: s.name, settle: s.settle, noLines: true}
	}
	return o
}
