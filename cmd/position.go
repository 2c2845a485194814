package cmd

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/tateti-lab/tateti-lab/choose"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/plan"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Query is one position to answer, who answers it, and within what time.
type Query struct {
	Board     game.Board    // the position, after --moves
	Plan      plan.Plan     // who answers it, opened in the run
	TimeLimit time.Duration // 0: none
	ValueOnly bool          // the value and depth alone, no move's
	NoDepths  bool          // values without depths
}

// answer asks the planned engine; an answer cut short by the time limit
// says what it proved, in its Proved.
func (q Query) answer(ctx context.Context) (perfect.Analysis, error) {
	return q.Plan.Answer(ctx, q.Board, oracle.Options{ValueOnly: q.ValueOnly, NoDepths: q.NoDepths}, q.TimeLimit)
}

// unsettledError is the error of an answer cut short by --time-limit: exit
// 1, after the answer (if any was printed) has said what was proved.
func unsettledError(q Query, proved perfect.Bounds) error {
	return &shownError{fmt.Errorf("not settled within --time-limit %s (proved: %s); raise --time-limit, or leave it out to search to the end", q.TimeLimit, proved)}
}

// positionFlags are the flags of the commands that answer one position:
// the board, the moves played on it, the oracle of perfect play that
// answers it, and the time it has.
type positionFlags struct {
	position, moves string
	timeLimit       time.Duration
	valueOnly       bool         // solve's --value-only
	noDepths        bool         // solve's --no-depths
	who             *engineFlags // the command's, bound by it
}

// bind adds the flags to c; boardHelp says what --position is.
func (p *positionFlags) bind(c *cobra.Command, boardHelp, movesHelp string) {
	c.Flags().StringVar(&p.position, "position", "", boardHelp)
	c.Flags().StringVar(&p.moves, "moves", "", movesHelp)
	c.Flags().DurationVar(&p.timeLimit, "time-limit", 0,
		"give up after this long, such as 30s or 5m, saying what was proved by then (such as X does not lose) and exiting 1; 0 for no limit")
}

// resolve reads the board of c's flags (the empty board when --position
// is not given), which must be able to arise, plays --moves on it, and has
// the planner choose who answers it, within memory bytes.
func (p *positionFlags) resolve(c *cobra.Command, g GameOptions, memory uint64) (Query, error) {
	if err := checkTimeLimit(p.timeLimit); err != nil {
		return Query{}, err
	}
	b, err := rules.Position(g.Rules, p.position, p.moves)
	if err != nil {
		return Query{}, flagError(err)
	}
	pl, err := p.who.plan(plan.Request{Rules: g.Rules, Scope: plan.One, Board: b, Memory: memory, Workers: g.Workers})
	return Query{Board: b, Plan: pl, TimeLimit: p.timeLimit, ValueOnly: p.valueOnly, NoDepths: p.noDepths}, err
}

// noDepthsHelp says what --no-depths asks, after what it goes with.
const noDepthsHelp = "values without depths: win, draw or loss, the best moves those of the best value, no line; search asks fewer questions, and a win/draw/loss database answers from its tables at once"

// dbHelp is the help of --db where it names who answers.
const dbHelp = "answer from the solved game in this database folder, as db build writes it, instead of --engine"

// engineFlags are --engine and --db: who answers. A command that names who
// answers declares them once, by bind, and hands them to the flags that
// answer (positionFlags, choiceFlags): no flag's owner is decided by the
// order the flags are bound in.
type engineFlags struct {
	named, db string
	f         *Factory // opens the engine picked (Factory.Engines)
}

// engines gives a command's --engine and --db, the engine they pick
// opened by f's Engines.
func (f *Factory) engines() engineFlags { return engineFlags{f: f} }

// engineHelp is --engine's help, the same on every command.
const engineHelp = "who answers: memory (the game solved exhaustively, once), search (one position at a time, any board up to 64 cells, such as 6x7 under gravity), or auto: memory where the game fits, search otherwise"

// bind adds --engine and --db to fl; dbUse is --db's help on this command
// (on some it also reads a whole game).
func (e *engineFlags) bind(fl *pflag.FlagSet, dbUse string) {
	fl.StringVar(&e.named, "engine", "auto", engineHelp)
	fl.StringVar(&e.db, "db", "", dbUse)
}

// plan has the planner choose who answers r, with the engine --engine
// names or the database --db names: exit 2 when nothing can.
func (e *engineFlags) plan(r plan.Request) (plan.Plan, error) {
	r.Named, r.DB, r.Open = e.named, e.db, e.f.Engines
	if err := choose.Who(r.Named, r.DB); err != nil {
		return plan.Plan{}, flagError(err)
	}
	p, err := plan.For(r)
	if err != nil {
		return p, dbFlagError(err, r.Rules.Spec(), r.DB)
	}
	return p, nil
}
