package export

import (
	"cmp"
	"math/bits"
	"slices"
	"sort"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/positions"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
)

// A Source is the positions a dataset holds, in the order of its rows:
// every reachable position of a solved game (Game), or a chosen set of
// positions answered one at a time (Positions).
type Source interface {
	shape() shape
	len() int
	// nMoves is position i's number of legal moves: its rows in moves.
	nMoves(i int) int
	// rows gives a maker of rows with scratch space of its own: one to a
	// goroutine.
	rows() rowMaker
	// chosen says which positions a chosen set holds; nil for a game.
	chosen() *Chosen
}

// A rowMaker makes the rows of one source.
type rowMaker interface {
	// state fills dst with position i, reusing dst's slices.
	state(i int, dst *State)
	// moves appends the moves of position i to dst, in cell order.
	moves(i int, dst []Move) []Move
	// failed gives the error that stopped the rows, if any: a row a
	// maker cannot read is left empty, and the writer asks after each
	// batch.
	failed() error
}

// Game is the source of every reachable position of the solved game r,
// sorted by ply, then state id.
func Game(r *solve.Result) Source { return gameSource{r} }

type gameSource struct{ r *solve.Result }

func (g gameSource) shape() shape    { return shape{game: g.r.Enum.Rules.Spec()} }
func (g gameSource) len() int        { return g.r.Enum.Len() }
func (g gameSource) chosen() *Chosen { return nil }
func (g gameSource) nMoves(i int) int {
	return int(g.r.Win[i]) + int(g.r.Draw[i]) + int(g.r.Lose[i])
}
func (g gameSource) rows() rowMaker {
	s := g.r.Enum.Rules.Spec()
	return &gameRows{r: g.r, spec: s, cells: newCellTable(s.Spec)}
}

// gameRows makes the rows of a solved game.
type gameRows struct {
	r     *solve.Result
	spec  rules.Spec // the game's, asked once and not a row
	cells *cellTable
	buf   []perfect.Move
}

func (gr *gameRows) state(i int, dst *State) {
	r, e := gr.r, gr.r.Enum
	b := e.Board(i)
	st := e.Status[i]
	dst.StateID = int64(e.IDs[i])
	gr.cells.fill(b, dst)
	dst.facts(b, st, r.Value[i], r.Depth[i])
	dst.CanonicalID = int64(e.Canon[i])
	dst.OrbitSize = int8(e.Orbit[i])
	dst.Paths = e.Paths[i]
	gr.buf = r.AppendMoves(gr.buf[:0], i)
	dst.play(gr.spec, b, gr.buf)
}

func (gr *gameRows) failed() error { return nil }

func (gr *gameRows) moves(i int, dst []Move) []Move {
	id := int64(gr.r.Enum.IDs[i])
	gr.buf = gr.r.AppendMoves(gr.buf[:0], i)
	start := len(dst)
	for _, m := range gr.buf {
		dst = append(dst, Move{StateID: id, Move: int8(gr.spec.Action(m.Cell)), Cell: int8(m.Cell), ChildID: int64(m.Child),
			ChildValue: int8(m.Value), ChildDepth: int8(m.Depth), IsBest: m.Best})
	}
	byAction(dst[start:])
	return dst
}

// byAction puts one position's moves in the order of their actions, as
// the moves table lists them: under gravity the cells' order is not the
// columns'.
func byAction(ms []Move) {
	slices.SortStableFunc(ms, func(a, b Move) int { return int(a.Move) - int(b.Move) })
}

