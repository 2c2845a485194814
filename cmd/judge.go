package cmd

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"
	"github.com/tateti-lab/tateti-lab/judge"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
)

func newJudgeCmd(g *globalOptions) *cobra.Command {
	c := &cobra.Command{
		Use:   "judge",
		Short: "Judge a contest program against perfect play, as an online judge does",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return fmt.Errorf("name a problem, such as judge uva10111 'PROGRAM ARGS' (see 'tateti-lab judge --help')")
		},
	}
	c.AddCommand(newUVa10111Cmd(g))
	return c
}

type uvaOptions struct {
	*globalOptions
	cases     int
	seed      uint64
	all       bool
	timeLimit time.Duration
}

func newUVa10111Cmd(g *globalOptions) *cobra.Command {
	opts := &uvaOptions{globalOptions: g}
	c := &cobra.Command{
		Use:   "uva10111 'PROGRAM ARGS'",
		Short: "Judge a solution of UVa 10111, Find the Winning Move (4x4, four in a row)",
		Long: `Judge runs your solution of UVa 10111 once, with every case on its stdin in the
problem's format: a line "?", the four rows of the board (x, o and '.'), and
a line "$" after the last case. The cases are the problem's sample, then
--cases positions chosen at random, reproducibly from --seed, among those the
problem allows (x to move, each side with at least two marks, no line yet,
the board not full), or --all of them. The right answer is the first move in
row-major order after which x wins with perfect play, as (row,col), or #####.

Verdicts, as a judge gives them: Accepted; Wrong Answer, with the first wrong
case drawn and the expected answer; Presentation Error, where only white
space differs; Time Limit Exceeded, past --time-limit; Runtime Error, with
the exit status and the end of stderr. Exit 0 for Accepted, 1 for a wrong or
badly presented answer, 2 when the program misbehaves (time, crash, cannot
start).`,
		Example: "  tateti-lab judge uva10111 'python3 uva10111.py'\n  tateti-lab judge uva10111 ./a.out --cases 1000 --seed 7\n  tateti-lab judge uva10111 ./a.out --all --time-limit 10m --json",
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runUVa10111(c, opts, args[0])
		},
	}
	f := c.Flags()
	f.IntVar(&opts.cases, "cases", 100, "random cases after the sample")
	f.Uint64Var(&opts.seed, "seed", 1, "the seed that chooses the cases")
	f.BoolVar(&opts.all, "all", false, "every position the problem allows, instead of --cases")
	f.DurationVar(&opts.timeLimit, "time-limit", time.Minute, "the time the whole run may take")
	return c
}

type judgeView struct {
	Game rules.Spec    `json:"game"`
	OK   bool          `json:"ok"`
	Run  *judge.Result `json:"judge"`
}

func runUVa10111(c *cobra.Command, opts *uvaOptions, program string) error {
	for _, f := range []string{"size", "k", "gravity", "misere"} {
		if c.Flags().Changed(f) {
			return fmt.Errorf("--%s does not go with judge uva10111: the problem is 4x4, four in a row, free placement", f)
		}
	}
	argv, err := splitArgs("program", program)
	if err != nil {
		return err
	}
	switch {
	case opts.cases < 0:
		return fmt.Errorf("--cases %d is not a count, want 0 or more", opts.cases)
	case opts.all && c.Flags().Changed("cases"):
		return fmt.Errorf("--all and --cases both choose the cases, give one of them")
	case opts.timeLimit <= 0:
		return fmt.Errorf("--time-limit %v is not a time, want more than 0 such as 1m", opts.timeLimit)
	}
	if err := canStart("program", argv); err != nil {
		return err
	}
	sol, err := solve.Game(c.Context(), rules.New(judge.UVa10111), opts.workers)
	if err != nil {
		return err
	}
	n := opts.cases
	if opts.all {
		n = -1
	}
	cases, err := judge.Cases(sol, n, opts.seed)
	if err != nil {
		return err
	}
	res, err := judge.Run(c.Context(), argv, cases, opts.timeLimit)
	if err != nil {
		return err
	}
	v := judgeView{Game: judge.UVa10111, OK: res.Verdict == judge.Accepted, Run: res}
	err = show(c, opts.json, v, true, func(w io.Writer) { printJudge(w, res, opts.timeLimit) })
	switch {
	case err != nil || v.OK:
		return err
	case res.Verdict == judge.TimeLimitExceeded || res.Verdict == judge.RuntimeError:
		return errMisbehaved
	}
	return errDisagree
}

func printJudge(w io.Writer, r *judge.Result, limit time.Duration) {
	fmt.Fprintf(w, "%s, %s cases: %s\n", r.Problem, commas(int64(r.Cases)), r.Verdict)
	switch r.Verdict {
	case judge.Accepted:
		fmt.Fprintf(w, "every answer right, in %.2f s\n", r.Time.Seconds())
	case judge.TimeLimitExceeded:
		fmt.Fprintf(w, "the program ran past the time limit of %v\n", limit)
	case judge.RuntimeError:
		fmt.Fprintf(w, "the program ended with %s\n", r.Exit)
		if r.Stderr != "" {
			fmt.Fprintf(w, "the end of its stderr:\n%s\n", r.Stderr)
		}
	case judge.PresentationError:
		fmt.Fprintf(w, "the answers are right but the white space differs; the first such line, case %d: %q, want %q\n", r.First.Case, r.First.Got, r.First.Expected)
	default:
		fmt.Fprintf(w, "%s cases right before the first wrong one, case %d:\n", commas(int64(r.Correct)), r.First.Case)
		if r.First.Board != "" {
			drawBoard(w, r.First.Board, "expected "+r.First.Expected, fmt.Sprintf("got      %q", r.First.Got))
		} else {
			fmt.Fprintf(w, "    a line too many: %q\n", r.First.Got)
		}
	}
}
