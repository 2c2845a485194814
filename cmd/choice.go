package cmd

import (
	"context"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/tateti-lab/tateti-lab/choose"
	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/plan"
	"github.com/tateti-lab/tateti-lab/positions"
	"github.com/tateti-lab/tateti-lab/rules"
)

// choiceFlags choose a set of positions, answered one at a time, where a
// command would otherwise take every position of the game: a sample by
// random play, a file of move sequences, or every position up to a ply.
type choiceFlags struct {
	file, plies    string
	sample, maxPly int
	seed           uint64
	quiet, onePer  bool
	who            *engineFlags // the command's --engine and --db, bound by it
	// whole says that the command takes every position of a solved game
	// otherwise: there --sample without --plies draws among them.
	whole bool
	// alsoOne says that --engine and --db answer one position too
	// (render): without a set they are no error.
	alsoOne bool
	// wholeDB says that --db without a set takes the whole game from the
	// database (export), rather than being refused.
	wholeDB bool
	// games says that the command plays games (grade --games): with no
	// set, positions are asked one at a time as the games reach them, and
	// --engine or --db choose who plays perfectly.
	games bool
	// epsilon is the noise of the play a sample is drawn by
	// (perfect.Noisy), where the set owns --epsilon (ownEpsilon).
	epsilon float64
	// offersGames says that the command plays games instead (grade
	// --games): their perfect opponent owns --epsilon, bound by the
	// command, and a game too large to exhaust may be played instead.
	offersGames bool
}

// ownEpsilon says whether --epsilon is the set's.
func (cf *choiceFlags) ownEpsilon() bool { return !cf.offersGames }

// bind adds the flags to c.
func (cf *choiceFlags) bind(c *cobra.Command) {
	fl := c.Flags()
	sample := "only this many positions, drawn by random play to --plies (reproducibly, see --seed)"
	if cf.whole {
		sample = "only this many positions: drawn by random play to --plies, or without --plies among all the game's (reproducibly, see --seed)"
	}
	fl.StringVar(&cf.file, "positions", "", "only the positions in this file: one a line, a move sequence such as 4453 (Pons' benchmark format) or a board")
	fl.IntVar(&cf.sample, "sample", 0, sample)
	fl.Uint64Var(&cf.seed, "seed", 1, "with --sample: the seed of its choices")
	fl.StringVar(&cf.plies, "plies", "", "with --sample: the ply of each position, drawn from a range such as 10-14, or one ply such as 8")
	if cf.ownEpsilon() {
		fl.Float64Var(&cf.epsilon, "epsilon", 1, "with --sample: draw by noisy perfect play, a best move with probability 1-E and a random legal move otherwise (1, the default, is random play)")
	}
	fl.BoolVar(&cf.quiet, "quiet-positions", false, "with --sample or --max-ply N: only quiet positions (no immediate win, no line to stop), one of each symmetry class, and with --max-ply only those of ply N, as UCI's Connect-4 set")
	fl.IntVar(&cf.maxPly, "max-ply", 0, "only every position of plies 0 to N, on any board up to 64 cells")
	fl.BoolVar(&cf.onePer, "one-per-class", false, "with a chosen set: one position of each class of boards equal up to the rules' symmetries (under gravity, of each mirror pair): a file's first, a sample's first drawn, the least up to --max-ply")
}

