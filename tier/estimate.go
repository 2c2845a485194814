package tier

import (
	"context"
	"fmt"
	"math/bits"
	"runtime"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/index"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
)

// Estimate is what a tier solve of a game needs, worked out before it
// starts from the placements of each ply.
type Estimate struct {
	Layout     string `json:"layout"`
	Placements int64  `json:"placements"` // every ply's, reachable or not
	Memory     uint64 `json:"memory"`     // the most held at once
	Disk       uint64 `json:"disk"`       // at most, uncompressed; the tier files take less
	// Seconds is the time the run would take at the rates measured on the
	// build machine (rates): a guide, not a promise.
	Seconds float64 `json:"seconds"`
}

// overhead is what a run holds besides its plies: the program, the
// runtime, the rank tables and each worker's compressor.
const overhead = 64 << 20

// rates are the placements a second one worker solved, both passes, on
// the 2-core build machine (docs/benchmarks.md, "Tier by tier"): Connect
// Four 6x5 and gravity 5x5 under gravity, free 4x5 with k=4 under free
// placement, where a position has many more children. A second worker
// added about half as much again.
var rates = map[string]float64{"heights": 7.5e6, "comb": 2.0e6}

// EstimateFor gives the estimate of a tier solve of rl's game with workers
// goroutines. Memory is the largest of the forward pass (two plies' bits) and the backward pass
// (two buffers of codes as large as the largest ply, a ply's compressed
// blocks, at most its codes, and its bits); disk, every ply's bits and codes
// before compression.
func EstimateFor(rl rules.Rules, workers int) (Estimate, error) {
	l, err := index.NewPlacements(rl.Spec().Spec, rl.Spec().Gravity)
	if err != nil {
		return Estimate{}, err
	}
	n := rl.Spec().Cells()
	if n > db.MaxDepth {
		return Estimate{}, fmt.Errorf("a board of %d cells has more than the %d plies a database's byte holds", n, db.MaxDepth)
	}
	total, largest := sizes(l, n)
	e := Estimate{Layout: l.Name(), Placements: total}
	var backward uint64
	for p := 0; p <= n; p++ {
		size, bits := uint64(l.Size(p)), 8*uint64(words(l.Size(p)))
		e.Disk += size + bits
		backward = max(backward, size+bits)
		if p < n {
			e.Memory = max(e.Memory, bits+8*uint64(words(l.Size(p+1))))
		}
	}
	e.Memory = max(e.Memory, 2*uint64(largest)+backward) + overhead
	speedup := 1 + 0.5*float64(min(workers, runtime.NumCPU())-1)
	e.Seconds = float64(e.Placements) / rates[e.Layout] / speedup
	return e, nil
}

// Check says why the estimate does not fit memory bytes (0: unknown) or
// the disk free at dir, if it does not.
func (e Estimate) Check(memory uint64, dir string) error {
	if memory != 0 && e.Memory > memory {
		return fmt.Errorf("a tier solve holds up to %s at once, more than the %s this run may use; raise TATETI_MEMORY if the machine has more", enumerate.Bytes(e.Memory), enumerate.Bytes(memory))
	}
	if free := freeDisk(dir); free != 0 && e.Disk > free {
		return fmt.Errorf("a tier solve may write up to %s, more than the %s free for folder %q; free some space or name a folder on another disk with --db", enumerate.Bytes(e.Disk), enumerate.Bytes(free), dir)
	}
	return nil
}

// Summarize gives the summary of the solved game in d, as solve gives it
// (the positions by ply and by value for X, X's first moves), with each
// ply's positions by value for the side to move beside.
func Summarize(d *db.DB, openings []solve.Move) solve.Summary {
	m := d.Manifest
	s := solve.Summary{Game: m.Game, Value: m.Value, Depth: m.Depth, Openings: openings}
	for _, p := range m.Plies {
		pv := solve.PlyValues{Ply: p.Ply, ValueCounts: solve.ValueCounts{XWins: p.Won, Draw: p.Drawn, OWins: p.Lost}}
		if p.Ply%2 == 1 { // O to move
			pv.XWins, pv.OWins = pv.OWins, pv.XWins
		}
		s.ByPly = append(s.ByPly, pv)
		s.PositionsByValue.XWins += pv.XWins
		s.PositionsByValue.Draw += pv.Draw
		s.PositionsByValue.OWins += pv.OWins
		s.ToMove = append(s.ToMove, solve.PlyToMove{Ply: p.Ply, Won: p.Won, Drawn: p.Drawn, Lost: p.Lost})
	}
	return s
}

// Summary solves rl's game into the database folder dir, or reads the one
// finished there, checks every file against the manifest's SHA-256, and
// gives its summary (Summarize).
func Summary(ctx context.Context, rl rules.Rules, dir string, workers int) (solve.Summary, error) {
	if _, err := Solve(ctx, rl, dir, workers); err != nil {
		return solve.Summary{}, err
	}
	d, err := db.Open(dir, rl)
	if err != nil {
		return solve.Summary{}, err
	}
	defer d.Close()
	if err := d.Verify(ctx); err != nil {
		return solve.Summary{}, err
	}
	var ms []solve.Move
	var b game.Board
	cols := rl.Spec().Cols
	for m := uint64(rl.Moves(b)); m != 0; m &= m - 1 {
		c := bits.TrailingZeros64(m)
		child := b.Play(c, game.X)
		v, depth, _, err := d.Probe(child)
		if err != nil {
			return solve.Summary{}, err
		}
		mv := solve.Move{Cell: c, Row: c / cols, Col: c % cols, Value: v, Depth: depth}
		if rl.Spec().HasIDs() {
			mv.Child = game.ID(child)
		}
		ms = append(ms, mv)
	}
	solve.Weigh(game.X, ms)
	return Summarize(d, ms), nil
}

// Counts are a solved game's positions by ply with its finished boards, as
// its database's manifest keeps them: what enumerate prints from a
// database. Classes and move sequences are not counted tier by tier.
type Counts struct {
	Game      rules.Spec  `json:"game"`
	Positions int64       `json:"positions"`
	Terminal  db.Terminal `json:"terminal"`
	ByPly     []PlyCounts `json:"by_ply"`
}

// PlyCounts are one ply's positions and finished boards.
type PlyCounts struct {
	Ply        int         `json:"ply"`
	Positions  int64       `json:"positions"`
	Terminal   int64       `json:"terminal"`
	TerminalBy db.Terminal `json:"terminal_by_status"`
}

// Count solves rl's game into the database folder dir, or reads the one
// finished there, and gives its counts.
func Count(ctx context.Context, rl rules.Rules, dir string, workers int) (Counts, error) {
	m, err := Solve(ctx, rl, dir, workers)
	if err != nil {
		return Counts{}, err
	}
	c := Counts{Game: m.Game, Positions: m.Positions}
	for _, p := range m.Plies {
		c.ByPly = append(c.ByPly, PlyCounts{Ply: p.Ply, Positions: p.Positions, Terminal: p.Terminal.Total(), TerminalBy: p.Terminal})
		c.Terminal.XWon += p.Terminal.XWon
		c.Terminal.OWon += p.Terminal.OWon
		c.Terminal.Draw += p.Terminal.Draw
	}
	return c, nil
}
