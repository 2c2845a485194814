package cmd

import (
	"github.com/spf13/cobra"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/rules"
)

// positionFlags are the flags of the commands that answer one position:
// the board, the moves played on it, and the oracle of perfect play that
// answers it.
type positionFlags struct {
	position, moves, oracle string
}

// bind adds the flags to c; boardHelp says what --position is.
func (p *positionFlags) bind(c *cobra.Command, boardHelp, movesHelp string) {
	c.Flags().StringVar(&p.position, "position", "", boardHelp)
	c.Flags().StringVar(&p.moves, "moves", "", movesHelp)
	c.Flags().StringVar(&p.oracle, "oracle", "auto",
		"who answers: table (the game solved exhaustively from the board), search (one position at a time; gravity boards up to 64 bits, such as 6x7), or auto: the table where it fits, search otherwise")
}

// resolve reads the board (the empty board when --position is not given),
// which must be able to arise, plays --moves on it, and chooses the oracle
// for it, within memory bytes.
func (p *positionFlags) resolve(g GameOptions, memory uint64) (game.Board, oracle.Oracle, error) {
	b, err := readPosition(g.Rules, p.position, p.moves)
	if err != nil {
		return b, nil, err
	}
	o, err := oracle.Choose(g.Rules, p.oracle, b, memory, g.Workers)
	return b, o, err
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
