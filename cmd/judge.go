package cmd

import (
	"context"
	"io"
	"time"

	"github.com/spf13/cobra"
	"github.com/tateti-lab/tateti-lab/judge"
	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/plan"
	"github.com/tateti-lab/tateti-lab/report"
	"github.com/tateti-lab/tateti-lab/rules"
)

// NewCmdJudge builds judge, the parent of one command a contest problem.
func NewCmdJudge(f *Factory) *cobra.Command {
	c := &cobra.Command{
		Use:   "judge",
		Short: "Judge a contest program against perfect play, as an online judge does",
		Args:  noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return flagErrorf("name a problem, such as judge uva10111 -- PROGRAM ARGS (see 'tateti-lab judge --help')")
		},
	}
	c.AddCommand(NewCmdUVa10111(f, nil))
	return c
}

// UVa10111Options are the options of judge uva10111.
type UVa10111Options struct {
	GameOptions
	Argv      []string
	Cases     int // random cases after the sample; -1 for every case
	Seed      uint64
	TimeLimit time.Duration
	Memory    uint64    // the bound on the program's resident memory
	Plan      plan.Plan // who gives the right answers, opened in the run
}

// NewCmdUVa10111 builds judge uva10111; runF, if any, replaces its run.
func NewCmdUVa10111(f *Factory, runF func(*UVa10111Options) error) *cobra.Command {
	opts := &UVa10111Options{}
	who := f.engines()
	var all bool
	var memory string
	c := &cobra.Command{
		Use:     "uva10111 [flags] -- PROGRAM [ARGS...]",
		Short:   "Judge a solution of UVa 10111, Find the Winning Move (4x4, four in a row)",
		Long:    uva10111Help,
		Example: "  tateti-lab judge uva10111 -- python3 uva10111.py\n  tateti-lab judge uva10111 --cases 1000 --seed 7 -- ./a.out\n  tateti-lab judge uva10111 --all --time-limit 10m --json -- ./a.out",
		RunE: func(c *cobra.Command, args []string) error {
			var err error
			if opts.GameOptions, err = f.fixedOptions(c, "the problem is 4x4, four in a row, free placement"); err != nil {
				return err
			}
			switch {
			case opts.Cases < 0:
				return flagErrorf("--cases %d is not a count, want 0 or more", opts.Cases)
			case all && c.Flags().Changed("cases"):
				return flagErrorf("--all and --cases both choose the cases, give one of them")
			case opts.TimeLimit <= 0:
				return flagErrorf("--time-limit %v is not a time, want more than 0 such as 1m", opts.TimeLimit)
			}
			if opts.Memory, err = parseMemory(memory); err != nil {
				return err
			}
			if all {
				opts.Cases = -1
			}
			if opts.Plan, err = who.plan(plan.Request{Rules: rules.New(judge.UVa10111), Scope: plan.Many, Memory: f.Memory(), Workers: opts.Workers}); err != nil {
				return err
			}
			if opts.Argv, err = programArgs(c, args); err != nil {
				return err
			}
			return runOr(c.Context(), runF, runUVa10111, opts)
		},
	}
	fl := c.Flags()
	fl.IntVar(&opts.Cases, "cases", 100, "random cases after the sample")
	fl.Uint64Var(&opts.Seed, "seed", 1, "the seed that chooses the cases")
	fl.BoolVar(&all, "all", false, "every position the problem allows, instead of --cases")
	fl.DurationVar(&opts.TimeLimit, "time-limit", time.Minute, "the time the whole run may take")
	bindMemory(fl, &memory)
	who.bind(fl, "give the right answers from the 4x4 game's database in this folder, as db build --size 4x4 DIR writes it, instead of --engine")
	return c
}

// limits are the limits of the judged run.
func (opts *UVa10111Options) limits() judge.Limits {
	return judge.Limits{Time: opts.TimeLimit, Memory: opts.Memory}
}

func runUVa10111(ctx context.Context, opts *UVa10111Options) error {
	var v *judge.Verdict
	err := opts.Plan.Use(ctx, oracle.Options{NoLines: true}, func(o oracle.Oracle) (err error) {
		v, err = judge.Judge(ctx, o, opts.Argv, opts.Cases, opts.Seed, opts.limits(), opts.Workers)
		return err
	})
	if err != nil {
		return err
	}
	v.Answered = opts.Plan.Answered()
	err = show(opts.GameOptions, v, true, func(w io.Writer) error { report.Judge(w, v, opts.limits()); return nil })
	switch {
	case err != nil || v.OK:
		return err
	case v.Misbehaved():
		return errMisbehaved
	}
	return errDisagree
}

// uva10111Help is the long help of judge uva10111.
const uva10111Help = `Judge runs your solution of UVa 10111 once, with every case on its stdin in the
problem's format: a line "?", the four rows of the board (x, o and '.'), and
a line "$" after the last case. The cases are the problem's sample, then
--cases positions chosen at random, reproducibly from --seed, among those the
problem allows (x to move, each side with at least two marks, no line yet,
the board not full), or --all of them. The right answer is the first move in
row-major order after which x wins with perfect play, as (row,col), or #####,
as --engine answers it (the JSON says which).

Verdicts, as a judge gives them: Accepted; Wrong Answer, with the first wrong
case drawn and the expected answer; Presentation Error, where only white
space differs; Time Limit Exceeded, past --time-limit; Memory Limit
Exceeded, past --memory (the program and its children, resident); Output
Limit Exceeded, more than 1 MiB and 64 bytes a case printed; Runtime Error,
with the exit status and the end of stderr. Exit 0 for Accepted, 1 for a
wrong or badly presented answer, 2 when the program misbehaves (time,
memory, output, crash, cannot start).`
