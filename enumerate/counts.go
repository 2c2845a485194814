package enumerate

import (
	"context"
	"fmt"
	"math"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

// addStatus adds n to c's count of status s, through sum.
func addStatus(c *perfect.ByStatus, s game.Status, n int64, sum *checkedSum) {
	if at := c.Of(s); at != nil {
		sum.add(at, n)
	}
}

// checkedSum adds non-negative counts and remembers whether a sum ever went
// past int64. One position's paths fit (at most x!·o! orders of its marks,
// under 3·10^18 on 25 cells); the totals over a board may not.
type checkedSum struct{ over bool }

func (s *checkedSum) add(a *int64, n int64) {
	if *a > math.MaxInt64-n {
		s.over = true
	}
	*a += n
}

// Games counts complete games (move sequences that end the game) by winner.
type Games struct {
	perfect.ByStatus
	Total int64 `json:"total"`
}

// PlyCounts are the counts of one ply.
type PlyCounts struct {
	Ply             int              `json:"ply"`
	Positions       int64            `json:"positions"`
	Terminal        int64            `json:"terminal"`
	TerminalBy      perfect.ByStatus `json:"terminal_by_status"`
	Classes         int64            `json:"classes"`
	TerminalClasses int64            `json:"terminal_classes"`
	// classes of positions in progress that are quiet (rules.Quiet): the
	// side to move can neither win at once nor must stop a line at once
	QuietClasses int64 `json:"quiet_classes"`
	Paths        int64 `json:"sequences"`
}

// Counts are the figures of an enumeration: positions, terminal positions,
// classes up to symmetry, complete games and move sequences, in total and by ply.
type Counts struct {
	Game            rules.Spec       `json:"game"`
	Positions       int64            `json:"positions"`
	Terminal        perfect.ByStatus `json:"terminal"`
	Classes         int64            `json:"classes"`
	TerminalClasses int64            `json:"terminal_classes"`
	QuietClasses    int64            `json:"quiet_classes"`
	Games           Games            `json:"games"`
	Paths           int64            `json:"sequences"`
	MaxPaths        int64            `json:"max_paths"` // the most move sequences into one position
	ByPly           []PlyCounts      `json:"by_ply"`
	// MaxPly is set when only the first plies were counted (Shallow): the
	// totals, complete games among them, are those of plies 0 to MaxPly.
	MaxPly *int `json:"max_ply,omitempty"`
}

// Count computes the figures of r. A class is counted at its smallest member
// in r (see firstOfClass). It fails, rather than print a wrapped number, when
// a count of move sequences does not fit in 64 bits.
func (r *Result) Count() (Counts, error) {
	c := Counts{Game: r.Rules.Spec()}
	var sum checkedSum
	for p := range len(r.Start) - 1 {
		lo, hi := r.Layer(p)
		if lo == hi {
			continue
		}
		pc := PlyCounts{Ply: p, Positions: int64(hi - lo)}
		first := r.firstOfClass(lo, hi)
		for i := lo; i < hi; i++ {
			class, s := first(i), r.Status[i]
			quiet := class && !s.Terminal() && rules.Quiet(r.Rules, r.Board(i))
			c.tally(&pc, s, r.Paths[i], class, quiet, &sum)
		}
		c.addPly(pc, &sum)
	}
	return c, c.finish(&sum)
}

// tally counts one position into its ply's counts pc and the totals: of
// status s, reached by paths move sequences; class says it is the one of
// its class that counts, quiet that it is that and quiet.
func (c *Counts) tally(pc *PlyCounts, s game.Status, paths int64, class, quiet bool, sum *checkedSum) {
	if class {
		pc.Classes++
	}
	if quiet {
		pc.QuietClasses++
	}
	sum.add(&pc.Paths, paths)
	c.MaxPaths = max(c.MaxPaths, paths)
	if s.Terminal() {
		pc.Terminal++
		addStatus(&pc.TerminalBy, s, 1, sum)
		addStatus(&c.Terminal, s, 1, sum)
		addStatus(&c.Games.ByStatus, s, paths, sum)
		if class {
			pc.TerminalClasses++
		}
	}
}

// addPly adds a ply's counts to the totals.
func (c *Counts) addPly(pc PlyCounts, sum *checkedSum) {
	c.Positions += pc.Positions
	c.Classes += pc.Classes
	c.TerminalClasses += pc.TerminalClasses
	c.QuietClasses += pc.QuietClasses
	sum.add(&c.Paths, pc.Paths)
	c.ByPly = append(c.ByPly, pc)
}

// finish totals the complete games, and fails, rather than give a wrapped
// number, when a count of move sequences went past 64 bits.
func (c *Counts) finish(sum *checkedSum) error {
	g := c.Games.ByStatus
	c.Games.Total = 0
	sum.add(&c.Games.Total, g.XWon)
	sum.add(&c.Games.Total, g.OWon)
	sum.add(&c.Games.Total, g.Draw)
	if sum.over {
		return fmt.Errorf("move sequences on %s number more than 2^63; the tool counts them in 64 bits and cannot give them", c.Game.Words())
	}
	return nil
}

// firstOfClass gives a test of whether position i of the layer [lo, hi) is
// the smallest member of its symmetry class in r. From the empty board the
// images of a reachable position are reachable (the rules' symmetries map
// legal play onto legal play), so that member is the canonical one. From
// another root the images need not be in r, so the first position of each
// canonical id, in id order, counts.
func (r *Result) firstOfClass(lo, hi int) func(i int) bool {
	if r.Root == (game.Board{}) {
		return func(i int) bool { return r.Canon[i] == r.IDs[i] }
	}
	seen := map[uint64]bool{}
	first := make([]bool, hi-lo)
	for i := lo; i < hi; i++ {
		first[i-lo] = !seen[r.Canon[i]]
		seen[r.Canon[i]] = true
	}
	return func(i int) bool { return first[i-lo] }
}

// CountGame enumerates every position of rl's game from the empty board,
// with up to workers goroutines, and counts it.
func CountGame(ctx context.Context, rl rules.Rules, workers int) (Counts, error) {
	r, err := Game(ctx, rl, workers)
	if err != nil {
		return Counts{}, err
	}
	return r.Count()
}
