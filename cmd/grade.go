package cmd

import (
	"context"
	"fmt"
	"io"
	"math"

	"github.com/spf13/cobra"
	"github.com/tateti-lab/tateti-lab/export"
	"github.com/tateti-lab/tateti-lab/grade"
	"github.com/tateti-lab/tateti-lab/internal/interrupt"
	"github.com/tateti-lab/tateti-lab/internal/protocol"
	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/plan"
	"github.com/tateti-lab/tateti-lab/report"
)

// gradeHelp is grade's --help.
const gradeHelp = `Grade starts your agent program once and sends it every reachable position
whose game is not over, or a reproducible --sample N --seed S of them, one
request line each (the cells row-major, in the --cells tokens, the game in
its environment, as verify checker sends them). It answers a move a line, in
--move-format: a cell number (the default), row,col, column-major, under
--gravity a column from 0, or OpenSpiel's or PettingZoo's action.

The report, overall and by ply: illegal answers (reported with the board),
moves that keep the position's value (the accuracy: a perfect agent scores
100%), moves that are also best (the fastest win, the slowest loss), and
blunders by kind, the worst drawn. An illegal answer is graded as such
and the agent answers on: each answer line is one position's. Its first
answer may take --start-timeout, its start-up included. Past the exhaustive limit, or on
positions of your own, --positions, --sample with --plies, or --max-ply
choose them. --out FILE writes every graded answer, .parquet or .csv, its
moves by action (under gravity the column from 0), the agent's answers as
it wrote them.

--games N plays games instead: N from the empty board against a perfect
opponent (a best move, at random among the best; --epsilon E makes it play
a random legal move with probability E) and N against a random one, with
each colour, drawn from --seed (--openings FILE: from each opening of the
file instead, N times with each colour against each opponent); the agent
must flush each answer. The
report counts wins, draws, losses and forfeits and draws the first game
lost; the JSON and --out keep every game (moves, result, length, the
agent's time a move). Each time the agent starts it is first asked the
empty board, not graded: its start-up (an interpreter, a model loaded) has
--start-timeout, is timed apart (start_seconds), and lines it prints before
that answer are skipped. An illegal answer, silence past --timeout, a crash
or a limit forfeits that game, with why, and the agent is started again for
the next, since a stray line would put its later answers out of step. The
perfect opponent is the planner's engine, as in solve, or --db.
docs/protocols.md has the protocol and examples.

Exit 0 when graded and the agent did nothing wrong; 1 when any answer was
illegal, any game forfeited, or --min-accuracy is given and not met; 2 when
the program cannot start, or in grading positions misbehaves (crashes, is
silent longer than --timeout, too few or too many answers).`

// GradeOptions are the options of grade.
type GradeOptions struct {
	GameOptions
	Program protocol.Program
	Moves   protocol.MoveFormat
	Sample  int    // without Choice: positions drawn among all the game's; 0 for all
	Seed    uint64 // and the seed of the draw
	// Set, when its Choice is not nil, chooses the positions
	// instead: any board up to 64 cells.
	plan.Set
	MinAccuracy *float64 // nil when not asked
	Games       int      // with --games: games against each opponent with each colour, instead of positions
	Epsilon     float64  // with --games: the perfect opponent's noise (perfect.Noisy)
	// Openings, with --games and --openings, are the positions the games
	// start from.
	Openings []grade.Opening
	Out      string // with --out: the results file, one row per position or per game
}

// NewCmdGrade builds grade; runF, if any, replaces its run.
func NewCmdGrade(f *Factory, runF func(*GradeOptions) error) *cobra.Command {
	opts := &GradeOptions{}
	var prog programFlags
	who := f.engines()
	choice := choiceFlags{whole: true, who: &who, offersGames: true}
	var moves, openings string
	var minAccuracy float64
	c := &cobra.Command{
		Use:   "grade [flags] -- PROGRAM [ARGS...]",
		Short: "Grade your agent's moves against perfect play on every position",
		Long:  gradeHelp,
		Example: "  tateti-lab grade -- python3 agent.py\n  tateti-lab grade --min-accuracy 99.5 --json -- ./agent\n  tateti-lab grade --gravity --size 4x4 --k 4 --move-format column --sample 2000 -- ./c4\n" +
			"  tateti-lab grade --gravity --size 6x7 --k 4 --move-format column --sample 100 --plies 10-14 -- ./c4",
		RunE: func(c *cobra.Command, args []string) error {
			var err error
			choice.games = c.Flags().Changed("games")
			if opts.GameOptions, opts.Set, err = choice.options(c, f); err != nil {
				return err
			}
			opts.Sample, opts.Seed = choice.sample, choice.seed
			if opts.Moves, err = moveFormat(moves, opts.GameOptions); err != nil {
				return err
			}
			if c.Flags().Changed("min-accuracy") {
				if opts.MinAccuracy = &minAccuracy; math.IsNaN(minAccuracy) || minAccuracy < 0 || minAccuracy > 100 {
					return flagErrorf("--min-accuracy %v is not a percentage, want 0 to 100", minAccuracy)
				}
			}
			if err := checkGames(c, opts); err != nil {
				return err
			}
			if opts.Openings, err = readOpenings(c, openings, opts.GameOptions); err != nil {
				return err
			}
			if err := checkResults(opts); err != nil {
				return err
			}
			if opts.Program, err = prog.parse(c, args); err != nil {
				return err
			}
			return runOr(c.Context(), runF, runGrade, opts)
		},
	}
	fl := c.Flags()
	prog.bind(fl)
	fl.Float64Var(&opts.Epsilon, "epsilon", 0, "with --games: the perfect opponent plays a best move with probability 1-E, a random legal move otherwise")
	choice.bind(c)
	who.bind(fl, "with a chosen set or --games: "+dbHelp)
	bindMoveFormat(fl, &moves, "a move")
	fl.Float64Var(&minAccuracy, "min-accuracy", 0, "exit 1 unless at least this percent of moves keep the value")
	fl.StringVar(&opts.Out, "out", "", "also write every position's graded answer to this file, .parquet or .csv")
	fl.IntVar(&opts.Games, "games", 0, "play this many games from the start against a perfect and a random opponent, with each colour, instead of grading positions")
	fl.StringVar(&openings, "openings", "", "with --games N: start the games from the openings in this file, a move sequence a line (such as 4453), each played N times with each colour against each opponent")
	return c
}

