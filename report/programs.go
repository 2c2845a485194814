package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/tateti-lab/tateti-lab/external"
	"github.com/tateti-lab/tateti-lab/internal/figure"
)

// Checker writes the verdict on a checker program: how many reachable boards
// it answered right and wrong, the first wrong ones drawn.
func Checker(w io.Writer, v *external.CheckerResult) {
	s, r := v.Game, v.External
	reachable := r.Agree + r.Disagree
	fmt.Fprintf(w, "checker program %q on %s boards (%s)\n", r.Program, figure.Commas(r.Boards), s.Words())
	fmt.Fprintf(w, "  reachable boards: %s agree, %s disagree\n", figure.Commas(r.Agree), figure.Commas(r.Disagree))
	if r.Disagree > 0 {
		fmt.Fprintln(w, "the first disagreements:")
		printDisagreements(w, []string{"expected", "got"}, r.First)
	}
	if r.UnreachableBoards > 0 {
		fmt.Fprintf(w, "  boards that cannot arise: %s, answered differently on %s (a finding, not a failure)\n", figure.Commas(r.UnreachableBoards), figure.Commas(r.UnreachableDiffer))
		if len(r.FirstUnreachable) > 0 {
			printDisagreements(w, []string{"bitmask", "got"}, r.FirstUnreachable)
		}
	}
	if r.Disagree == 0 {
		fmt.Fprintf(w, "ok: the program agrees on all %s reachable boards\n", figure.Commas(reachable))
	} else {
		fmt.Fprintf(w, "FAILED: the program disagrees on %s of %s reachable boards\n", figure.Commas(r.Disagree), figure.Commas(reachable))
	}
}

// Solver writes the verdict on a solver program, by ply, with the first
// disagreements drawn beside a line of perfect play.
func Solver(w io.Writer, v *external.SolverResult) {
	s, r := v.Game, v.Solver
	fmt.Fprintf(w, "solver program %q on %s positions (%s), checking %s\n", r.Program, figure.Commas(r.Positions), s.Words(), r.Check)
	fmt.Fprintf(w, "the right answers by %s\n\n", v.Answered)
	t := newTable(w)
	fmt.Fprintln(t, "ply\tpositions\tagree\tdisagree\t")
	for _, p := range r.ByPly {
		fmt.Fprintf(t, "%d\t%s\t%s\t%s\t\n", p.Ply, figure.Commas(p.Positions), figure.Commas(p.Agree), figure.Commas(p.Disagree))
	}
	fmt.Fprintf(t, "total\t%s\t%s\t%s\t\n", figure.Commas(r.Positions), figure.Commas(r.Agree), figure.Commas(r.Disagree))
	t.Flush()
	if r.Disagree > 0 {
		fmt.Fprintln(w, "\nthe first disagreements:")
		for _, d := range r.First {
			drawBoard(w, d.Board, fmt.Sprintf("%s (%sply %d)", d.Board, stateWords(d.StateID), d.Ply),
				"expected "+answerWords(d.Expected), "got      "+answerWords(d.Got),
				"a line of perfect play: "+strings.Join(d.BestLine, " "))
		}
		fmt.Fprintf(w, "FAILED: the program disagrees on %s of %s positions\n", figure.Commas(r.Disagree), figure.Commas(r.Positions))
		return
	}
	fmt.Fprintf(w, "\nok: the program agrees on all %s positions\n", figure.Commas(r.Positions))
}

// answerWords says a solver's answer: "value 1, depth 3, best 2 5".
func answerWords(a external.Answer) string {
	s := fmt.Sprintf("value %d", a.Value)
	if a.Depth != nil {
		s += fmt.Sprintf(", depth %d", *a.Depth)
	}
	if a.Best != nil {
		s += ", best " + strings.Join(a.Best, " ")
	}
	return s
}

// stateWords names a state id, followed by a comma, where there is one.
func stateWords(id *uint64) string {
	if id == nil {
		return ""
	}
	return fmt.Sprintf("state %d, ", *id)
}
