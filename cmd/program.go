package cmd

import (
	"fmt"
	"time"

	"github.com/spf13/pflag"
	"github.com/tateti-lab/tateti-lab/internal/protocol"
	"github.com/tateti-lab/tateti-lab/rules"
)

// programOptions are the flags of every mode that runs a user's program over
// a line protocol: verify --external and --solver, grade --agent.
type programOptions struct {
	cells      string
	timeout    time.Duration
	total      time.Duration
	moveFormat string
	sample     int
	seed       uint64
}

// programFlags names the flags bind adds, for the check that they go with a
// program.
var programFlags = []string{"cells", "timeout", "total-timeout", "move-format", "sample", "seed"}

func (p *programOptions) bind(f *pflag.FlagSet) {
	f.StringVar(&p.cells, "cells", "X,O,.", "the tokens for X, O and an empty cell in a request")
	f.DurationVar(&p.timeout, "timeout", 60*time.Second, "the longest the program may stay silent (no answer, or no exit after the last)")
	f.DurationVar(&p.total, "total-timeout", 0, "the longest the whole run may take (default no limit)")
	f.StringVar(&p.moveFormat, "move-format", "cell", "how the program writes a move: cell, row,col, or under --gravity column")
	f.IntVar(&p.sample, "sample", 0, "send only this many positions, chosen at random (reproducibly, see --seed)")
	f.Uint64Var(&p.seed, "seed", 1, "with --sample: the seed that chooses the positions")
}

// program is the parsed program flags.
type program struct {
	argv  []string
	cells protocol.Cells
	moves protocol.MoveFormat
}

// parse validates the program text given with flag and the program flags.
func (p *programOptions) parse(flag, text string, rs rules.Spec) (program, error) {
	var out program
	argv, err := splitArgs(flag, text)
	if err != nil {
		return out, err
	}
	cells, err := protocol.Tokens(p.cells, 3, "X, O, empty")
	if err != nil {
		return out, fmt.Errorf("--cells %w", err)
	}
	moves, err := protocol.ParseMoveFormat(p.moveFormat, rs)
	if err != nil {
		return out, fmt.Errorf("--move-format: %w", err)
	}
	switch {
	case p.timeout <= 0:
		return out, fmt.Errorf("--timeout %v is not a time to wait, want more than 0 such as 60s", p.timeout)
	case p.total < 0:
		return out, fmt.Errorf("--total-timeout %v is not a time to wait, want 0 for no limit or more, such as 10m", p.total)
	case p.sample < 0:
		return out, fmt.Errorf("--sample %d is not a count of positions, want 1 or more (or leave it out for all)", p.sample)
	}
	out.argv, out.moves = argv, moves
	copy(out.cells[:], cells)
	return out, canStart(flag, argv)
}

// choose gives the positions to send: all of them, or a --sample of them.
func (p *programOptions) choose(positions []int) []int {
	if p.sample == 0 {
		return positions
	}
	picked := protocol.Sample(len(positions), p.sample, p.seed)
	for k, i := range picked {
		picked[k] = positions[i]
	}
	return picked
}
