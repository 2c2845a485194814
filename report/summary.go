package report

import (
	"fmt"
	"io"
	"math"

	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/figure"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/tier"
	"github.com/tateti-lab/tateti-lab/view"
)

// Summary writes a solved game as solve prints it: the value of the start,
// positions by value and ply, and X's first move in each cell.
func Summary(w io.Writer, s perfect.Summary, st Style) error {
	g := s.Game
	outcome := OutcomeBy(s.Value, int(s.Depth))
	if s.ValuesOnly {
		outcome = Outcome(s.Value)
	}
	fmt.Fprintf(w, "%s: %s with perfect play\n", g.Words(), st.paint(view.Result(game.X, s.Value), outcome))
	if s.Engine != "" {
		fmt.Fprintf(w, "answered by %s (%s)\n", s.Engine, s.Why)
	}
	if s.MaxPly != nil {
		fmt.Fprintf(w, "an opening book: every position of plies 0 to %d, those of ply %d valued by search\n", *s.MaxPly, *s.MaxPly)
	}
	fmt.Fprintln(w)
	t := newTable(w)
	fmt.Fprintln(t, "ply\tX wins\tdraw\tO wins\t")
	for _, p := range s.ByPly {
		fmt.Fprintf(t, "%d\t%s\t%s\t%s\t\n", p.Ply, figure.Commas(p.XWins), figure.Commas(p.Draw), figure.Commas(p.OWins))
	}
	v := s.PositionsByValue
	fmt.Fprintf(t, "total\t%s\t%s\t%s\t\n", figure.Commas(v.XWins), figure.Commas(v.Draw), figure.Commas(v.OWins))
	if err := t.Flush(); err != nil {
		return err
	}
	if err := toMove(w, s.ToMove); err != nil {
		return err
	}
	if s.NoLine {
		fmt.Fprintln(w, "\nthe boards with no line, not the positions play reaches: db build DIR counts those")
	}
	if s.ValuesOnly {
		fmt.Fprintln(w, "\na win/draw/loss database: values alone; solve --db DIR finds a position's depth by search it guides")
	}
	if len(s.Openings) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\nopenings: X's first move in each %s\n", g.MoveNoun())
	DrawMoves(w, g, game.Board{}, game.X, view.Moves(game.X, s.Openings), st)
	return nil
}

// OnDisk writes, when the whole game is solved tier by tier on disk (e,
// what that needs, not nil), why, and what it needs; nothing otherwise.
func OnDisk(w io.Writer, why string, e *tier.Estimate) {
	if e != nil {
		fmt.Fprintf(w, "tateti-lab: %s\n", why)
		TierPlan(w, *e, "a temporary folder (db build DIR keeps the database)")
	}
}

// toMove writes each ply's positions by value for the side to move, when
// the summary has them.
func toMove(w io.Writer, plies []perfect.PlyToMove) error {
	if len(plies) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\nfor the side to move\n")
	t := newTable(w)
	fmt.Fprintln(t, "ply\twon\tdrawn\tlost\t")
	for _, p := range plies {
		fmt.Fprintf(t, "%d\t%s\t%s\t%s\t\n", p.Ply, figure.Commas(p.Won), figure.Commas(p.Drawn), figure.Commas(p.Lost))
	}
	return t.Flush()
}

// TierPlan writes what a tier solve will need, before it starts.
func TierPlan(w io.Writer, e tier.Estimate, dir string) {
	fmt.Fprintf(w, "tateti-lab: solving tier by tier into %s: %s\n", dir, e.Needs())
}

// ShallowPlan says, on w, what counting the first plies of a game in
// memory will need, at most.
func ShallowPlan(w io.Writer, e enumerate.ShallowEstimate) {
	fmt.Fprintf(w, "tateti-lab: counting plies 0 to %d in memory: up to %s positions, up to %s of memory to make ply %d\n",
		e.MaxPly, figure.Commas(int64(min(e.Positions, math.MaxInt64))), figure.Bytes(e.Bytes), e.Ply)
}

// BuildPlan says, on w, what the build of t will need, unless its
// database is finished: the forward pass alone's, or the whole build's.
func BuildPlan(w io.Writer, t tier.Target) {
	switch {
	case t.Counting:
		fmt.Fprintf(w, "tateti-lab: counting the positions play reaches in %s, the finished database's forward pass: %s\n", t.Dir, t.Estimate.CountNeeds())
	case t.Finished:
	case t.ReachOnly && t.WDL != nil:
		fmt.Fprintf(w, "tateti-lab: marking the reachable boards ply by ply in memory, nothing kept in %s: %s\n", t.Dir, t.Estimate.ReachNeeds())
	case t.ReachOnly:
		fmt.Fprintf(w, "tateti-lab: marking the reachable placements ply by ply into %s: %s\n", t.Dir, t.Estimate.ReachNeeds())
	case t.Why != "": // either kind could be built: which, and why
		kind := "values and depths"
		if t.WDL != nil {
			kind = "the win/draw/loss database"
		}
		fmt.Fprintf(w, "tateti-lab: building %s, %s\n", kind, t.Why)
		TierPlan(w, t.Estimate, t.Dir)
	default:
		TierPlan(w, t.Estimate, t.Dir)
	}
}
