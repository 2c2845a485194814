// Package grade owns grading a user's agent against perfect play: the agent
// program is asked for a move in each position, and every answer is judged
// by the value it keeps, whether it is also a best move (fastest win,
// slowest loss), and what it throws away when it is a blunder. Illegal and
// unreadable answers are findings about the agent, reported with the board.
package grade

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/extproc"
	"github.com/tateti-lab/tateti-lab/internal/protocol"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
)

// Agent describes a user's agent program (the agent protocol): a request is
// a board, as for a checker; the answer is one move in Moves's format.
type Agent struct {
	protocol.Program
	Moves protocol.MoveFormat
	Keep  bool // keep every answer graded, in Report.Rows
}

// Tally counts the graded answers of a set of positions.
type Tally struct {
	Positions  int64   `json:"positions"`
	Illegal    int64   `json:"illegal"`     // unreadable, or not a legal move
	Kept       int64   `json:"kept_value"`  // the move keeps the position's value
	Best       int64   `json:"best"`        // and is as fast (or as slow) as the best moves
	WinToDraw  int64   `json:"win_to_draw"` // blunders, by what they throw away
	WinToLoss  int64   `json:"win_to_loss"`
	DrawToLoss int64   `json:"draw_to_loss"`
	Accuracy   float64 `json:"accuracy"` // percent of positions whose value was kept
}

// PlyTally is the tally of one ply.
type PlyTally struct {
	Ply int `json:"ply"`
	Tally
}

// Example is one answer that lost something, drawn in the report.
type Example struct {
	Board    string  `json:"board"`
	StateID  *uint64 `json:"state_id"` // null past 40 cells
	Answer   string  `json:"answer"`   // as the agent wrote it, in its own numbering (--move-format)
	Move     *int    `json:"move"`     // the answer's action (Report.Numbering); null when illegal
	Kind     string  `json:"kind"`     // illegal, win_to_loss, win_to_draw, draw_to_loss
	Why      string  `json:"why"`      // for an illegal answer, what is wrong with it
	Expected int     `json:"expected"` // a best move's action (Report.Numbering)

	cell, best int // the answer's cell (-1 when illegal) and the best move's, for the report
}

// Words says the example's answer and a best move as a report does: the
// agent's answer quoted in its own numbering, and each move as --moves
// takes it ("column 4" under gravity, else "cell 5").
func (e Example) Words(s rules.Spec) (answered, best string) {
	answered = fmt.Sprintf("the agent answered %q", e.Answer)
	if e.cell >= 0 {
		answered += fmt.Sprintf(" (%s %d)", s.MoveNoun(), s.MoveNumber(e.cell))
	}
	return answered, fmt.Sprintf("a best move: %s %d", s.MoveNoun(), s.MoveNumber(e.best))
}

// Report is an agent graded on a set of positions.
type Report struct {
	Program string     `json:"program"`
	Overall Tally      `json:"overall"`
	ByPly   []PlyTally `json:"by_ply"`
	Worst   []Example  `json:"worst"` // the worst answers first: illegal, win to loss, win to draw, draw to loss
	// Numbering says how the moves of Worst and of the graded table are
	// numbered: actions, as the datasets number them; answers are quoted
	// as the agent wrote them.
	Numbering string `json:"numbering"`
	// Rows are every answer graded, in the order asked, when the agent's
	// Keep asks for them (grade --out).
	Rows []Graded `json:"-"`
}

// MaxExamples is how many of the worst answers a report keeps.
const MaxExamples = 5

// Run asks the agent for a move in each position of set, positions of rl's
// game whose game is not over, and grades the answers. A failure of
// the program is an *extproc.ProgramError; when ctx is cancelled Run gives
// ctx's error.
func (a *Agent) Run(ctx context.Context, rl rules.Rules, set solve.Set) (*Report, error) {
	rs := rl.Spec()
	rep := &Report{Program: strings.Join(a.Argv, " "), Worst: []Example{}, Numbering: Numbering(rs)}
	byPly := make([]PlyTally, rs.Cells()+1)
	var worst []Example
	var buf []perfect.Move
	err := extproc.Exchange(ctx, a.Config(rs), "agent", set.Len(),
		func(dst []byte, k int) []byte { return a.Cells.AppendLine(dst, rs.Spec, set.Board(k)) },
		func(k int, text string) error {
			b := set.Board(k)
			var v perfect.Value
			v, _, buf = set.Play(k, buf)
			row, ex := a.grade(rl, b, v, buf, strings.TrimSpace(text), &rep.Overall, &byPly[b.Ply()].Tally)
			if ex != nil {
				worst = append(worst, *ex)
			}
			if a.Keep {
				rep.Rows = append(rep.Rows, row)
			}
			return nil
		})
	if err != nil {
		return nil, err
	}
	rep.Overall.finish()
	for ply := range byPly {
		if byPly[ply].Positions > 0 {
			byPly[ply].Ply = ply
			byPly[ply].finish()
			rep.ByPly = append(rep.ByPly, byPly[ply])
		}
	}
	// Stable: the worst kind first, then the order the positions came in.
	slices.SortStableFunc(worst, func(x, y Example) int { return cmp.Compare(severity[x.Kind], severity[y.Kind]) })
	rep.Worst = append(rep.Worst, worst[:min(len(worst), MaxExamples)]...)
	return rep, nil
}

