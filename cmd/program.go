package cmd

import (
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/tateti-lab/tateti-lab/internal/protocol"
	"github.com/tateti-lab/tateti-lab/internal/sysmem"
)

// programFlags are the flags of every command that runs a user's program
// over a line protocol, as typed.
type programFlags struct {
	cells   string
	timeout time.Duration
	start   time.Duration
	total   time.Duration
	memory  string
}

func (p *programFlags) bind(f *pflag.FlagSet) {
	f.StringVar(&p.cells, "cells", "X,O,.", "the tokens for X, O and an empty cell in a request")
	f.DurationVar(&p.timeout, "timeout", 60*time.Second, "the longest the program may stay silent (no answer, or no exit after the last)")
	f.DurationVar(&p.start, "start-timeout", 60*time.Second, "the longest the program may take to start and give its first answer, in place of --timeout (an interpreter's or a model's start-up)")
	f.DurationVar(&p.total, "total-timeout", 0, "the longest the whole run may take (default no limit)")
	bindMemory(f, &p.memory)
}

// bindMemory adds --memory: the bound on a user's program's memory.
func bindMemory(f *pflag.FlagSet, p *string) {
	f.StringVar(p, "memory", "2GiB", "the most resident memory the program (and the children it starts) may use, such as 512MiB or 4G; past it the program is stopped")
}

// parseMemory validates --memory.
func parseMemory(s string) (uint64, error) {
	n, err := sysmem.ParseBytes(s)
	if err != nil {
		return 0, flagErrorf("--memory %w", err)
	}
	return n, nil
}

// parse validates the program flags and the program after -- in args.
func (p *programFlags) parse(c *cobra.Command, args []string) (protocol.Program, error) {
	var out protocol.Program
	cells, err := protocol.Tokens(p.cells, 3, "X, O, empty")
	if err != nil {
		return out, flagErrorf("--cells %w", err)
	}
	copy(out.Cells[:], cells)
	switch {
	case p.timeout <= 0:
		return out, flagErrorf("--timeout %v is not a time to wait, want more than 0 such as 60s", p.timeout)
	case p.start <= 0:
		return out, flagErrorf("--start-timeout %v is not a time to wait, want more than 0 such as 60s", p.start)
	case p.total < 0:
		return out, flagErrorf("--total-timeout %v is not a time to wait, want 0 for no limit or more, such as 10m", p.total)
	}
	out.Timeout, out.Start, out.Total = p.timeout, p.start, p.total
	if out.Memory, err = parseMemory(p.memory); err != nil {
		return out, err
	}
	out.Argv, err = programArgs(c, args)
	return out, err
}

// bindMoveFormat adds --move-format: how the program writes what.
func bindMoveFormat(f *pflag.FlagSet, p *string, what string) {
	f.StringVar(p, "move-format", "cell", "how the program writes "+what+": cell, row,col, column-major, under --gravity column; or openspiel, pettingzoo for their actions")
}

// moveFormat validates --move-format for the game.
func moveFormat(name string, o GameOptions) (protocol.MoveFormat, error) {
	f, err := protocol.ParseMoveFormat(name, o.Rules.Spec())
	if err != nil {
		return f, flagErrorf("--move-format: %w", err)
	}
	return f, nil
}