// readOpenings reads the file --openings names, which goes with --games;
// none when it is not given.
func readOpenings(c *cobra.Command, name string, g GameOptions) ([]grade.Opening, error) {
	if !c.Flags().Changed("openings") {
		return nil, nil
	}
	if !c.Flags().Changed("games") {
		return nil, flagErrorf("--openings goes with --games N, which plays N games from each opening")
	}
	f, err := interrupt.Open(c.Context(), name)
	if err != nil {
		return nil, flagErrorf("--openings: %w", err)
	}
	defer f.Close()
	ops, err := grade.ReadOpenings(g.Rules, f)
	if err != nil {
		return nil, flagErrorf("--openings %s: %w", name, err)
	}
	return ops, nil
}

// checkGames validates --games: a count of games, which grades games, not
// positions, so --sample and --min-accuracy do not go with it.
func checkGames(c *cobra.Command, opts *GradeOptions) error {
	if !c.Flags().Changed("games") {
		if c.Flags().Changed("epsilon") {
			return flagErrorf("--epsilon weakens the perfect opponent of --games N; give --games")
		}
		return nil
	}
	if err := perfect.CheckEpsilon(opts.Epsilon); err != nil {
		return flagErrorf("--epsilon %w", err)
	}
	if opts.Games < 1 {
		return flagErrorf("--games %d is not a count of games, want 1 or more", opts.Games)
	}
	for _, name := range []string{"sample", "positions", "max-ply", "min-accuracy"} {
		if c.Flags().Changed(name) {
			return flagErrorf("--%s grades positions, and --games plays games; give one of them", name)
		}
	}
	return nil
}

// checkResults validates --out: a .parquet or .csv file in a folder that
// exists, for graded positions or games.
func checkResults(opts *GradeOptions) error {
	if opts.Out == "" {
		return nil
	}
	if err := export.CheckFileName(opts.Out); err != nil {
		return flagErrorf("--out %w", err)
	}
	return checkOutFile(opts.Out, "results.parquet")
}

func runGrade(ctx context.Context, opts *GradeOptions) error {
	a := &grade.Agent{Program: opts.Program, Moves: opts.Moves}
	if opts.Games > 0 {
		return runGames(ctx, opts, a)
	}
	a.Keep = opts.Out != ""
	r, err := gradePositions(ctx, opts, a)
	if err != nil {
		return err
	}
	if a.Keep {
		if err := export.WriteFile(opts.Out, grade.GradedHeader, r.Agent.Rows); err != nil {
			return fmt.Errorf("--out %w", err)
		}
	}
	r.Answered = opts.Plan.Answered()
	return show(opts.GameOptions, r, r.Passed && r.Agent.Overall.Illegal == 0, func(w io.Writer) error { report.Grade(w, r); return nil })
}

// runGames plays the games --games asks, and writes them where --out says.
func runGames(ctx context.Context, opts *GradeOptions, a *grade.Agent) error {
	var r *grade.GamesResult
	err := opts.Plan.Use(ctx, oracle.Options{NoLines: true}, func(o oracle.Oracle) (err error) {
		r, err = a.PlayGames(ctx, opts.Rules, o, grade.Games{N: opts.Games, Seed: opts.Seed, Epsilon: opts.Epsilon, Openings: opts.Openings})
		return err
	})
	if err != nil {
		return err
	}
	if opts.Out != "" {
		if err := export.WriteFile(opts.Out, grade.GameHeader, grade.GameRows(r)); err != nil {
			return fmt.Errorf("--out %w", err)
		}
	}
	r.Answered = opts.Plan.Answered()
	return show(opts.GameOptions, r, !r.Misbehaved(), func(w io.Writer) error { report.Games(w, r); return nil })
}

// gradePositions grades the agent on the whole game's positions, or on the
// chosen set, answered first.
func gradePositions(ctx context.Context, opts *GradeOptions, a *grade.Agent) (*grade.Result, error) {
	if opts.Choice == nil {
		return a.Grade(ctx, opts.Rules, opts.Sample, opts.Seed, opts.MinAccuracy, opts.Workers)
	}
	as, _, err := opts.Set.Answer(ctx, "grade", false)
	if err != nil {
		return nil, err
	}
	return a.GradeAnalysed(ctx, opts.Rules, as, opts.MinAccuracy)
}
