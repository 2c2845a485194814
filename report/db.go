package report

import (
	"fmt"
	"io"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/internal/figure"
	"github.com/tateti-lab/tateti-lab/tier"
)

// Checked writes what db check found: a line a tier, then the problems
// beyond one tier, then the verdict naming the damaged tiers.
func Checked(w io.Writer, c db.Checked) error {
	fmt.Fprintf(w, "database in %s: %s\n\n", c.Dir, c.Game.Words())
	t := newTable(w)
	fmt.Fprintln(t, "ply\tfile\t  check") // the check, last and unaligned, may be long
	for _, tc := range c.Tiers {
		verdict := "ok"
		if !tc.OK {
			verdict = "DAMAGED: " + tc.Problem
		}
		fmt.Fprintf(t, "%d\t%s\t  %s\n", tc.Ply, tc.File, verdict)
	}
	if err := t.Flush(); err != nil {
		return err
	}
	for _, p := range c.Problems {
		fmt.Fprintf(w, "manifest: %s\n", p)
	}
	if c.OK && c.Sampled > 0 {
		_, err := fmt.Fprintf(w, "\nok: every tier holds to its checksum and its counts, and %s of each ply, drawn at random, to the rules\n", count(c.Sampled, "position", "positions"))
		return err
	}
	if c.OK {
		_, err := fmt.Fprintf(w, "\nok: every tier holds to its checksum and its counts\n")
		return err
	}
	damaged := c.Damaged()
	_, err := fmt.Fprintf(w, "\nFAIL: %s %v, %s of the manifest; %s\n",
		count(len(damaged), "damaged tier", "damaged tiers"), damaged, count(len(c.Problems), "problem", "problems"), c.Fix)
	return err
}

// DBInfo writes what db info found of a database folder: the game, whether
// it is finished and its value, then a line a ply.
func DBInfo(w io.Writer, in tier.Info) error {
	fmt.Fprintf(w, "database in %s: %s\n", in.Dir, in.Game.Words())
	if in.MaxPly != nil {
		fmt.Fprintf(w, "an opening book: plies 0 to %d, ply %d valued by search\n", *in.MaxPly, *in.MaxPly)
	}
	packed := db.Packed(in.Layout)
	if packed {
		fmt.Fprintln(w, "a win/draw/loss database: each board with no line's value for its side to move, two bits (layout diagram); no depths")
	}
	switch {
	case in.Finished && packed && in.Reached != nil:
		fmt.Fprintf(w, "finished: %s; %s positions play reaches, %s of tiers (%.2f bits a position, %.2f a board with no line of the %s it holds)\n\n",
			Outcome(*in.Value), figure.Commas(*in.Reached), figure.Bytes(uint64(in.Bytes)), 8*float64(in.Bytes)/float64(max(*in.Reached, 1)),
			8*float64(in.Bytes)/float64(max(*in.Positions, 1)), figure.Commas(*in.Positions))
	case in.Finished && packed:
		fmt.Fprintf(w, "finished: %s; %s boards with no line, %s of tiers (%.2f bits a board); the positions play reaches not counted yet (db build DIR counts them)\n\n",
			Outcome(*in.Value), figure.Commas(*in.Positions), figure.Bytes(uint64(in.Bytes)), 8*float64(in.Bytes)/float64(max(*in.Positions, 1)))
	case in.Finished:
		fmt.Fprintf(w, "finished: %s; %s positions in %s placements, %s of tiers\n\n",
			OutcomeBy(*in.Value, int(*in.Depth)), figure.Commas(*in.Positions), figure.Commas(in.Placements), figure.Bytes(uint64(in.Bytes)))
	case packed:
		solved := 0
		for _, p := range in.Plies {
			solved += btoi(p.Solved)
		}
		fmt.Fprintf(w, "unfinished: %d of %d tiers, from the last ply; %s of tiers so far (db build resumes it)\n\n", solved, len(in.Plies), figure.Bytes(uint64(in.Bytes)))
	default:
		solved, reached := 0, 0
		for _, p := range in.Plies {
			solved += btoi(p.Solved)
			reached += btoi(p.Reached)
		}
		fmt.Fprintf(w, "unfinished: the forward pass has %d of %d plies, the backward pass %d tiers; %s placements, %s of tiers so far (db build resumes it)\n\n",
			reached, len(in.Plies), solved, figure.Commas(in.Placements), figure.Bytes(uint64(in.Bytes)))
	}
	t := newTable(w)
	fmt.Fprintln(t, "ply\tplacements\tpositions\ttier\tbytes\t")
	for _, p := range in.Plies {
		positions, file := "-", "-"
		if p.Positions != nil {
			positions = figure.Commas(*p.Positions)
		}
		if p.Solved {
			file = "written"
		} else if p.Reached {
			file = "reached"
		}
		fmt.Fprintf(t, "%d\t%s\t%s\t%s\t%s\t\n", p.Ply, figure.Commas(p.Placements), positions, file, figure.Commas(p.Bytes))
	}
	return t.Flush()
}

// btoi is 1 for true.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// count says n things: "1 damaged tier", "2 damaged tiers", "0 problems".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