// resolve gives the choice the flags make for rl's game, nil when they make
// none; the rules are package choose's, as the Beam pipeline's are.
func (cf *choiceFlags) resolve(c *cobra.Command, rl rules.Rules) (*positions.Choice, error) {
	changed := c.Flags().Changed
	from, err := choose.Chooser(changed, choose.Choosers, cf.ownEpsilon(), cf.whole)
	if err != nil {
		return nil, flagError(err)
	}
	if cf.whole && from == "sample" && !changed("plies") {
		if err := choose.Count(cf.sample); err != nil {
			return nil, flagError(err)
		}
		from = "" // a sample of the whole game's positions
	}
	switch cells := rl.Spec().Cells(); from {
	case "":
		for _, name := range []string{"engine", "db"} {
			if changed(name) && !cf.alsoOne && !(name == "db" && cf.wholeDB) && !cf.games {
				return nil, flagErrorf("--%s answers a chosen set of positions: give --positions FILE, --sample N or --max-ply N", name)
			}
		}
		return nil, nil
	case "positions":
		ch, err := positions.Open(c.Context(), rl, cf.file)
		if err != nil {
			return nil, flagErrorf("--positions: %w; name a file of positions, one a line, a move sequence such as 4453 or a board", err)
		}
		ch.OnePerClass = cf.onePer
		return ch, nil
	case "max-ply":
		if err := checkMaxPly(cf.maxPly, cells); err != nil {
			return nil, err
		}
		return &positions.Choice{From: positions.FromMaxPly, MaxPly: &cf.maxPly, Quiet: cf.quiet, OnePerClass: cf.onePer}, nil
	}
	f := choose.Flags{Sample: cf.sample, Plies: cf.plies, Seed: cf.seed, Epsilon: cf.epsilon, Quiet: cf.quiet, OnePerClass: cf.onePer}
	sample, err := choose.SampleOf(f, rl, changed("plies"), cf.ownEpsilon() && changed("epsilon"))
	if err != nil {
		return nil, flagError(err)
	}
	return &positions.Choice{From: positions.FromSample, Sample: sample}, nil
}

// checkMaxPly validates --max-ply n on a board of cells cells.
func checkMaxPly(n, cells int) error {
	if err := choose.MaxPly(n, cells); err != nil {
		return flagError(err)
	}
	return nil
}

// checkTimeLimit validates --time-limit d.
func checkTimeLimit(d time.Duration) error {
	if err := choose.TimeLimit(d); err != nil {
		return flagError(err)
	}
	return nil
}

// options validates the game flags and the choice: with a chosen set, any
// board its oracle answers; without, a game to exhaust.
func (cf *choiceFlags) options(c *cobra.Command, f *Factory) (GameOptions, plan.Set, error) {
	g, err := f.options(c)
	if err != nil {
		return g, plan.Set{}, err
	}
	var cs plan.Set
	if cs.Choice, err = cf.resolve(c, g.Rules); err != nil {
		return g, cs, err
	}
	scope := plan.Many
	if cs.Choice == nil && !cf.games {
		if err := cf.checkWhole(c, g.Rules.Spec()); err != nil {
			return g, cs, err
		}
		scope = plan.Every
	}
	return g, cs, answerer(&cs, cf.who, c, f, g.Rules, g.Workers, scope)
}

// checkWhole refuses taking every position of a game too large to
// exhaust (but from a database, --db), naming the flags that choose
// positions instead, and grade's --games.
func (cf *choiceFlags) checkWhole(c *cobra.Command, s rules.Spec) error {
	if s.Cells() <= enumerate.MaxCells || (cf.wholeDB && c.Flags().Changed("db")) {
		return nil
	}
	games := ""
	if cf.offersGames {
		games = "--games N to play N games from the start against each opponent, or "
	}
	return flagErrorf("%s takes every position of %s, whose %d cells are too many to exhaust (at most %d): add %s--sample N --plies RANGE (or --positions FILE, --max-ply N) to choose positions", strings.TrimPrefix(c.CommandPath(), c.Root().Name()+" "), s, s.Cells(), enumerate.MaxCells, games)
}

// answerer has the planner choose who answers the set (the --engine
// named, or --db) or, with no set, the positions of the game: every one
// (plan.Every), or those games reach, one at a time (plan.Many).
func answerer(cs *plan.Set, who *engineFlags, c *cobra.Command, f *Factory, rl rules.Rules, workers int, scope plan.Scope) error {
	memory := f.Memory()
	if cs.Choice != nil && cs.Choice.Sample != nil {
		ctx := c.Context()
		if ctx == nil {
			ctx = context.Background()
		}
		if err := cs.Choice.Sample.Check(ctx, rl, workers, memory); err != nil {
			return flagErrorf("--sample: %w", err)
		}
	}
	var err error
	cs.Plan, err = who.plan(plan.Request{Rules: rl, Scope: scope, Memory: memory, Workers: workers})
	return err
}
