package external

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/extproc"
	"github.com/tateti-lab/tateti-lab/internal/protocol"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
	"github.com/tateti-lab/tateti-lab/verify"
)

// Check says what of a solver's answer is compared: the value always, the
// depth and the best moves when asked.
type Check struct {
	Depth, Best bool
}

// ParseCheck reads a comma-separated list of value, depth and best; value
// must be among them.
func ParseCheck(text string) (Check, error) {
	var c Check
	parts := strings.Split(text, ",")
	if !slices.Contains(parts, "value") {
		return c, fmt.Errorf("%q does not name value, want value, value,depth, value,best or value,depth,best", game.Echo(text))
	}
	for _, p := range parts {
		switch p {
		case "value":
		case "depth":
			c.Depth = true
		case "best":
			c.Best = true
		default:
			return c, fmt.Errorf("%q names %q, want value, depth and best", game.Echo(text), game.Echo(p))
		}
	}
	return c, nil
}

// String lists what is checked, as ParseCheck reads it.
func (c Check) String() string {
	s := "value"
	if c.Depth {
		s += ",depth"
	}
	if c.Best {
		s += ",best"
	}
	return s
}

// Solver describes a user's solver program and the spelling of its
// requests and answers (the solver protocol): a request is a board, as for a
// checker; the answer is the value token, then the depth where it is
// checked, then the best moves where they are checked, separated by spaces;
// further fields are ignored.
type Solver struct {
	protocol.Program
	Values [3]string // the tokens for X wins, draw, O wins
	Check  Check
	Moves  protocol.MoveFormat // how best moves are written
}

// Answer is a solver's answer, or the right one.
type Answer struct {
	Value perfect.Value  `json:"value"`
	Depth *perfect.Depth `json:"depth,omitempty"`
	Best  []string       `json:"best,omitempty"` // in the program's move format
}

// SolverDisagreement is a position the program answered wrong, with a line
// of perfect play from it.
type SolverDisagreement struct {
	Board    string   `json:"board"`
	StateID  *uint64  `json:"state_id"` // null past 40 cells
	Ply      int      `json:"ply"`
	Expected Answer   `json:"expected"`
	Got      Answer   `json:"got"`
	BestLine []string `json:"best_line"` // moves to the end with perfect play
}

// PlyAgreement counts the answers of one ply.
type PlyAgreement struct {
	Ply       int   `json:"ply"`
	Positions int64 `json:"positions"`
	Agree     int64 `json:"agree"`
	Disagree  int64 `json:"disagree"`
}

// SolverReport compares a solver program's answers with perfect play.
type SolverReport struct {
	Program   string               `json:"program"`
	Check     string               `json:"check"`
	Positions int64                `json:"positions"`
	Agree     int64                `json:"agree"`
	Disagree  int64                `json:"disagree"`
	ByPly     []PlyAgreement       `json:"by_ply"`
	First     []SolverDisagreement `json:"first_disagreements"`
}

// Run sends the positions of set, of rl's game, in order, to the program
// and compares its answers with set's. A failure of the program is an
// *extproc.ProgramError; when ctx is cancelled Run gives ctx's error.
func (x *Solver) Run(ctx context.Context, rl rules.Rules, set solve.Set) (*SolverReport, error) {
	rs := rl.Spec()
	rep := &SolverReport{Program: strings.Join(x.Argv, " "), Check: x.Check.String(), Positions: int64(set.Len()), First: []SolverDisagreement{}}
	byPly := make([]PlyAgreement, rs.Cells()+1)
	values := map[string]perfect.Value{x.Values[0]: perfect.XWins, x.Values[1]: perfect.Draw, x.Values[2]: perfect.OWins}
	var buf []perfect.Move
	err := extproc.Exchange(ctx, x.Config(rs), "solver", set.Len(),
		func(dst []byte, k int) []byte { return x.Cells.AppendLine(dst, rs.Spec, set.Board(k)) },
		func(k int, text string) error {
			b := set.Board(k)
			got, err := x.parse(rl, b, text, values)
			if err != nil {
				return fmt.Errorf("answered %q to request %d: %w", game.Echo(text), k+1, err)
			}
			p := &byPly[b.Ply()]
			p.Positions++
			var want Answer
			if want, buf = x.expected(rs.Spec, set, k, buf); x.same(want, got) {
				p.Agree++
				rep.Agree++
			} else {
				p.Disagree++
				rep.Disagree++
				rep.First = verify.Keep(rep.First, x.disagreement(rs.Spec, set, k, want, got))
			}
			return nil
		})
	if err != nil {
		return nil, err
	}
	for ply, p := range byPly {
		if p.Positions > 0 {
			p.Ply = ply
			rep.ByPly = append(rep.ByPly, p)
		}
	}
	return rep, nil
}

// parse reads an answer to the position b.
func (x *Solver) parse(rl rules.Rules, b game.Board, text string, values map[string]perfect.Value) (Answer, error) {
	f := strings.Fields(text)
	var a Answer
	if len(f) == 0 {
		return a, fmt.Errorf("want a value, one of %s", strings.Join(x.Values[:], ", "))
	}
	v, ok := values[f[0]]
	if !ok {
		return a, fmt.Errorf("the value %q is not one of %s", game.Echo(f[0]), strings.Join(x.Values[:], ", "))
	}
	a.Value, f = v, f[1:]
	if x.Check.Depth {
		if len(f) == 0 {
			return a, fmt.Errorf("no depth after the value")
		}
		d, err := strconv.ParseInt(f[0], 10, 8)
		if err != nil || d < 0 {
			return a, fmt.Errorf("the depth %q is not a count of plies", game.Echo(f[0]))
		}
		depth := perfect.Depth(d)
		a.Depth, f = &depth, f[1:]
	}
	if x.Check.Best {
		var cells []int
		for _, tok := range f {
			c, err := x.Moves.Parse(rl, b, tok)
			if err != nil {
				return a, fmt.Errorf("best move: %w", err)
			}
			cells = append(cells, c)
		}
		slices.Sort(cells)
		a.Best = x.format(rl.Spec().Spec, slices.Compact(cells))
	}
	return a, nil
}

// expected gives the right answer for position k of set, with what is
// checked (reusing buf).
func (x *Solver) expected(s game.Spec, set solve.Set, k int, buf []perfect.Move) (Answer, []perfect.Move) {
	v, d, ms := set.Play(k, buf)
	a := Answer{Value: v}
	if x.Check.Depth {
		a.Depth = &d
	}
	if x.Check.Best {
		var cells []int
		for _, m := range ms {
			if m.Best {
				cells = append(cells, m.Cell)
			}
		}
		a.Best = x.format(s, cells)
	}
	return a, ms
}

func (x *Solver) format(s game.Spec, cells []int) []string {
	out := []string{}
	for _, c := range cells {
		out = append(out, x.Moves.Format(s, c))
	}
	return out
}

func (x *Solver) same(a, b Answer) bool {
	return a.Value == b.Value && (!x.Check.Depth || *a.Depth == *b.Depth) && (!x.Check.Best || slices.Equal(a.Best, b.Best))
}

func (x *Solver) disagreement(s game.Spec, set solve.Set, k int, want, got Answer) SolverDisagreement {
	b := set.Board(k)
	d := SolverDisagreement{Board: s.Format(b), Ply: b.Ply(), Expected: want, Got: got, BestLine: x.format(s, set.BestLine(k))}
	if s.HasIDs() {
		id := game.ID(b)
		d.StateID = &id
	}
	return d
}
