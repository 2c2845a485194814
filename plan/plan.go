// Package plan owns the one decision of who answers perfect play in a run.
// Given the game, what is asked (the whole game, one position, positions
// one at a time) and the budget (the memory a run may use, the disk of the
// temporary folder), it picks the engine: the game solved exhaustively in
// memory ("memory"), tier by tier on disk in a temporary folder ("tiers"), a
// finished database ("db"), or search ("search"); and says why. Every
// command asks it once, and opens what it picked in its run; no other place
// chooses.
package plan

import (
	"fmt"
	"os"
	"slices"

	"github.com/tateti-lab/tateti-lab/book"
	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/figure"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/search"
	"github.com/tateti-lab/tateti-lab/tier"
)

// Scope is what a command asks of perfect play.
type Scope int

const (
	// Whole is the whole game: its summary, every position solved.
	Whole Scope = iota
	// One is one position, Request.Board.
	One
	// Many is positions of the game asked one at a time.
	Many
	// Every is every position of the game with its moves, as grade,
	// verify solver and export walk it: the game solved in memory holds them,
	// or a finished database on disk.
	Every
)

// Names are the choices a user may name: auto lets the planner choose.
var Names = []string{"auto", string(perfect.Memory), string(perfect.Search)}

// A Request is what a command asks, and within what budget.
type Request struct {
	Rules rules.Rules
	Scope Scope
	// Board is the position asked, with One; the game solved in memory is
	// solved from it.
	Board game.Board
	// Named is the engine the user named: "auto" (or "") to let the planner
	// choose, "memory" or "search"; "table", its name before, is taken for
	// "memory".
	Named string
	// DB is a finished database to read, instead of a named engine.
	DB string
	// Memory is the bytes a run may use (0: unknown, no limit); Workers
	// the goroutines it may use.
	Memory  uint64
	Workers int
	// Open opens the engine picked for positions; nil: Open, the engines
	// themselves. A command's tests give fakes here (cmd.Factory.Engines).
	Open Opener
}

// A Plan is the engine picked for a Request, and why.
type Plan struct {
	Engine perfect.Engine `json:"engine"`
	Why    string         `json:"why"`
	// Scope is what is answered: a Whole request past what can be
	// exhausted is One, its empty board.
	Scope Scope `json:"-"`
	// Tiers is what the tier solve needs, with the engine Tiers.
	Tiers tier.Estimate `json:"-"`
	req   Request
	built *book.Book // the book built into tateti-lab, with the engine Book and no DB
}

// For picks who answers r. The error says why nothing can: an engine
// unknown or too large for the board or the budget, a folder that holds no
// finished database of the game.
func For(r Request) (Plan, error) {
	switch r.Named {
	case "":
		r.Named = "auto"
	case "table":
		r.Named = string(perfect.Memory)
	}
	if !slices.Contains(Names, r.Named) {
		return Plan{}, fmt.Errorf("engine %q is unknown, want auto, memory or search", game.Echo(r.Named))
	}
	if r.DB != "" {
		return forDB(r)
	}
	if r.Scope == Every {
		return forEvery(r)
	}
	if r.Scope == Whole {
		if enumerate.CheckSize(r.Rules.Spec()) != nil {
			p, err := forPosition(Request{Rules: r.Rules, Scope: One, Named: r.Named, Memory: r.Memory, Workers: r.Workers})
			p.Why = "the whole game cannot be exhausted, so its empty board is answered: " + p.Why
			return p, err
		}
		return forWhole(r)
	}
	return forPosition(r)
}

// forDB picks the finished database r names: the whole game's, or for
// positions an opening book, with search past its last ply.
func forDB(r Request) (Plan, error) {
	m, err := db.Readable(r.DB, r.Rules.Spec())
	switch {
	case err != nil:
	case r.Scope == Every: // every position's value and depth, and the positions play reaches
		_, err = db.Depths(r.DB, r.Rules.Spec())
	case r.Scope == Whole && m.MaxPly != nil:
		_, err = db.Finished(r.DB, r.Rules.Spec()) // its refusal of a book
	}
	if err != nil {
		return Plan{}, err
	}
	if m.MaxPly != nil {
		why := bookWhy("in "+r.DB, *m.MaxPly, m.Positions)
		return Plan{Engine: perfect.Book, Why: why, Scope: r.Scope, req: r}, nil
	}
	why := fmt.Sprintf("the database in %s holds the game solved, %d positions", r.DB, m.Positions)
	if db.Packed(m.Layout) {
		why = fmt.Sprintf("the win/draw/loss database in %s holds the value of every position, %s boards with no line; a depth is found by search guided by it", r.DB, figure.Commas(m.Positions))
	}
	return Plan{Engine: perfect.DB, Why: why, Scope: r.Scope, req: r}, nil
}

