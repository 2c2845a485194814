// Package rules owns the rules of a variant of an m,n,k game over game.Board:
// where the side to move may put a mark (free placement, or gravity as in
// Connect Four), what a finished game is worth for X (normal play, or misère,
// where a line loses), which symmetries map legal play onto legal play, and
// whether a board can arise in play, with the reason when it cannot.
// Enumerate, solve, verify and export ask the Rules; a new variant is a new
// Placement or Goal, each a small type.
package rules

import (
	"fmt"
	"math"
	"math/bits"
	"strings"
	"sync"

	"github.com/tateti-lab/tateti-lab/game"
)

// Spec is a board and its rule switches: what the "game" object of every JSON
// output and of the exported metadata holds.
type Spec struct {
	game.Spec
	Gravity bool `json:"gravity"` // a mark drops to the lowest empty cell of its column
	Misere  bool `json:"misere"`  // whoever completes k in a row loses
}

// Switches names the rule switches that are on: "gravity", "misère", both, or
// "" for free placement and normal play.
func (s Spec) Switches() string {
	var on []string
	if s.Gravity {
		on = append(on, "gravity")
	}
	if s.Misere {
		on = append(on, "misère")
	}
	return strings.Join(on, ", ")
}

// String gives the spec as "3x3 k=3", followed by the switches that are on.
func (s Spec) String() string {
	if sw := s.Switches(); sw != "" {
		return s.Spec.String() + " " + strings.ReplaceAll(sw, ", ", " ")
	}
	return s.Spec.String()
}

// Words says the game in a headline: "4x4 board, 4 in a row, gravity, X first".
func (s Spec) Words() string {
	out := fmt.Sprintf("%dx%d board, %d in a row", s.Rows, s.Cols, s.K)
	if sw := s.Switches(); sw != "" {
		out += ", " + sw
	}
	return out + ", X first"
}

// Rules are one variant's rules over game.Board. Implementations are safe for
// concurrent use.
type Rules interface {
	// Spec gives the board and the switches.
	Spec() Spec
	// Game gives the board's lines and status (who has a line).
	Game() *game.Game
	// Moves gives the cells the side to move may play on b; none once the
	// game is over.
	Moves(b game.Board) game.Mask
	// Turn gives the status of b and its Moves: for a walk that keeps both,
	// the status found once.
	Turn(b game.Board) (game.Status, game.Mask)
	// Playable gives the cells the side to move may play on b, a board whose
	// game is known not to be over: Moves without finding that out again.
	Playable(b game.Board) game.Mask
	// ParentCells gives the cells of the moves b can come from: the last
	// mover's marks whose removal (b.Without) leaves a board from which that
	// mark is a legal move, so a finished board is no one's parent, and
	// under gravity none with a mark floating (a mark taken from below
	// another).
	ParentCells(b game.Board) game.Mask
	// Paths gives the number of move sequences from the empty board that
	// reach b, a board that can arise, when it follows from b alone: under
	// a placement where any order goes, a board without a line is reached
	// by every order of its marks, x!·o! of them. Otherwise ok is false, and
	// the sequences are counted through b's parents.
	Paths(b game.Board) (n int64, ok bool)
	// Winner gives who wins a finished game of status st: the side with
	// the line, or under misère the other; game.Empty for a draw.
	Winner(st game.Status) game.Cell
	// Outcome says whether play on b is over and, if so, who won it, as
	// Winner.
	Outcome(b game.Board) (over bool, winner game.Cell)
	// Symmetries lists the cell permutations that map legal play onto legal
	// play, the identity first.
	Symmetries() [][]int
	// Canonical gives the smallest state id over the symmetries of the board
	// with state id id, and how many distinct boards they make of it. Boards
	// past game.MaxIDCells cells have no state ids: it must not be called.
	Canonical(id uint64) (canon uint64, orbit int)
	// Reachability tells whether b can arise in a game played by the rules,
	// and if not, why.
	Reachability(b game.Board) Reason
}

