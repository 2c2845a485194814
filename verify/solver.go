package verify

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/tateti-lab/tateti-lab/checker"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/par"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
)

// RecurrenceReport says how many solved positions satisfy the minimax
// recurrence against their children.
type RecurrenceReport struct {
	Positions int64    `json:"positions"`
	Hold      int64    `json:"hold"`
	Fail      int64    `json:"fail"`
	First     []string `json:"first_failures"`
}

// Recurrence checks every solved position against its children under the
// rules: a finished game has the value the rules give its status and depth 0;
// otherwise the value is the
// best child value for the side to move, the depth one more than the fastest
// winning (or slowest losing) best child, a drawn position's depth is its
// number of empty cells, the best moves are exactly the children that reach
// both, and the win, draw and loss counts match the children.
func Recurrence(ctx context.Context, r *solve.Result, workers int) (*RecurrenceReport, error) {
	e := r.Enum
	parts := make([]*RecurrenceReport, par.Chunks(0, e.Len(), workers))
	err := par.Ranges(ctx, 0, e.Len(), workers, func(_ context.Context, k, a, b int) error {
		p := &RecurrenceReport{}
		for i := a; i < b; i++ {
			p.Positions++
			if msg := recurrence(r, i); msg != "" {
				p.Fail++
				if len(p.First) < MaxExamples {
					p.First = append(p.First, e.Rules.Spec().Format(e.Board(i))+": "+msg)
				}
				continue
			}
			p.Hold++
		}
		parts[k] = p
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := &RecurrenceReport{First: []string{}}
	for _, p := range parts {
		out.Positions += p.Positions
		out.Hold += p.Hold
		out.Fail += p.Fail
		out.First = Keep(out.First, p.First...)
	}
	return out, nil
}

// recurrence checks position i and says what is wrong, or "".
func recurrence(r *solve.Result, i int) string {
	e := r.Enum
	// got is formatted only for a failure: most positions pass.
	got := func() string {
		return fmt.Sprintf("value %d depth %d best %b counts %d/%d/%d", r.Value[i], r.Depth[i], r.Best[i], r.Win[i], r.Draw[i], r.Lose[i])
	}
	if st := e.Status[i]; st.Terminal() {
		want := perfect.Of(e.Rules.Winner(st))
		if r.Value[i] != want || r.Depth[i] != 0 || r.Best[i] != 0 {
			return fmt.Sprintf("finished as %v, got %s; want value %d depth 0 and no moves", st, got(), want)
		}
		return ""
	}
	b := e.Board(i)
	kids, msg := children(r, b)
	if msg != "" {
		return msg
	}
	w := fromChildren(b.ToMove(), kids)
	if empties := bits.OnesCount64(uint64(e.Rules.Game().Full() &^ (b.X | b.O))); w.value == 0 && int(w.depth) != empties {
		return fmt.Sprintf("a draw of depth %d with %d empty cells", w.depth, empties)
	}
	if r.Value[i] != w.value || r.Depth[i] != w.depth || game.Mask(r.Best[i]) != w.best || r.Win[i] != w.win || r.Draw[i] != w.draw || r.Lose[i] != w.lose {
		return fmt.Sprintf("got %s; the children give value %d depth %d best %b counts %d/%d/%d", got(), w.value, w.depth, w.best, w.win, w.draw, w.lose)
	}
	return ""
}

// child is one legal move of a position and the solved value (for X) and
// depth of the position it makes.
type child struct {
	cell  int
	value perfect.Value
	depth perfect.Depth
}

// children lists the legal moves of b with their solved children, or says
// what is wrong.
func children(r *solve.Result, b game.Board) ([]child, string) {
	e := r.Enum
	var kids []child
	for m := uint64(e.Rules.Moves(b)); m != 0; m &= m - 1 {
		c := bits.TrailingZeros64(m)
		j, ok := e.Lookup(game.ID(b.Play(c, b.ToMove())))
		if !ok {
			return nil, fmt.Sprintf("the move at cell %d makes a board that is not enumerated", c)
		}
		kids = append(kids, child{c, r.Value[j], r.Depth[j]})
	}
	if len(kids) == 0 {
		return nil, "the game is not over but the rules give no legal move"
	}
	return kids, ""
}

// implied is what the minimax recurrence makes of a position's children.
type implied struct {
	value           perfect.Value
	depth           perfect.Depth
	best            game.Mask
	win, draw, lose uint8
}

// fromChildren applies the recurrence: the mover takes the best value (X
// the largest, O the smallest), then the fastest win or the slowest loss.
func fromChildren(mover game.Cell, kids []child) implied {
	var w implied
	w.value = kids[0].value
	for _, k := range kids {
		if (mover == game.X && k.value > w.value) || (mover == game.O && k.value < w.value) {
			w.value = k.value
		}
	}
	winning := (mover == game.X && w.value == 1) || (mover == game.O && w.value == -1)
	w.depth = -1
	for _, k := range kids {
		if k.value == w.value && (w.depth < 0 || (winning && k.depth < w.depth) || (!winning && k.depth > w.depth)) {
			w.depth = k.depth
		}
	}
	w.depth++
	for _, k := range kids {
		if k.value == w.value && k.depth+1 == w.depth {
			w.best |= 1 << k.cell
		}
		switch {
		case k.value == 0:
			w.draw++
		case (k.value == 1) == (mover == game.X):
			w.win++
		default:
			w.lose++
		}
	}
	return w
}

// NaiveReport is the comparison of the solver with the naive solver.
type NaiveReport struct {
	Ran       bool     `json:"ran"`
	Why       string   `json:"why,omitempty"` // why it did not run
	Nodes     int64    `json:"nodes"`         // move sequences visited
	Positions int64    `json:"positions"`     // distinct positions compared
	Agree     int64    `json:"agree"`
	Disagree  int64    `json:"disagree"`
	First     []string `json:"first_disagreements"`
}

// MaxNaiveNodes bounds the naive solver's work: it visits every move sequence.
const MaxNaiveNodes = 20_000_000

// Naive solves the game again by plain recursion from the root of r's
// enumeration, with no memo and no code of package solve, using the lines
// checker for status, and compares value, depth and best moves at every node.
// It runs only where the root has at most MaxNaiveNodes move sequences.
func Naive(ctx context.Context, r *solve.Result) (*NaiveReport, error) {
	e := r.Enum
	s := e.Rules.Spec().Spec
	rep := &NaiveReport{First: []string{}}
	var sequences int64
	for _, p := range e.Paths {
		sequences += p
	}
	if sequences > MaxNaiveNodes {
		rep.Why = fmt.Sprintf("plain recursion would visit %d move sequences, more than %d", sequences, MaxNaiveNodes)
		return rep, nil
	}
	lines, err := checker.New("lines", s)
	if err != nil {
		return nil, err
	}
	n := &naive{rules: e.Rules, lines: lines, board: e.Root, cells: e.Root.Marks(s, make([]game.Cell, s.Cells())),
		seen: make([]int8, e.Len()), r: r, rep: rep}
	n.solve(ctx, e.Root.ToMove())
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rep.Ran = true
	for _, v := range n.seen {
		switch v {
		case 1:
			rep.Agree++
		case 2:
			rep.Disagree++
		}
	}
	rep.Positions = rep.Agree + rep.Disagree
	return rep, nil
}

type naive struct {
	rules rules.Rules // the legal moves and the worth of a finished game
	lines checker.Checker
	board game.Board // the same position as cells, for the rules
	cells []game.Cell
	seen  []int8 // per position: 0 not reached, 1 agreed, 2 disagreed
	r     *solve.Result
	rep   *NaiveReport
}

// solve returns the value (from X's point of view) and depth of the board in
// n.cells with mover to play, and compares them with the solver's table.
// Once ctx is done it visits no more moves (it looks every 4,096 nodes).
func (n *naive) solve(ctx context.Context, mover game.Cell) (value, depth int8) {
	n.rep.Nodes++
	var best []int
	if st := n.lines.Status(n.cells); st.Terminal() {
		value = int8(perfect.Of(n.rules.Winner(st)))
	} else {
		first := true
		legal := n.rules.Moves(n.board)
		for c := range n.cells {
			if legal>>c&1 == 0 || (n.rep.Nodes&0xfff == 0 && ctx.Err() != nil) {
				continue
			}
			before := n.board
			n.cells[c], n.board = mover, n.board.Play(c, mover)
			v, d := n.solve(ctx, mover.Other())
			n.cells[c], n.board = game.Empty, before
			d++
			// Seen from the mover: a higher value, then a faster win or a slower loss.
			mv, bv := v, value
			if mover == game.O {
				mv, bv = -v, -value
			}
			switch {
			case first || mv > bv || (mv == bv && ((mv > 0 && d < depth) || (mv < 0 && d > depth))):
				value, depth, best, first = v, d, []int{c}, false
			case mv == bv && d == depth:
				best = append(best, c)
			}
		}
	}
	n.compare(value, depth, best)
	return value, depth
}

func (n *naive) compare(value, depth int8, best []int) {
	var id uint64
	for i := len(n.cells) - 1; i >= 0; i-- {
		id = id*3 + uint64(n.cells[i])
	}
	i, ok := n.r.Enum.Lookup(id)
	if !ok {
		n.note(fmt.Sprintf("state %d is reached by play but not enumerated", id))
		return
	}
	var mask game.Mask
	for _, c := range best {
		mask |= 1 << c
	}
	if n.r.Value[i] == perfect.Value(value) && n.r.Depth[i] == perfect.Depth(depth) && game.Mask(n.r.Best[i]) == mask {
		if n.seen[i] == 0 {
			n.seen[i] = 1
		}
		return
	}
	if n.seen[i] != 2 {
		n.seen[i] = 2
		n.note(fmt.Sprintf("%s: solver value %d depth %d best %b, naive value %d depth %d best %b",
			n.r.Enum.Rules.Spec().Format(n.r.Enum.Board(i)), n.r.Value[i], n.r.Depth[i], n.r.Best[i], value, depth, mask))
	}
}

func (n *naive) note(msg string) { n.rep.First = Keep(n.rep.First, msg) }