var severity = map[string]int{"illegal": 0, "win_to_loss": 1, "win_to_draw": 2, "draw_to_loss": 3}

// grade judges the answer text to the position b of value v (for X), whose
// moves are ms, into both tallies, gives its row, and an example when the
// answer lost something.
func (a *Agent) grade(rl rules.Rules, b game.Board, v perfect.Value, ms []perfect.Move, text string, tallies ...*Tally) (Graded, *Example) {
	s := rl.Spec().Spec
	mover := b.ToMove()
	row := Graded{Board: s.Format(b), Ply: int8(b.Ply()), Answer: game.Echo(text), ValueBefore: int8(v.For(mover))}
	first := firstBest(ms)
	ex := &Example{Board: row.Board, Answer: row.Answer, Expected: rl.Spec().Action(first), cell: -1, best: first}
	if s.HasIDs() {
		id := game.ID(b)
		row.StateID, ex.StateID = new(int64(id)), &id
	}
	cell, err := a.Moves.Parse(rl, b, text)
	j := slices.IndexFunc(ms, func(m perfect.Move) bool { return m.Cell == cell })
	if err == nil && j < 0 {
		err = illegal(rl.Spec().Gravity, a.Moves, b, cell)
	}
	if err != nil {
		ex.Kind, ex.Why = "illegal", err.Error()
		row.Kind = ex.Kind
		for _, t := range tallies {
			t.Positions++
			t.Illegal++
		}
		return row, ex
	}
	before, after := row.ValueBefore, int8(ms[j].Value.For(mover)) // for the side to move
	best := ms[j].Best
	action, c8 := int8(rl.Spec().Action(cell)), int8(cell)
	row.Move, row.Cell, row.ValueAfter, row.IsBest = &action, &c8, &after, best
	ex.Move, ex.cell = new(int(action)), cell
	for _, t := range tallies {
		t.add(before, after, best)
	}
	switch {
	case before == after:
		row.Kind = "kept"
		return row, nil
	case before == 1 && after == -1:
		ex.Kind = "win_to_loss"
	case before == 1:
		ex.Kind = "win_to_draw"
	default:
		ex.Kind = "draw_to_loss"
	}
	row.Kind = ex.Kind
	return row, ex
}

// illegal says why the answer of cell, read in format f, is no legal move
// of b; under gravity, an answer read as a cell also names the formats of
// an agent that answers columns, the most common slip there.
func illegal(gravity bool, f protocol.MoveFormat, b game.Board, cell int) error {
	hint := ""
	if gravity && f == protocol.Cell {
		hint = " (read as a cell, --move-format's default; an agent that answers columns wants --move-format column, from 0, or pettingzoo)"
	}
	if b.At(cell) != game.Empty {
		return fmt.Errorf("cell %d holds %v%s", cell, b.At(cell), hint)
	}
	if gravity {
		return fmt.Errorf("cell %d is not the lowest empty cell of its column%s", cell, hint)
	}
	return fmt.Errorf("cell %d is not a legal move", cell)
}

// firstBest is the cell of the first best move of ms; -1 when none is.
func firstBest(ms []perfect.Move) int {
	for _, m := range ms {
		if m.Best {
			return m.Cell
		}
	}
	return -1
}

func (t *Tally) add(before, after int8, best bool) {
	t.Positions++
	switch {
	case before == after:
		t.Kept++
		if best {
			t.Best++
		}
	case before == 1 && after == -1:
		t.WinToLoss++
	case before == 1:
		t.WinToDraw++
	default:
		t.DrawToLoss++
	}
}

// finish computes the accuracy (Percent).
func (t *Tally) finish() { t.Accuracy = Percent(t.Kept, t.Positions) }

// Percent gives n of all as a percentage, rounded to a hundredth so that
// every report reads the same (16 of 17 is 94.12), except that only all
// of them is 100 and only none is 0: 99,999 of 100,000 is 99.99, one of
// 100,000 is 0.01. 0 when all is 0.
func Percent(n, all int64) float64 {
	if all == 0 {
		return 0
	}
	hundredths := (n*10000 + all/2) / all
	if n < all {
		hundredths = min(hundredths, 9999)
	}
	if n > 0 {
		hundredths = max(hundredths, 1)
	}
	return float64(hundredths) / 100
}
