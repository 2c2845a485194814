package db

import (
	"context"
	"fmt"
	"os"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/index"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Values is an open win/draw/loss database (Packed): the value of every
// position in progress, for its side to move, two bits each, ranked by
// the game's decision diagram, which opening it builds. A position's depth
// is not in it: package oracle finds it by a search the values guide.
type Values struct {
	Manifest Manifest
	Rules    rules.Rules
	diagram  *index.Diagram
	tiers    []*tierFile
	cache    *blockCache
}

// OpenValues opens the win/draw/loss database in dir for the game of rl:
// its manifest must name the same game and a packed layout, and every
// tier file's header and block table must check; blocks are checked as
// they are read.
func OpenValues(dir string, rl rules.Rules) (*Values, error) {
	m, unsound, err := manifestIn(os.DirFS(dir), dir)
	switch {
	case err != nil:
		return nil, err
	case unsound != nil:
		return nil, unsound
	case m.Game != rl.Spec():
		return nil, fmt.Errorf("folder %q holds the database of %s, not of %s; give that game's flags, or name another folder", dir, m.Game, rl.Spec())
	case !Packed(m.Layout):
		return nil, fmt.Errorf("folder %q holds the database of values and depths of %s (layout %s), not a win/draw/loss one", dir, m.Game, m.Layout)
	}
	d, err := index.NewDiagram(m.Game.Spec, m.Game.Gravity)
	if err != nil {
		return nil, err
	}
	v := &Values{Manifest: m, Rules: rl, diagram: d, cache: newBlockCache(256)}
	fix := Rebuild(m, dir)
	for p, ply := range m.Plies {
		if ply.Placements != d.Size(p) {
			v.Close()
			return nil, &DamagedError{Path: ManifestName, What: fmt.Sprintf("lists %d positions at ply %d, the game has %d", ply.Placements, p, d.Size(p)), Fix: fix}
		}
		t, err := openTier(os.DirFS(dir), dir, m.Game, p, CodeBytes(m.Layout, ply.Placements))
		if err != nil {
			v.Close()
			return nil, withFix(err, fix)
		}
		t.fix = fix
		v.tiers = append(v.tiers, t)
	}
	return v, nil
}

// Close closes the tier files.
func (v *Values) Close() error { return closeTiers(v.tiers) }

// Verify reads every tier file whole and checks its SHA-256 against the
// manifest.
func (v *Values) Verify(ctx context.Context) error { return verify(ctx, v.tiers, v.Manifest) }

// Value gives the value of b for X: the rules' for a finished board, the
// database's for one in progress, and false for a board with unfair
// counts or one gravity cannot stack. It reads at most one block.
func (v *Values) Value(b game.Board) (perfect.Value, bool, error) {
	if over, winner := v.Rules.Outcome(b); over {
		return perfect.Of(winner), true, nil
	}
	r := v.diagram.Rank(b)
	if r < 0 {
		return 0, false, nil
	}
	t := v.tiers[b.Ply()]
	block, err := v.cache.get(t, int(r/4/t.blockLen))
	if err != nil {
		return 0, false, err
	}
	code := PackedAt(block[r/4%t.blockLen:], r&3)
	if code == 0 {
		return 0, false, &DamagedError{Path: t.name, What: fmt.Sprintf("holds no value for the position of rank %d", r), Fix: t.fix}
	}
	return perfect.Value(code - 2).For(b.ToMove()), true, nil
}

// Split gives the DamagedError of a position b of the database, worth
// worth by its tier, whose moves weigh weigh by the tier after it: the
// two tiers are not of one game.
func (v *Values) Split(b game.Board, worth, weigh perfect.Value) error {
	t := v.tiers[b.Ply()]
	return &DamagedError{Path: t.name, What: fmt.Sprintf("gives %s %v, and its moves weigh %v: ply %d and the ply after it are not of one game",
		v.Rules.Spec().Format(b), worth, weigh, t.ply), Fix: t.fix}
}

// Lacks gives the DamagedError of a position b that can arise and that
// the database does not hold: its tier is damaged.
func (v *Values) Lacks(b game.Board) error { return v.tiers[b.Ply()].lacks(v.Rules.Spec(), b) }
