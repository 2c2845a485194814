package protocol

import (
	"time"

	"github.com/tateti-lab/tateti-lab/internal/extproc"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Program is a user's program and how to talk to it over a line protocol:
// its command line, the tokens of a request's cells, and its limits. The
// checker, solver and agent protocols each add their own answer tokens.
type Program struct {
	Argv    []string      // the program and its arguments
	Cells   CellTokens    // the tokens for X, O and an empty cell
	Timeout time.Duration // the longest silence: no answer (or no exit) for that long stops it
	Start   time.Duration // the longest wait for its first answer, its start-up included
	Total   time.Duration // the longest the whole run may take; 0: no limit
	Memory  uint64        // the bound on its resident memory, bytes; 0: none
}

// Config is how to run p on the game s: its command line and limits, with
// the game in its environment (Environment).
func (p Program) Config(s rules.Spec) extproc.Config {
	return extproc.Config{Argv: p.Argv, Env: Environment(s), Silence: p.Timeout, Start: p.Start, Total: p.Total, Memory: p.Memory}
}
