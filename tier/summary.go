package tier

import (
	"context"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Summarize gives the summary of the solved game of manifest m, as solve
// gives it (the positions by ply and by value for X, X's first moves), with
// each ply's positions by value for the side to move beside: for a
// win/draw/loss database, the positions play reaches its forward pass
// counted (Manifest.Reached), else its boards with no line (NoLine).
func Summarize(m db.Manifest, openings []perfect.Move) perfect.Summary {
	s := perfect.Summary{Game: m.Game, Value: m.Value, Depth: m.Depth, Openings: openings, MaxPly: m.MaxPly}
	plies := m.Plies
	switch {
	case len(m.Reached) > 0:
		plies = m.Reached
	case db.Packed(m.Layout):
		s.NoLine = true
	}
	for _, p := range plies {
		pv := perfect.PlyValues{Ply: p.Ply, ValueCounts: perfect.ValueCounts{XWins: p.Won, Draw: p.Drawn, OWins: p.Lost}}
		if p.Ply%2 == 1 { // O to move
			pv.XWins, pv.OWins = pv.OWins, pv.XWins
		}
		s.ByPly = append(s.ByPly, pv)
		s.PositionsByValue.XWins += pv.XWins
		s.PositionsByValue.Draw += pv.Draw
		s.PositionsByValue.OWins += pv.OWins
		s.ToMove = append(s.ToMove, perfect.PlyToMove{Ply: p.Ply, Won: p.Won, Drawn: p.Drawn, Lost: p.Lost})
	}
	return s
}

// Build solves rl's game into the database folder dir (Solve: a finished
// database is kept as it is, an unfinished one resumed) and gives its
// summary, read back and checked (Summary).
func Build(ctx context.Context, rl rules.Rules, dir string, workers int) (perfect.Summary, error) {
	job, err := NewJob(rl)
	if err != nil {
		return perfect.Summary{}, err
	}
	return BuildJob(ctx, job, dir, workers)
}

// BuildJob is Build of job, the whole game or an opening book.
func BuildJob(ctx context.Context, job *Job, dir string, workers int) (perfect.Summary, error) {
	if _, err := build(ctx, job, dir, workers); err != nil {
		return perfect.Summary{}, err
	}
	return Summary(ctx, job.rl, dir)
}

// Summary reads the finished database of rl's game in the folder dir,
// checks every file against the manifest's SHA-256, and gives its summary
// (Summarize). It writes nothing: Solve builds a database.
func Summary(ctx context.Context, rl rules.Rules, dir string) (perfect.Summary, error) {
	d, err := db.Open(dir, rl)
	if err != nil {
		return perfect.Summary{}, err
	}
	defer d.Close()
	if err := d.Verify(ctx); err != nil {
		return perfect.Summary{}, err
	}
	openings, _, err := perfect.MovesBy(rl, game.Board{}, func(child game.Board) (perfect.Outcome, error) {
		o, _, err := d.Probe(child)
		return o, err
	})
	if err != nil {
		return perfect.Summary{}, err
	}
	return Summarize(d.Manifest, openings), nil
}

// Counts are a solved game's positions by ply with its finished boards, as
// its database's manifest keeps them: what enumerate prints from a
// database. Classes and move sequences are not counted tier by tier.
type Counts struct {
	Game      rules.Spec       `json:"game"`
	Positions int64            `json:"positions"`
	Terminal  perfect.ByStatus `json:"terminal"`
	ByPly     []PlyCounts      `json:"by_ply"`
}

// PlyCounts are one ply's positions and finished boards.
type PlyCounts struct {
	Ply        int              `json:"ply"`
	Positions  int64            `json:"positions"`
	Terminal   int64            `json:"terminal"`
	TerminalBy perfect.ByStatus `json:"terminal_by_status"`
}

// Count reads the finished database of rl's game in the folder dir and
// gives its counts, as its manifest keeps them. It writes nothing.
func Count(rl rules.Rules, dir string) (Counts, error) {
	d, err := db.Open(dir, rl)
	if err != nil {
		return Counts{}, err
	}
	d.Close()
	m := d.Manifest
	c := Counts{Game: m.Game, Positions: m.Positions}
	for _, p := range m.Plies {
		c.ByPly = append(c.ByPly, PlyCounts{Ply: p.Ply, Positions: p.Positions, Terminal: p.Terminal.Total(), TerminalBy: p.Terminal})
		c.Terminal.XWon += p.Terminal.XWon
		c.Terminal.OWon += p.Terminal.OWon
		c.Terminal.Draw += p.Terminal.Draw
	}
	return c, nil
}
