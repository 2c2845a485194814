package oracle

import (
	"context"
	"fmt"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
)

// Database gives the oracle of the solved game in the database folder dir
// (package db), which must hold rl's game, finished: each answer probes the
// position and its children, a block read each at most.
func Database(rl rules.Rules, dir string) (Oracle, error) {
	d, err := db.Open(dir, rl)
	if err != nil {
		return nil, err
	}
	return &single{rl: rl, name: "db", settle: func(_ context.Context, b game.Board) (int8, int8, solve.Bounds, error) {
		v, depth, ok, err := d.Probe(b)
		switch {
		case err != nil:
			return 0, 0, solve.Bounds{Low: -1, High: 1}, err
		case !ok:
			if err := rules.CheckReachable(rl, b); err != nil {
				return 0, 0, solve.Bounds{Low: -1, High: 1}, err
			}
			return 0, 0, solve.Bounds{Low: -1, High: 1}, fmt.Errorf("%s can arise, and the database in %s does not hold it: the database is damaged; solve it again", rl.Spec().Format(b), dir)
		}
		return v, depth, solve.Bounds{Low: v, High: v}, nil
	}}, nil
}
