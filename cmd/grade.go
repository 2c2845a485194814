package cmd

import (
	"fmt"
	"io"
	"math"

	"github.com/spf13/cobra"
	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/export"
	"github.com/tateti-lab/tateti-lab/grade"
	"github.com/tateti-lab/tateti-lab/internal/protocol"
	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/report"
)

// gradeHelp is grade's --help.
const gradeHelp = `Grade starts your agent program once and sends it every reachable position
whose game is not over, or a reproducible --sample N --seed S of them: one
request line each on its stdin, the cells row-major, separated by single
spaces and spelled with the --cells tokens (X, O, empty), with TATETI_ROWS,
TATETI_COLS, TATETI_K (and TATETI_GRAVITY=1, TATETI_MISERE=1) in its
environment. It answers one line per position: a move, as a cell number
(--move-format cell, the default), as row,col, column-major, or under
--gravity as a column from 0; --move-format openspiel and pettingzoo take
those libraries' actions (a column from 0 under gravity, a row-major or a
column-major cell otherwise).

The report, overall and by ply: illegal answers (unreadable, or not a legal
move: reported with the board, never a crash), moves that keep the
position's value (the accuracy: a perfect agent scores 100%), moves that are
also best (the fastest win, the slowest loss), and blunders by kind: a win
thrown to a draw or a loss, a draw thrown to a loss; the worst are drawn.

Past the exhaustive limit, or on positions of your own, --positions,
--sample with --plies, or --max-ply choose them, each answered first; those
whose game is over are left out.

--out FILE also writes every position's graded answer, one row each, as
Parquet or CSV by the file's ending (docs/protocols.md has the columns).
Moves are numbered as the datasets number them, by action (under gravity
the column from 0); the agent's answers are quoted as it wrote them.

--games N plays games instead: N from the empty board against a perfect
opponent (a best move, chosen at random among the best) and N against a
random one, with each colour, their choices drawn from --seed; the agent,
asked one move at a time, must flush each answer. --epsilon E weakens the
perfect opponent, for a curriculum: a best move with probability 1-E, a
random legal move otherwise. The report counts wins, draws, losses and
forfeits and draws the first game lost move by move; the JSON and --out
keep every game: its moves, result, length and the agent's time a move.
An agent that answers illegally, is silent past --timeout, crashes or
passes a limit forfeits that game, with why, and is started again for the
next. The perfect opponent's moves come from the planner's engine: the
game solved once where it fits, the opening book built in for Connect
Four's first plies, search past them, or the database --db names.

Exit 0 when graded and the agent did nothing wrong; 1 when any answer was
illegal, any game forfeited, or --min-accuracy is given and not met; 2 when
the program cannot start, or in grading positions misbehaves (crashes, is
silent longer than --timeout, too few or too many answers).`

// GradeOptions are the options of grade.
type GradeOptions struct {
	GameOptions
	Program Program
	Moves   protocol.MoveFormat
	Sample  int    // without Choice: positions drawn among all the game's; 0 for all
	Seed    uint64 // and the seed of the draw
	// ChosenSet, when its Choice is not nil, chooses the positions
	// instead: any board up to 64 cells.
	ChosenSet
	MinAccuracy *float64 // nil when not asked
	Games       int      // with --games: games against each opponent with each colour, instead of positions
	Epsilon     float64  // with --games: the perfect opponent's noise (perfect.Noisy)
	Out         string   // with --out: the results file, one row per position or per game
}

// NewCmdGrade builds grade; runF, when not nil, runs instead of the
// command's own run.
func NewCmdGrade(f *Factory, runF func(*GradeOptions) error) *cobra.Command {
	opts := &GradeOptions{}
	var prog programFlags
	choice := choiceFlags{whole: true}
	var moves string
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
			if err := checkWholeGrade(c, f); err != nil {
				return err
			}
			if opts.GameOptions, opts.ChosenSet, err = choice.options(c, f); err != nil {
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
			if err := checkResults(opts); err != nil {
				return err
			}
			if opts.Program, err = prog.parse(c, args); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runGrade(opts)
		},
	}
	fl := c.Flags()
	prog.bind(fl)
	fl.Float64Var(&opts.Epsilon, "epsilon", 0, "with --games: the perfect opponent plays a best move with probability 1-E, a random legal move otherwise")
	choice.bind(c) // after --epsilon, which is the games' here
	bindMoveFormat(fl, &moves, "a move")
	fl.Float64Var(&minAccuracy, "min-accuracy", 0, "exit 1 unless at least this percent of moves keep the value")
	fl.StringVar(&opts.Out, "out", "", "also write every position's graded answer to this file, .parquet or .csv")
	fl.IntVar(&opts.Games, "games", 0, "play this many games from the start against a perfect and a random opponent, with each colour, instead of grading positions")
	return c
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

func runGrade(opts *GradeOptions) error {
	p := opts.Program
	a := &grade.Agent{Argv: p.Argv, Cells: p.Cells, Moves: opts.Moves, Timeout: p.Timeout, Total: p.Total, Memory: p.Memory}
	if opts.Games > 0 {
		return runGames(opts, a)
	}
	a.Keep = opts.Out != ""
	r, err := gradePositions(opts, a)
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
func runGames(opts *GradeOptions, a *grade.Agent) error {
	var r *grade.GamesResult
	err := opts.Plan.Use(opts.Ctx, oracle.Options{NoLines: true}, func(o oracle.Oracle) (err error) {
		r, err = a.PlayGames(opts.Ctx, opts.Rules, o, grade.Games{N: opts.Games, Seed: opts.Seed, Epsilon: opts.Epsilon})
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

// checkWholeGrade refuses grading every position of a game too large to
// exhaust, naming the flags that grade it otherwise.
func checkWholeGrade(c *cobra.Command, f *Factory) error {
	for _, name := range []string{"games", "sample", "positions", "max-ply"} {
		if c.Flags().Changed(name) {
			return nil
		}
	}
	g, err := f.options(c)
	if err != nil {
		return err
	}
	if cells := g.Rules.Spec().Cells(); cells > enumerate.MaxCells {
		return flagErrorf("grade asks every position of %s, whose %d cells are too many to exhaust (at most %d): add --games N to play N games from the start against each opponent, or --sample N --plies RANGE (or --positions FILE, --max-ply N) to grade chosen positions", g.Rules.Spec(), cells, enumerate.MaxCells)
	}
	return nil
}

// gradePositions grades the agent on the whole game's positions, or on the
// chosen set, answered first.
func gradePositions(opts *GradeOptions, a *grade.Agent) (*grade.Result, error) {
	if opts.Choice == nil {
		return a.Grade(opts.Ctx, opts.Rules, opts.Sample, opts.Seed, opts.MinAccuracy, opts.Workers)
	}
	as, _, err := opts.answer(opts.GameOptions, "grade", false)
	if err != nil {
		return nil, err
	}
	return a.GradeAnalysed(opts.Ctx, opts.Rules, as, opts.MinAccuracy)
}