// New gives the rules of s, whose board must be a validated game.Spec.
// A Rules is immutable, so the rules of equal specs are built once and
// shared (built): building them, their lines and symmetries' tables, takes
// longer than answering a position, and callers ask per position.
func New(s Spec) Rules {
	if r, ok := built.Load(s); ok {
		return r.(Rules)
	}
	r, _ := built.LoadOrStore(s, build(s))
	return r.(Rules)
}

// built holds the Rules New built, one a Spec.
var built sync.Map

// build builds the rules of s.
func build(s Spec) Rules {
	g := game.New(s.Spec)
	v := &variant{spec: s, game: g, place: Free(g), goal: Normal{}}
	if s.Gravity {
		v.place = Gravity(g)
	}
	if s.Misere {
		v.goal = Misere{}
	}
	v.perms = v.place.Symmetries()
	if s.HasIDs() {
		v.syms = game.NewSymTable(s.Spec, v.perms)
	}
	return v
}

// factorial holds n! up to 20!, the largest that fits an int64.
var factorial = func() (f [21]int64) {
	f[0] = 1
	for n := 1; n < len(f); n++ {
		f[n] = int64(n) * f[n-1]
	}
	return f
}()

// variant is the Rules made of one Placement and one Goal.
type variant struct {
	spec  Spec
	game  *game.Game
	place Placement
	goal  Goal
	perms [][]int
	syms  *game.SymTable // nil past game.MaxIDCells: no state ids
}

func (v *variant) Spec() Spec       { return v.spec }
func (v *variant) Game() *game.Game { return v.game }

func (v *variant) Moves(b game.Board) game.Mask {
	_, m := v.Turn(b)
	return m
}

func (v *variant) Turn(b game.Board) (game.Status, game.Mask) {
	st := v.game.Status(b)
	if st.Terminal() {
		return st, 0
	}
	return st, v.Playable(b)
}

func (v *variant) Playable(b game.Board) game.Mask { return v.place.Playable(b) }

func (v *variant) Paths(b game.Board) (int64, bool) {
	if !v.place.AnyOrder() || v.game.Won(b.X) || v.game.Won(b.O) {
		return 0, false
	}
	x, o := bits.OnesCount64(uint64(b.X)), bits.OnesCount64(uint64(b.O))
	if x >= len(factorial) || o >= len(factorial) {
		return 0, false
	}
	hi, n := bits.Mul64(uint64(factorial[x]), uint64(factorial[o]))
	if hi != 0 || n > math.MaxInt64 { // past 25 cells
		return 0, false
	}
	return int64(n), true
}

func (v *variant) ParentCells(b game.Board) game.Mask {
	mine := b.O
	if b.ToMove() == game.O {
		mine = b.X
	}
	// Without a line on b there is none on a board before it, so such a
	// board is not finished and its legal cells are the placement's: no
	// status to compute for each parent.
	unfinished := !v.game.Won(b.X) && !v.game.Won(b.O)
	var cells game.Mask
	for m := uint64(mine); m != 0; m &= m - 1 {
		c := bits.TrailingZeros64(m)
		parent := b.Without(c)
		var legal game.Mask
		if unfinished {
			legal = v.Playable(parent)
		} else {
			legal = v.Moves(parent)
		}
		if legal>>c&1 != 0 && v.place.Floating(parent) == 0 {
			cells |= 1 << c
		}
	}
	return cells
}

func (v *variant) Winner(st game.Status) game.Cell { return v.goal.Winner(st) }

func (v *variant) Outcome(b game.Board) (bool, game.Cell) {
	st := v.game.Status(b)
	return st.Terminal(), v.goal.Winner(st)
}

func (v *variant) Symmetries() [][]int { return v.perms }

func (v *variant) Canonical(id uint64) (uint64, int) { return v.syms.Canonical(id) }

// Classic builds the rules of plain m,n,k play on s: free placement, and k in
// a row wins.
func Classic(s game.Spec) Rules { return New(Spec{Spec: s}) }
