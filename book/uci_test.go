package book

import (
	"context"
	"testing"

	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/positions"
	"github.com/tateti-lab/tateti-lab/rules"
)

// The book reproduces UCI's Connect-4 data set: its 67,557 quiet positions
// of ply 8 (no immediate win, no line to stop, one of each mirror pair),
// 44,473 won by the first player, 16,635 lost and 6,449 drawn (the labels
// John Tromp computed, in the set's description).
func TestUCI(t *testing.T) {
	_, d := open(t)
	eight := 8
	c := positions.Choice{From: "max_ply", MaxPly: &eight, Quiet: true}
	bs, _, err := c.Boards(context.Background(), rules.New(connectFour), 2, 1<<30, nil)
	if err != nil {
		t.Fatal(err)
	}
	by := map[perfect.Value]int{}
	for _, b := range bs {
		o, ok, err := d.Probe(b)
		if err != nil || !ok {
			t.Fatalf("%s: not in the book: %v", connectFour.Format(b), err)
		}
		by[o.Value]++
	}
	got := [4]int{len(bs), by[perfect.XWins], by[perfect.OWins], by[perfect.Draw]}
	if want := [4]int{67557, 44473, 16635, 6449}; got != want {
		t.Errorf("positions, won, lost and drawn by the first player: %v, want UCI's %v", got, want)
	}
}