// Chosen says which positions a dataset of chosen positions holds, and who
// answered them; the manifest carries it as "positions".
type Chosen struct {
	positions.Choice
	Engine perfect.Engine `json:"engine"` // the engine the planner chose: memory, db, book or search
	// AnsweredBy counts the positions in the tables by the engine that
	// gave each one's value (the states table's answered_by): a book hands
	// the positions past its last ply to search.
	AnsweredBy map[perfect.Engine]int `json:"answered_by"`
	// the boards not settled within the time limit a position, left out
	// of the tables, by ply and then as the rows go; absent when none
	Unsettled []string `json:"unsettled,omitempty"`
	// ValueOnly says the positions were answered with their values and
	// depths alone (oracle.Options.ValueOnly): the moves table is empty,
	// and the states table lacks the columns of the moves' values.
	ValueOnly bool `json:"value_only,omitempty"`
	// NoDepths says the positions were answered without depths
	// (oracle.Options.NoDepths): the tables have no depth columns, and the
	// best moves are those of the best value.
	NoDepths bool `json:"no_depths,omitempty"`
}

// Label gives the analysed positions as of rl's game as a chosen set's
// source, which choice describes; known says what else is known of as[i],
// an entry each: the paths that reach it, where not negative, which the
// analysis did not count, and its history, where known.
//
// An analysis not settled (cut short by a time limit) is left out of the
// rows: its board is named in Chosen's Unsettled, never guessed.
//
// The source keeps as, sorted and its unsettled analyses dropped in place:
// the caller lets go of it, so that a sample of millions is not held twice.
func Label(rl rules.Rules, as []perfect.Analysis, known positions.Known, choice positions.Choice) Source {
	about := Chosen{Choice: choice, AnsweredBy: map[perfect.Engine]int{}}
	settled, unsettled := as[:0], []perfect.Analysis(nil)
	var hist []positions.History
	for i, a := range as { // a is a copy: as[len(settled)], at or before i, is free to take it
		if known.Paths[i] >= 0 {
			a.Paths = known.Paths[i]
		}
		about.Engine, about.ValueOnly, about.NoDepths = a.Engine, a.ValueOnly, a.NoDepths
		if a.Proved != nil {
			unsettled = append(unsettled, a)
			continue
		}
		settled = append(settled, a)
		if known.Histories != nil {
			hist = append(hist, known.Histories[i])
		}
		about.AnsweredBy[a.AnsweredBy]++
	}
	for _, a := range inRowOrder(unsettled, nil) {
		about.Unsettled = append(about.Unsettled, rl.Spec().Format(a.Board))
	}
	return sorted(rl, settled, hist, about)
}

// Positions is the source of the analysed positions as, of the game rl,
// which chosen describes; their rows are sorted by ply, then state id (or
// past state ids by their X marks, then their O marks, as numbers). Each
// analysis must be settled, and a position must come once.
func Positions(rl rules.Rules, as []perfect.Analysis, chosen Chosen) Source {
	return sorted(rl, slices.Clone(as), nil, chosen)
}

// sorted is Positions of as, with their histories hist (nil for none
// known), which it sorts in place.
func sorted(rl rules.Rules, as []perfect.Analysis, hist []positions.History, chosen Chosen) Source {
	as = inRowOrder(as, hist)
	return &chosenSource{rl: rl, as: as, hist: hist, about: chosen}
}

// inRowOrder sorts as in place in the order of a chosen set's rows: by ply,
// then state id, then board, and gives it; hist, where not nil, is sorted
// alike.
func inRowOrder(as []perfect.Analysis, hist []positions.History) []perfect.Analysis {
	sort.Sort(rowOrder{as, hist})
	return as
}

// rowOrder sorts analyses in the order of a chosen set's rows, and their
// histories with them, where there are.
type rowOrder struct {
	as   []perfect.Analysis
	hist []positions.History
}

func (r rowOrder) Len() int { return len(r.as) }
func (r rowOrder) Less(i, j int) bool {
	a, b := &r.as[i], &r.as[j]
	return cmp.Or(cmp.Compare(a.Board.Ply(), b.Board.Ply()), cmp.Compare(a.StateID, b.StateID), game.CompareBoards(a.Board, b.Board)) < 0
}
func (r rowOrder) Swap(i, j int) {
	r.as[i], r.as[j] = r.as[j], r.as[i]
	if r.hist != nil {
		r.hist[i], r.hist[j] = r.hist[j], r.hist[i]
	}
}

