package report

import (
	"fmt"
	"io"

	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/plan"
	"github.com/tateti-lab/tateti-lab/solve"
	"github.com/tateti-lab/tateti-lab/tier"
)

// Summary writes a solved game as solve prints it: the value of the start,
// positions by value and ply, and X's first move in each cell.
func Summary(w io.Writer, s solve.Summary, st Style) error {
	g := s.Game
	fmt.Fprintf(w, "%s: %s with perfect play\n", g.Words(), st.paint(result(game.X, s.Value), OutcomeIn(s.Value, s.Depth)))
	if s.Engine != "" {
		fmt.Fprintf(w, "answered by %s (%s)\n", s.Engine, s.Why)
	}
	fmt.Fprintln(w)
	t := newTable(w)
	fmt.Fprintln(t, "ply\tX wins\tdraw\tO wins\t")
	for _, p := range s.ByPly {
		fmt.Fprintf(t, "%d\t%s\t%s\t%s\t\n", p.Ply, Commas(p.XWins), Commas(p.Draw), Commas(p.OWins))
	}
	v := s.PositionsByValue
	fmt.Fprintf(t, "total\t%s\t%s\t%s\t\n", Commas(v.XWins), Commas(v.Draw), Commas(v.OWins))
	if err := t.Flush(); err != nil {
		return err
	}
	if err := toMove(w, s.ToMove); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nopenings: X's first move in each cell\n")
	DrawMoves(w, g, game.Board{}, game.X, Moves(game.X, s.Openings), st)
	return nil
}

// Plan writes, when the whole game is solved tier by tier, why and what
// that needs; nothing otherwise.
func Plan(w io.Writer, p plan.Plan) {
	if p.Engine == plan.Tiers {
		fmt.Fprintf(w, "tateti-lab: %s\n", p.Why)
		TierPlan(w, p.Tiers, "a temporary folder (db build DIR keeps the database)")
	}
}

// toMove writes each ply's positions by value for the side to move, when
// the summary has them.
func toMove(w io.Writer, plies []solve.PlyToMove) error {
	if len(plies) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\nfor the side to move\n")
	t := newTable(w)
	fmt.Fprintln(t, "ply\twon\tdrawn\tlost\t")
	for _, p := range plies {
		fmt.Fprintf(t, "%d\t%s\t%s\t%s\t\n", p.Ply, Commas(p.Won), Commas(p.Drawn), Commas(p.Lost))
	}
	return t.Flush()
}

// TierPlan writes what a tier solve will need, before it starts.
func TierPlan(w io.Writer, e tier.Estimate, dir string) {
	fmt.Fprintf(w, "tateti-lab: solving tier by tier into %s: %s\n", dir, TierNeeds(e))
}

// TierNeeds says in a sentence what a tier solve needs: its placements and
// tasks, memory, disk, and time here and on a cluster.
func TierNeeds(e tier.Estimate) string {
	return fmt.Sprintf("%s placements (%s layout) in %s tasks, up to %s of memory and %s of disk, about %s at this build machine's rate (%s for one worker: a cluster's work)",
		Commas(e.Placements), e.Layout, Commas(e.Tasks), enumerate.Bytes(e.Memory), enumerate.Bytes(e.Disk), about(e.Seconds), about(e.WorkerSeconds))
}

// BeamNeeds says in a sentence what the tier solve needs as the Beam
// pipeline runs it (beam/): its placements and tasks, what a task holds
// (its own block of codes and bits, and as many of the next ply's as its
// children fall in; the step that writes a tier file holds one part), the
// disk, and one worker's time.
func BeamNeeds(e tier.Estimate) string {
	block := uint64(tier.TaskPlacements) + tier.TaskPlacements/8
	return fmt.Sprintf("%s placements (%s layout) in %s tasks; a task holds up to %s for its own block and as much again for each block of the next ply its children fall in (a few under gravity); up to %s of disk; about %s of one worker's work at this build machine's rate",
		Commas(e.Placements), e.Layout, Commas(e.Tasks), enumerate.Bytes(block), enumerate.Bytes(e.Disk), about(e.WorkerSeconds))
}

// ReachPlan says, on w, what the forward pass of a tier solve into dir
// will need.
func ReachPlan(w io.Writer, e tier.Estimate, dir string) {
	fmt.Fprintf(w, "tateti-lab: marking the reachable placements ply by ply into %s: %s\n", dir, ReachNeeds(e))
}

// ReachNeeds says in a sentence what the forward pass of a tier solve
// needs: its placements, memory and disk.
func ReachNeeds(e tier.Estimate) string {
	return fmt.Sprintf("%s placements (%s layout), a bit each, up to %s of memory and %s of disk", Commas(e.Placements), e.Layout, enumerate.Bytes(e.ReachMemory), enumerate.Bytes(e.ReachDisk))
}

// about gives a time in round words: "2 s", "14 min", "3.5 h".
func about(seconds float64) string {
	switch {
	case seconds < 90:
		return fmt.Sprintf("%.0f s", max(seconds, 1))
	case seconds < 90*60:
		return fmt.Sprintf("%.0f min", seconds/60)
	}
	return fmt.Sprintf("%.1f h", seconds/3600)
}
