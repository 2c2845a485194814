package view

import (
	"math/bits"
	"slices"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Why is the line that shows what a move gives, as the explorer's "why?"
// answers it: the move, then perfect play of both sides after it, as the
// engines gave it, to the end of the game; for a move that wins, but more
// slowly than the best, a best move's faster win instead.
type Why struct {
	Board string `json:"board"` // the position the move is played on
	Move  Move   `json:"move"`  // the move asked about, with its value
	Best  Move   `json:"best"`  // a best move of the position, the first in cell order
	// Shows says what Line is: "best" (the move is a best move, and Line
	// its own), "refutation" (the move, then the best play that
	// punishes it) or "faster" (a best move's line, which wins sooner).
	Shows     string `json:"shows"`
	Outcome   string `json:"outcome"`    // the line's outcome with perfect play: "X wins", "O wins", "draw"
	Line      []int  `json:"line"`       // cells, from the first move of the line
	LineMoves string `json:"line_moves"` // Line as --moves takes it
	End       int    `json:"end"`        // the ply at the line's last move: the game's end, unless LineEnd
	// LineEnd is the ply where the line stops short of the game's end (a
	// position after it was not settled within the time limit), as
	// Position's best_line_end; absent when it goes to the end.
	LineEnd int `json:"line_end,omitempty"`
	// Forced is how many moves of Line are played when the outcome is
	// plain to see (perfect.Forced): the side to move cannot stop every
	// one of the Threats, cells on which the other side completes a line.
	// len(Line) and none when that comes only with the end.
	Forced  int   `json:"forced"`
	Threats []int `json:"threats"`
	// the cells of the line that ends the game, in cell order; absent
	// after a draw and when the line stops short
	WinningLine []int `json:"winning_line,omitempty"`
}

// NewWhy builds the view of line, played on b from its first move, which
// is move's or (shows "faster") best's; short says that it stops before
// the game's end.
func NewWhy(rl rules.Rules, b game.Board, move, best perfect.Move, shows string, line []int, short bool) Why {
	s := rl.Spec()
	mover := b.ToMove()
	w := Why{Board: s.Format(b), Move: Moves(mover, []perfect.Move{move})[0], Best: Moves(mover, []perfect.Move{best})[0],
		Shows: shows, Line: line, LineMoves: s.FormatMoves(line), End: b.Ply() + len(line), Threats: []int{}}
	if short {
		w.LineEnd = w.End
	}
	w.Outcome = move.Value.String()
	if shows == "faster" {
		w.Outcome = best.Value.String()
	}
	at, threats := perfect.Forced(rl, b, line)
	w.Forced = at
	for m := threats; m != 0; m &= m - 1 {
		w.Threats = append(w.Threats, bits.TrailingZeros64(uint64(m)))
	}
	end := b
	for _, c := range line {
		end = end.Play(c, end.ToMove())
	}
	for m := rl.Game().Lined(end); m != 0; m &= m - 1 {
		w.WinningLine = append(w.WinningLine, bits.TrailingZeros64(uint64(m)))
	}
	return w
}

// A Lookup gives the view of a position along a why line, or nil (and no
// error) while it is not known yet: the explorer's, queued and kept.
type Lookup func(b game.Board) (*Position, error)

// HasValues says whether v's moves have values, which a why line needs:
// then one of them is best.
func HasValues(v *Position) bool {
	return slices.ContainsFunc(v.Moves, func(m Move) bool { return m.Best })
}

// Explain builds the why line of the move to cell on b, whose view is v
// (its moves with values, HasValues): the move, then perfect play of both
// sides after it to the end ("refutation"); for a slower win, a best
// move's line instead ("faster"); for a best move, its own ("best"). Each
// position's best line comes from look; an opening book's line stops at
// its last ply, and the line goes on from the view of the position there,
// to the game's end, or stops short where a search was not settled. It
// gives nil, and no error, while a view along the line is not known yet.
func Explain(rl rules.Rules, v *Position, b game.Board, cell int, look Lookup) (*Why, error) {
	m, best := moveAndBest(v, cell)
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
		if over, _ := rl.Outcome(p); over {
			break
		}
		pv, err := look(p)
		if pv == nil || err != nil {
			return nil, err
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
	w := NewWhy(rl, b, m.played(), best.played(), shows, line, short)
	return &w, nil
}

// moveAndBest finds the move to cell among v's moves, and v's first best
// move.
func moveAndBest(v *Position, cell int) (m, best Move) {
	for _, mv := range v.Moves {
		if mv.Cell == cell {
			m = mv
		}
		if mv.Best && !best.Best {
			best = mv
		}
	}
	return m, best
}
