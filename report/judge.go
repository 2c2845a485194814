package report

import (
	"fmt"
	"io"

	"github.com/tateti-lab/tateti-lab/internal/figure"
	"github.com/tateti-lab/tateti-lab/judge"
)

// Judge writes a judged run as an online judge reports it, with the first
// wrong case drawn.
func Judge(w io.Writer, v *judge.Verdict, limits judge.Limits) {
	r := v.Run
	fmt.Fprintf(w, "%s, %s cases: %s\n", r.Problem, figure.Commas(int64(r.Cases)), r.Verdict)
	switch r.Verdict {
	case judge.Accepted:
		fmt.Fprintf(w, "every answer right, in %.2f s\n", r.Time.Seconds())
	case judge.TimeLimitExceeded:
		fmt.Fprintf(w, "the program ran past the time limit of %v\n", limits.Time)
	case judge.MemoryLimitExceeded:
		fmt.Fprintf(w, "the program used more than the memory limit of %d MiB (set --memory for more)\n", limits.Memory>>20)
	case judge.OutputLimitExceeded:
		fmt.Fprintf(w, "the program %s, and was stopped\n", r.Exit)
	case judge.RuntimeError:
		fmt.Fprintf(w, "the program %s\n", r.Ending())
		if r.Stderr != "" {
			fmt.Fprintf(w, "the end of its stderr:\n%s\n", r.Stderr)
		}
	case judge.PresentationError:
		fmt.Fprintf(w, "the answers are right but the white space differs; the first such line, case %d: %q, want %q\n", r.First.Case, r.First.Got, r.First.Expected)
	default:
		fmt.Fprintf(w, "%s cases right before the first wrong one, case %d:\n", figure.Commas(int64(r.Correct)), r.First.Case)
		if r.First.Board != "" {
			drawBoard(w, r.First.Board, "expected "+r.First.Expected, fmt.Sprintf("got      %q", r.First.Got))
		} else {
			fmt.Fprintf(w, "    a line too many: %q\n", r.First.Got)
		}
	}
	fmt.Fprintf(w, "the right answers by %s\n", v.Answered)
}
