package cmd

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Query is one position to answer, who answers it, and within what time.
type Query struct {
	Board     game.Board    // the position, after --moves
	Oracle    oracle.Oracle // who answers it
	TimeLimit time.Duration // 0: none
}

// answer asks the oracle; an answer cut short by the time limit says what
// it proved, in its Proved.
func (q Query) answer(ctx context.Context) (perfect.Analysis, error) {
	return oracle.Within(ctx, q.Oracle, q.Board, q.TimeLimit)
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
	position, moves, oracle, db string
	timeLimit                   time.Duration
}

// bind adds the flags to c; boardHelp says what --position is.
func (p *positionFlags) bind(c *cobra.Command, boardHelp, movesHelp string) {
	c.Flags().StringVar(&p.position, "position", "", boardHelp)
	c.Flags().StringVar(&p.moves, "moves", "", movesHelp)
	c.Flags().StringVar(&p.oracle, "oracle", "auto",
		"who answers: table (the game solved exhaustively from the board), search (one position at a time, any board up to 64 cells, such as 6x7 under gravity or a free 8x8), or auto: the table where it fits, search otherwise")
	c.Flags().StringVar(&p.db, "db", "", dbHelp)
	c.Flags().DurationVar(&p.timeLimit, "time-limit", 0,
		"give up after this long, such as 30s or 5m, saying what was proved by then (such as X does not lose) and exiting 1; 0 for no limit")
}

// resolve reads the board (the empty board when --position is not given),
// which must be able to arise, plays --moves on it, and chooses the oracle
// for it, within memory bytes.
func (p *positionFlags) resolve(g GameOptions, memory uint64) (Query, error) {
	if err := checkTimeLimit(p.timeLimit); err != nil {
		return Query{}, err
	}
	b, err := readPosition(g.Rules, p.position, p.moves)
	if err != nil {
		return Query{}, err
	}
	o, err := chooseOracle(g.Rules, p.oracle, p.db, b, memory, g.Workers, false)
	return Query{Board: b, Oracle: o, TimeLimit: p.timeLimit}, err
}

// dbHelp is the help of --db where it names who answers.
const dbHelp = "answer from the solved game in this database folder, as db build writes it, instead of --oracle"

// chooseOracle gives the oracle that --oracle name and --db dir choose for
// rl's positions from b, within memory bytes: the database in dir when it
// is given, else the oracle named. many says that it answers many
// positions, so that a table solves the whole game once.
func chooseOracle(rl rules.Rules, name, dir string, b game.Board, memory uint64, workers int, many bool) (oracle.Oracle, error) {
	switch {
	case dir != "" && name != "auto":
		return nil, fmt.Errorf("--oracle %s and --db each choose who answers; give one of them", game.Echo(name))
	case dir != "":
		return oracle.Database(rl, dir)
	case many:
		return oracle.ChooseMany(rl, name, memory, workers)
	}
	return oracle.Choose(rl, name, b, memory, workers)
}

// readPosition reads the board of --position and plays --moves on it.
func readPosition(rl rules.Rules, position, moves string) (game.Board, error) {
	var b game.Board
	if position != "" {
		var err error
		if b, err = rl.Spec().Parse(position); err != nil {
			return b, err
		}
		if err := rules.CheckReachable(rl, b); err != nil {
			return b, err
		}
	}
	return rules.Play(rl, b, moves)
}
