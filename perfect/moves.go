package perfect

import (
	"math"
	"math/bits"
	"slices"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Move is one legal move and the value and depth of the position it makes.
type Move struct {
	// Column is, under gravity, the move's column from 1, as --moves
	// takes it and every report says it (rules.Spec.MoveNumber); absent
	// otherwise. The cell, row and column from 0 are given beside it.
	Column int    `json:"column,omitempty"`
	Cell   int    `json:"cell"`
	Row    int    `json:"row"`
	Col    int    `json:"col"`
	Child  uint64 `json:"-"` // the child's state id, on boards that have ids
	Value  Value  `json:"value"`
	Depth  Depth  `json:"depth"`
	Best   bool   `json:"best"`
}

// NewMove gives the move to cell of a game of s, worth v in d plies.
func NewMove(s rules.Spec, cell int, v Value, d Depth) Move {
	m := Move{Cell: cell, Row: cell / s.Cols, Col: cell % s.Cols, Value: v, Depth: d}
	if s.Gravity {
		m.Column = s.MoveNumber(cell)
	}
	return m
}

// Analysis is one position analysed with perfect play.
type Analysis struct {
	Spec   rules.Spec
	Board  game.Board
	Status game.Status
	ToMove game.Cell // game.Empty when the game is over
	Value  Value
	Depth  Depth
	Moves  []Move // every legal move in cell order; none when the game is over

	// The board's state id and the smallest over the rules' symmetries,
	// where the board has them (Spec.HasIDs: at most game.MaxIDCells
	// cells); 0 elsewhere.
	StateID, CanonicalID uint64
	Paths                int64 // move sequences from the empty board that reach it; -1 when not counted
	BestLine             []int // cells of a line of perfect play to the end, or to LineEnd
	// LineEnd is the ply where BestLine stops short of the end, 0 when it
	// goes to the end: an opening book's line stops at the book's last ply,
	// past which each step would take a search.
	LineEnd int
	Engine  Engine // the oracle asked: Memory (the game solved exhaustively), DB, Book or Search
	// AnsweredBy is the engine that gave this position's value: Engine,
	// but "search" for a position past an opening book's last ply, which
	// the book hands to search.
	AnsweredBy Engine
	// BookLast is the last ply of the opening book in front of the engine
	// that answered ("book", and "search" past it); 0 without a book.
	BookLast int
	// ValueOnly says the value and depth alone were asked: Moves and
	// BestLine are left empty, whatever moves there are.
	ValueOnly bool
	// NoDepths says values alone were asked, without depths: Depth and
	// every move's Depth are 0, not known; the best moves are those of the
	// best value, however fast they win; and there is no BestLine, since a
	// line of perfect play needs depths.
	NoDepths bool

	// Proved is set when the answer is not settled (a search stopped by
	// its time limit): what is proved of the value, its bounds, which meet
	// when the value is known (Proved.Known). Value, Depth, Moves and
	// BestLine are then not known, and left empty.
	Proved *Bounds
}

// BestCells gives the cells of a's best moves (Move.Best) as a mask: none
// when the game is over or only the value was asked.
func (a Analysis) BestCells() uint64 {
	var cells uint64
	for _, m := range a.Moves {
		if m.Best {
			cells |= 1 << m.Cell
		}
	}
	return cells
}

// WithoutDepths gives a as oracle.Options.NoDepths asks it of an engine that
// knows the depths at no cost: its depths cleared, its best moves those of
// the best value (Weigh of depthless moves), no best line.
func (a Analysis) WithoutDepths() Analysis {
	a.Moves = slices.Clone(a.Moves)
	for i := range a.Moves {
		a.Moves[i].Depth = 0
	}
	if len(a.Moves) > 0 {
		Weigh(a.ToMove, a.Moves)
	}
	a.Depth, a.BestLine, a.LineEnd, a.NoDepths = 0, nil, 0, true
	return a
}

// Pick chooses among a position's moves one at a time, seen from the side
// to move: the best value, then the fastest win or the slowest loss; the
// best moves; and how many moves win, draw or lose. It is the one rule
// every engine weighs moves by.
type Pick struct {
	score int16 // the best score so far (see score)
	best  Outcome
	cells game.Mask
	count [4]uint8 // moves by value+1: lose, draw, win
}

// NewPick gives a Pick with no move yet.
func NewPick() Pick { return Pick{score: math.MinInt16} }

// Add weighs the move at cell c to a child of value v and depth d, v seen
// from the mover.
func (p *Pick) Add(c int, v Value, d Depth) {
	p.count[(v+1)&3]++
	s := score(v, d)
	if s > p.score {
		p.score, p.best, p.cells = s, Outcome{v, d}, 0
	}
	if s == p.score {
		p.cells |= 1 << c
	}
}

// Result gives the position's value, seen from the mover, and depth: the
// best child's, one ply further.
func (p *Pick) Result() (Value, Depth) { return p.best.Value, p.best.Depth + 1 }

// Best gives the cells of the best moves.
func (p *Pick) Best() game.Mask { return p.cells }

// Counts gives how many moves win, draw and lose for the mover.
func (p *Pick) Counts() (win, draw, lose uint8) { return p.count[2], p.count[1], p.count[0] }

// score orders the moves to children of value v and depth d (value seen
// from the mover, depth at most 64): a higher value first, then a faster
// win or a slower loss. Drawn children all score alike, as they all have
// the same depth: the empty cells left.
func score(v Value, d Depth) int16 { return int16(v) * (256 - int16(d)) }

// Weigh chooses among the moves ms of a position where mover is to move,
// each with its child's value (for X) and depth, as Pick does: it marks the
// best moves and gives the position's value (for X) and depth.
func Weigh(mover game.Cell, ms []Move) (Value, Depth) {
	p := NewPick()
	for _, m := range ms {
		p.Add(m.Cell, m.Value.For(mover), m.Depth)
	}
	for i := range ms {
		ms[i].Best = p.cells>>ms[i].Cell&1 != 0
	}
	v, d := p.Result()
	return v.For(mover), d
}

// MovesBy gives the legal moves of b, whose game goes on, in cell order,
// each with the value (for X) and depth child gives its child, weighed as
// Weigh weighs them, and b's value and depth: for an engine that knows one
// position at a time (search, a database).
func MovesBy(rl rules.Rules, b game.Board, child func(game.Board) (Outcome, error)) ([]Move, Outcome, error) {
	var ms []Move
	for m := uint64(rl.Moves(b)); m != 0; m &= m - 1 {
		c := bits.TrailingZeros64(m)
		after := b.Play(c, b.ToMove())
		o, err := child(after)
		if err != nil {
			return nil, Outcome{}, err
		}
		mv := NewMove(rl.Spec(), c, o.Value, o.Depth)
		if rl.Spec().HasIDs() {
			mv.Child = game.ID(after)
		}
		ms = append(ms, mv)
	}
	v, d := Weigh(b.ToMove(), ms)
	return ms, Outcome{v, d}, nil
}

// Engine names who answers perfect play, as the JSON names it: the
// planner's choice (package plan) and every answer's Engine and
// AnsweredBy.
type Engine string

// The engines.
const (
	Memory Engine = "memory" // the game solved exhaustively in memory
	Tiers  Engine = "tiers"  // the whole game tier by tier on disk, in a temporary folder
	DB     Engine = "db"     // a finished database
	Book   Engine = "book"   // an opening book (a database of the first plies), and search past it
	Search Engine = "search" // alpha-beta search, one position at a time
)

// Answered says who answered a run's perfect play and why: the engine the
// planner picked and its reason, as every command's report and JSON give
// them.
type Answered struct {
	Engine Engine `json:"engine"`
	Why    string `json:"why"`
}

// String is the words a report gives: the engine, then why in brackets.
func (a Answered) String() string {
	if a.Why == "" {
		return string(a.Engine)
	}
	return string(a.Engine) + " (" + a.Why + ")"
}
