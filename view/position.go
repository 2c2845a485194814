// Package view owns the view of one position with perfect play: the object
// that solve --position --json prints and the explorer's API answers, built
// once from an analysis (Position), the line that shows why a move is worse
// than the best (Why), and the results' colours every view shares. It
// knows nothing of the tool's runs, so the explorer's server, which needs
// these alone, imports none of them (package report draws the rest).
package view

import (
	"bytes"
	"encoding/json"
	"math/bits"
	"strconv"
	"strings"
	"sync"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Position is one position analysed with perfect play, as shown.
type Position struct {
	Game rules.Spec `json:"game"`
	// Title names the game in prose: "Connect Four", "tic-tac-toe", else
	// its board and rules (rules.Spec.Title).
	Title   string        `json:"title"`
	Board   string        `json:"board"`
	Status  string        `json:"status"`
	ToMove  *string       `json:"to_move"` // null when the game is over
	Value   perfect.Value `json:"value"`   // null when Proved is set and does not prove the value
	Outcome string        `json:"outcome"` // "X wins", "O wins", "draw"; "not settled" when Proved does not prove the value
	Depth   perfect.Depth `json:"depth"`   // null when Proved or NoDepths is set
	Moves   []Move        `json:"moves"`   // every legal move in cell order, with its value
	Legal   []int         `json:"legal"`   // the cells a move can take, in cell order, known even when the value is not

	// null past 40 cells, where a position is keyed by its board text
	StateID     *uint64 `json:"state_id"`
	CanonicalID *uint64 `json:"canonical_id"`
	Paths       *int64  `json:"paths"`     // move sequences from the empty board that reach it; null when not counted (search)
	BestLine    []int   `json:"best_line"` // cells of a line of perfect play to the end, or to best_line_end
	// the ply where the best line stops short of the end: an opening
	// book's last ply; absent when the line goes to the end
	LineEnd int `json:"best_line_end,omitempty"`
	// the best line as --moves takes it: under gravity columns from 1
	// ("4453"), otherwise cells ("4,0,8")
	BestMoves string `json:"best_line_moves"`
	// under gravity, the columns of the legal moves, from 1 as --moves
	// takes them; absent otherwise, and when no move is legal
	LegalColumns []int          `json:"legal_columns,omitempty"`
	Engine       perfect.Engine `json:"engine"`                  // the engine the planner chose: "memory", "db", "book" or "search"
	AnsweredBy   perfect.Engine `json:"answered_by"`             // the engine that gave this position's value: engine's, or "search" past a book's last ply
	BookLast     int            `json:"book_last_ply,omitempty"` // the last ply of the book in front of the engine that answered
	Why          string         `json:"why,omitempty"`           // why the planner chose it, where a command asked it
	// set when the answer was not settled within the time limit: what is
	// proved of the value. Depth, moves and best line are then not known
	// (null and empty), and the value only where the bounds meet.
	Proved *Proved `json:"proved,omitempty"`
	// ValueOnly is set when the value and depth alone were asked: moves
	// and best line are then empty, the legal cells still given.
	ValueOnly bool `json:"value_only,omitempty"`
	// NoDepths is set when values were asked without depths: the depth
	// and every move's are then null, the best moves those of the best
	// value, and there is no best line.
	NoDepths bool `json:"no_depths,omitempty"`
	// the cells of the line that ended the game, in cell order; absent
	// while it is in progress and after a draw
	WinningLine []int `json:"winning_line,omitempty"`
}

// MarshalJSON writes p with its value and depth null where they are not
// known: one shape for an answer cut short, whatever step it was cut in,
// and for values asked without depths.
func (p Position) MarshalJSON() ([]byte, error) { return p.AppendJSON(nil) }

// AppendJSON appends p's JSON, compact, as MarshalJSON gives it, to dst:
// a program's answers (solve --stdin) go into one buffer, reused, where
// json.Marshal makes a slice for each.
func (p Position) AppendJSON(dst []byte) ([]byte, error) {
	e := encoders.Get().(*encoder)
	defer e.done()
	e.p.plainPosition = plainPosition(p)
	var v any = &e.p.plainPosition
	if p.Proved != nil || p.NoDepths {
		// The embedded Value is hidden from JSON by the outer one, so it
		// holds the value the outer one points at.
		e.p.Value = &e.p.plainPosition.Value
		if p.Proved != nil {
			e.p.Value = nil
			if known, ok := p.Proved.Known(); ok {
				e.p.plainPosition.Value, e.p.Value = known, &e.p.plainPosition.Value
			}
		}
		v = &e.p
	}
	if err := e.json.Encode(v); err != nil {
		return dst, err
	}
	b := e.out.Bytes()
	return append(dst, b[:len(b)-1]...), nil // Encode ends the value with a newline
}

// plainPosition is Position without its MarshalJSON: what encoding/json
// writes field by field.
type plainPosition Position

// nulledPosition is a Position whose value and depth are written from the
// pointers here, null where nil: a value not proved, a depth not asked.
type nulledPosition struct {
	plainPosition
	Value *perfect.Value `json:"value"`
	Depth *perfect.Depth `json:"depth"`
}

// encoder is AppendJSON's scratch, kept in encoders between calls: the
// position is copied into it and encoded through a pointer (an interface
// holding a struct of this size is a new allocation each time), by an
// encoder that writes into a buffer of its own.
type encoder struct {
	out  bytes.Buffer
	json *json.Encoder
	p    nulledPosition
}

var encoders = sync.Pool{New: func() any {
	e := new(encoder)
	e.json = json.NewEncoder(&e.out)
	return e
}}

// done empties e, so that it holds nothing of the position, and gives it
// back.
func (e *encoder) done() {
	e.out.Reset()
	e.p = nulledPosition{}
	encoders.Put(e)
}

// Proved is what a search stopped before the end proved of a value for X.
type Proved struct {
	perfect.Bounds
	Says string `json:"says"` // the bounds in words: "X does not lose"
}

// Unanswered is the view of b, a position of rl's game, before any answer
// came: its status, side to move and legal moves, and nothing proved.
func Unanswered(rl rules.Rules, b game.Board) Position {
	st := rl.Game().Status(b)
	a := perfect.Analysis{Spec: rl.Spec(), Board: b, Status: st, Proved: &perfect.Bounds{Low: perfect.OWins, High: perfect.XWins}}
	if !st.Terminal() {
		a.ToMove = b.ToMove()
	}
	return NewPosition(a)
}

// NewPosition builds the view of an analysis.
func NewPosition(a perfect.Analysis) Position {
	v := Position{Game: a.Spec, Title: a.Spec.Title(), Board: a.Spec.Spec.Format(a.Board), Status: a.Status.String(),
		Value: a.Value, Outcome: a.Value.String(), Depth: a.Depth, Moves: Moves(a.ToMove, a.Moves),
		BestLine: a.BestLine, LineEnd: a.LineEnd, Engine: a.Engine, AnsweredBy: a.AnsweredBy, BookLast: a.BookLast, ValueOnly: a.ValueOnly, NoDepths: a.NoDepths}
	if a.NoDepths {
		for i := range v.Moves {
			v.Moves[i].Depth = nil
		}
	}
	if a.Spec.HasIDs() { // copies: pointers into a would move all of it to the heap
		id, canon := a.StateID, a.CanonicalID
		v.StateID, v.CanonicalID = &id, &canon
	}
	if a.Paths >= 0 {
		paths := a.Paths
		v.Paths = &paths
	}
	if a.Proved != nil {
		v.Proved = &Proved{Bounds: *a.Proved, Says: a.Proved.String()}
		v.Value, v.Depth, v.Outcome = 0, 0, "not settled"
		if known, ok := a.Proved.Known(); ok {
			v.Value, v.Outcome = known, known.String()
		}
	}
	if a.ToMove != game.Empty {
		m := a.ToMove.String()
		v.ToMove = &m
	}
	v.Legal = legal(a)
	if v.BestLine == nil {
		v.BestLine = []int{}
	}
	v.BestMoves = a.Spec.FormatMoves(v.BestLine)
	if a.Status == game.XWon || a.Status == game.OWon {
		for m := game.New(a.Spec.Spec).Lined(a.Board); m != 0; m &= m - 1 {
			v.WinningLine = append(v.WinningLine, bits.TrailingZeros64(uint64(m)))
		}
	}
	if a.Spec.Gravity && len(v.Legal) > 0 {
		v.LegalColumns = make([]int, 0, len(v.Legal))
		for _, c := range v.Legal {
			v.LegalColumns = append(v.LegalColumns, a.Spec.MoveNumber(c))
		}
	}
	return v
}

// Move is a legal move as shown: its value and depth, and its result for
// the side to move, the word (and colour) every view gives it.
type Move struct {
	// Column is, under gravity, the move's column from 1, as --moves
	// takes it; absent otherwise. The cell, row and column from 0 are
	// given beside it.
	Column int           `json:"column,omitempty"`
	Cell   int           `json:"cell"`
	Row    int           `json:"row"`
	Col    int           `json:"col"`
	Value  perfect.Value `json:"value"` // the child's value, for X
	// Depth is the child's depth, nil (null) where depths were not asked
	// (Position.NoDepths).
	Depth  *perfect.Depth `json:"depth"`
	Best   bool           `json:"best"`
	Result string         `json:"result"` // "win", "draw" or "loss" for the side to move
}

// Moves gives the view of the moves of mover, never nil.
func Moves(mover game.Cell, ms []perfect.Move) []Move {
	out := make([]Move, len(ms))
	for i, m := range ms {
		out[i] = Move{Column: m.Column, Cell: m.Cell, Row: m.Row, Col: m.Col, Value: m.Value, Depth: &ms[i].Depth, Best: m.Best, Result: Result(mover, m.Value)}
	}
	return out
}

// played gives m as the analysis had it, its depth 0 where not known.
func (m Move) played() perfect.Move {
	pm := perfect.Move{Column: m.Column, Cell: m.Cell, Row: m.Row, Col: m.Col, Value: m.Value, Best: m.Best}
	if m.Depth != nil {
		pm.Depth = *m.Depth
	}
	return pm
}

// Mark gives the move's mark on a board of ply marks: its result's letter
// for the side to move (W, D or L) and, where its depth is known, the move
// by which the game then ends, counting from the first, such as W12.
func (m Move) Mark(ply int) string {
	mark := strings.ToUpper(m.Result[:1])
	if m.Depth != nil {
		mark += strconv.Itoa(ply + 1 + int(*m.Depth))
	}
	return mark
}

// Result gives a value for X as a result for mover: win, draw or loss, the
// key of Colours.
func Result(mover game.Cell, v perfect.Value) string {
	switch v.For(mover) {
	case perfect.XWins:
		return "win"
	case perfect.OWins:
		return "loss"
	}
	return "draw"
}

// legal gives the cells a move can take in a: those of its moves, or, when
// the search stopped before their values were known or they were not
// asked, what the rules allow.
func legal(a perfect.Analysis) []int {
	if a.ToMove == game.Empty {
		return []int{}
	}
	if a.Proved == nil && !a.ValueOnly {
		cells := make([]int, 0, len(a.Moves))
		for _, m := range a.Moves {
			cells = append(cells, m.Cell)
		}
		return cells
	}
	c := rules.New(a.Spec).Moves(a.Board)
	cells := make([]int, 0, bits.OnesCount64(uint64(c)))
	for ; c != 0; c &= c - 1 {
		cells = append(cells, bits.TrailingZeros64(uint64(c)))
	}
	return cells
}

// Colours of a move's result for the side to move, shared by every view:
// the text, the SVG picture and the page.
var Colours = map[string]string{"win": "#2e7d32", "draw": "#946200", "loss": "#c62828"}