type chosenSource struct {
	rl    rules.Rules
	as    []perfect.Analysis
	hist  []positions.History // as[i]'s history in hist[i]; nil when none is known
	about Chosen
}

func (c *chosenSource) shape() shape {
	return shape{game: c.rl.Spec(), chosen: true, valueOnly: c.about.ValueOnly, noDepths: c.about.NoDepths, played: true}
}
func (c *chosenSource) len() int         { return len(c.as) }
func (c *chosenSource) chosen() *Chosen  { return &c.about }
func (c *chosenSource) nMoves(i int) int { return len(c.as[i].Moves) }
func (c *chosenSource) rows() rowMaker {
	return &chosenRows{c: c, cells: newCellTable(c.rl.Spec().Spec)}
}

// chosenRows makes the rows of a chosen set.
type chosenRows struct {
	c     *chosenSource
	cells *cellTable
}

func (cr *chosenRows) state(i int, dst *State) {
	analysisState(cr.c.rl, cr.cells, &cr.c.as[i], dst)
	dst.History = nil
	if cr.c.hist == nil || cr.c.hist[i] == nil {
		return
	}
	s := cr.c.rl.Spec()
	dst.History = make([]int8, len(cr.c.hist[i])) // the empty board's known, and empty
	for k, cell := range cr.c.hist[i] {
		dst.History[k] = int8(s.Action(int(cell)))
	}
}

func (cr *chosenRows) moves(i int, dst []Move) []Move {
	return analysisMoves(cr.c.rl, &cr.c.as[i], dst)
}

func (cr *chosenRows) failed() error { return nil }

// analysisState fills dst with the analysed position a of rl's game.
func analysisState(rl rules.Rules, cells *cellTable, a *perfect.Analysis, dst *State) {
	s := rl.Spec()
	dst.StateID = int64(a.StateID)
	cells.fill(a.Board, dst)
	dst.facts(a.Board, a.Status, a.Value, a.Depth)
	dst.CanonicalID = int64(a.CanonicalID)
	least, orbit := game.Least(a.Board, rl.Symmetries())
	if !s.HasIDs() {
		dst.CanonicalBoard = s.AppendFormat(dst.CanonicalBoard[:0], least)
	}
	dst.OrbitSize = int8(orbit)
	dst.Paths = a.Paths
	dst.AnsweredBy = string(a.AnsweredBy)
	ms := a.Moves
	if a.ValueOnly && !a.Status.Terminal() { // the legal moves, their values unknown: play fills no column of those
		ms = nil
		for m := uint64(rl.Moves(a.Board)); m != 0; m &= m - 1 {
			ms = append(ms, perfect.Move{Cell: bits.TrailingZeros64(m)})
		}
	}
	dst.play(s, a.Board, ms)
}

// analysisMoves appends the moves of the analysed position a of rl's game
// to dst, in cell order.
func analysisMoves(rl rules.Rules, a *perfect.Analysis, dst []Move) []Move {
	s := rl.Spec()
	var board []byte
	if !s.HasIDs() {
		board = s.AppendFormat(nil, a.Board)
	}
	start := len(dst)
	for _, m := range a.Moves {
		mv := Move{StateID: int64(a.StateID), Board: board, Move: int8(s.Action(m.Cell)), Cell: int8(m.Cell), ChildID: int64(m.Child),
			ChildValue: int8(m.Value), ChildDepth: int8(m.Depth), IsBest: m.Best}
		if !s.HasIDs() {
			mv.ChildBoard = s.AppendFormat(nil, a.Board.Play(m.Cell, a.Board.ToMove()))
		}
		dst = append(dst, mv)
	}
	byAction(dst[start:])
	return dst
}