// forEvery picks the game in memory for every position of r's game, when the
// game fits the exhaustive solve and the memory.
func forEvery(r Request) (Plan, error) {
	spec := r.Rules.Spec()
	if err := enumerate.CheckFits(spec, r.Memory); err != nil {
		return Plan{}, err
	}
	why := fmt.Sprintf("every position is asked, and the whole game fits in memory: about %s to enumerate", figure.Bytes(enumerate.EstimateFor(spec).Bytes))
	return Plan{Engine: perfect.Memory, Why: why, Scope: Every, req: r}, nil
}

// Answered is who answers by p, and why, as reports give it.
func (p Plan) Answered() perfect.Answered {
	return perfect.Answered{Engine: p.Engine, Why: p.Why}
}

// forWhole picks how to solve the whole game of r: exhaustively in memory
// when the estimate fits, tier by tier when two plies fit and the
// temporary folder's disk holds the tiers.
func forWhole(r Request) (Plan, error) {
	spec := r.Rules.Spec()
	need := enumerate.EstimateFor(spec).Bytes
	tooBig := enumerate.CheckMemory(spec, r.Memory)
	if tooBig == nil {
		why := fmt.Sprintf("the whole game fits in memory: about %s to enumerate", figure.Bytes(need))
		return Plan{Engine: perfect.Memory, Why: why, Scope: Whole, req: r}, nil
	}
	e, err := tier.EstimateFor(r.Rules, r.Workers)
	if err == nil {
		err = e.Check(r.Memory, os.TempDir())
	}
	if err != nil {
		return Plan{}, fmt.Errorf("%w; and %v", tooBig, err)
	}
	why := fmt.Sprintf("%s needs about %s of memory to enumerate, more than the %s this run may use (TATETI_MEMORY caps it)",
		spec, figure.Bytes(need), figure.Bytes(r.Memory))
	return Plan{Engine: perfect.Tiers, Why: why, Scope: Whole, Tiers: e, req: r}, nil
}

// forPosition picks who answers positions of r one at a time, from
// r.Board on: the game in memory where the game from it fits (named, or
// auto), search where the board is one search handles.
func forPosition(r Request) (Plan, error) {
	if r.Scope == Many {
		r.Board = game.Board{}
	}
	memoryErr := fitsMemory(r.Rules, r.Board, r.Memory)
	if r.Named == string(perfect.Memory) || (r.Named == "auto" && memoryErr == nil) {
		if memoryErr != nil {
			return Plan{}, memoryErr
		}
		why := "the game from this position fits in memory, solved exhaustively"
		if r.Scope == Many {
			why = "the whole game fits in memory, solved exhaustively once"
		}
		if r.Named == string(perfect.Memory) {
			why = "named; " + why
		}
		return Plan{Engine: perfect.Memory, Why: why, Scope: r.Scope, req: r}, nil
	}
	if err := search.Fits(r.Rules.Spec()); err != nil {
		if r.Named == "auto" {
			return Plan{}, fmt.Errorf("%w; and %w", memoryErr, err)
		}
		return Plan{}, err
	}
	why := "named"
	if r.Named == "auto" {
		why = pastMemory(r.Rules.Spec().Cells())
		if p, ok, err := forBuiltIn(r); ok || err != nil {
			return p, err
		}
	}
	return Plan{Engine: perfect.Search, Why: why, Scope: r.Scope, req: r}, nil
}

// forBuiltIn picks the opening book built into tateti-lab for r's game,
// and search past it, when one is (package book).
func forBuiltIn(r Request) (Plan, bool, error) {
	b, ok, err := book.For(r.Rules.Spec())
	if !ok || err != nil {
		return Plan{}, false, err
	}
	why := bookWhy("built into tateti-lab", b.Last(), b.Manifest.Positions)
	return Plan{Engine: perfect.Book, Why: why, Scope: r.Scope, req: r, built: &b}, true, nil
}

// bookWhy says why an opening book, where it is, answers: it holds every
// position up to its last ply, positions of them.
func bookWhy(where string, last int, positions int64) string {
	return fmt.Sprintf("the opening book %s holds every position to ply %d, %s of them; search answers past it", where, last, figure.Commas(positions))
}

// pastMemory says why the exhaustive solve does not answer a board of
// cells cells.
func pastMemory(cells int) string {
	if cells > enumerate.MaxCells {
		return fmt.Sprintf("%d cells, past the %d the exhaustive solve takes", cells, enumerate.MaxCells)
	}
	return "the game from here needs more memory than the exhaustive solve may take"
}

// fitsMemory says why the game from b cannot be solved exhaustively in
// memory bytes, if it cannot.
func fitsMemory(rl rules.Rules, b game.Board, memory uint64) error {
	if err := enumerate.CheckSize(rl.Spec()); err != nil {
		return err
	}
	return enumerate.CheckMemoryFrom(rl.Spec(), b, memory)
}

// OnDisk gives what solving the whole game tier by tier on disk needs,
// where p does so (the engine Tiers); nil otherwise.
func (p Plan) OnDisk() *tier.Estimate {
	if p.Engine != perfect.Tiers {
		return nil
	}
	return &p.Tiers
}
