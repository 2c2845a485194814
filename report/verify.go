package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/tateti-lab/tateti-lab/internal/figure"
	"github.com/tateti-lab/tateti-lab/verify"
)

// Verify writes the proofs of a game as verify prints them: the voices on
// every position, the solver's cross-checks, the raw boards, the verdict.
func Verify(w io.Writer, v *verify.Report) error {
	s := v.Game
	p := v.Positions
	fmt.Fprintf(w, "%s: %s reachable positions\n\n", s.Words(), figure.Commas(p.Boards))
	fmt.Fprintln(w, "checkers on every reachable position (bitmask is the reference):")
	printTallies(w, p)
	if p.Disagree == 0 {
		fmt.Fprintf(w, "all %d voices agree on all %s positions\n", len(p.Voices), figure.Commas(p.Boards))
	} else {
		fmt.Fprintf(w, "DISAGREE: the voices differ on %s positions; the first:\n", figure.Commas(p.Disagree))
		printDisagreements(w, p.Voices, p.First)
	}

	rec, nv := v.Solver.Recurrence, v.Solver.Naive
	fmt.Fprintln(w, "\nsolver:")
	fmt.Fprintf(w, "  minimax recurrence holds on %s of %s positions\n", figure.Commas(rec.Hold), figure.Commas(rec.Positions))
	for _, f := range rec.First {
		fmt.Fprintf(w, "    FAIL %s\n", f)
	}
	if nv.Ran {
		fmt.Fprintf(w, "  naive solver (plain recursion, no memo) agrees on %s of %s positions, visiting %s move sequences\n",
			figure.Commas(nv.Agree), figure.Commas(nv.Positions), figure.Commas(nv.Nodes))
		for _, f := range nv.First {
			fmt.Fprintf(w, "    DISAGREE %s\n", f)
		}
	} else {
		fmt.Fprintf(w, "  naive solver not run: %s\n", nv.Why)
	}

	if r := v.AllBoards; r != nil {
		printRaw(w, r)
	}
	if v.OK {
		fmt.Fprintln(w, "\nok: every check agrees")
	} else {
		fmt.Fprintln(w, "\nFAILED: a check found a disagreement")
	}
	return nil
}
func printTallies(w io.Writer, r *verify.CheckReport) {
	t := newTable(w)
	fmt.Fprintln(t, "  voice\tx_won\to_won\tdraw\tin_progress\tagree\tdisagree\t")
	for _, tl := range r.Tallies {
		fmt.Fprintf(t, "  %s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", tl.Voice, figure.Commas(tl.XWon), figure.Commas(tl.OWon), figure.Commas(tl.Draw), figure.Commas(tl.Open), figure.Commas(tl.Agree), figure.Commas(tl.Disagree))
	}
	t.Flush()
}
func printRaw(w io.Writer, r *verify.RawReport) {
	fmt.Fprintf(w, "\nall %s raw boards, by whether they can arise:\n", figure.Commas(r.Boards))
	t := newTable(w)
	for _, rc := range r.ByReason {
		fmt.Fprintf(t, "  %s\t%s\t\n", rc.Reason, figure.Commas(rc.Boards))
	}
	t.Flush()
	if r.Mismatches == 0 {
		fmt.Fprintln(w, "the reachability test agrees with the enumeration on every board")
	} else {
		fmt.Fprintf(w, "DISAGREE: the reachability test and the enumeration differ on %s boards: %s\n", figure.Commas(r.Mismatches), strings.Join(r.FirstMismatch, "; "))
	}
	if r.Reachable.Disagree == 0 {
		fmt.Fprintf(w, "all voices agree on all %s reachable boards\n", figure.Commas(r.Reachable.Boards))
	} else {
		fmt.Fprintf(w, "DISAGREE: the voices differ on %s reachable boards; the first:\n", figure.Commas(r.Reachable.Disagree))
		printDisagreements(w, r.Reachable.Voices, r.Reachable.First)
	}
	u := r.Unreachable
	fmt.Fprintf(w, "on the %s boards that cannot arise the voices agree on %s and differ on %s (a finding, not a failure):\n",
		figure.Commas(u.Boards), figure.Commas(u.Agree), figure.Commas(u.Disagree))
	t = newTable(w)
	fmt.Fprintf(t, "  reason\t%s\tboards\tfirst board\t\n", strings.Join(u.Voices, "\t"))
	for _, p := range r.Patterns {
		fmt.Fprintf(t, "  %s\t%s\t%s\t%s\t\n", p.Reason, strings.Join(p.Statuses, "\t"), figure.Commas(p.Boards), p.Example)
	}
	t.Flush()
}

// printDisagreements draws each board with every voice's answer beside it.
func printDisagreements(w io.Writer, voices []string, ds []verify.Disagreement) {
	for _, d := range ds {
		var parts []string
		for v, st := range d.Statuses {
			parts = append(parts, voices[v]+" "+st)
		}
		drawBoard(w, d.Board, fmt.Sprintf("%s (state %d)", d.Board, d.StateID), strings.Join(parts, ", "))
	}
}
