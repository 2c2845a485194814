package db

import (
	"errors"
	"fmt"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

// DamagedError is a file of a database folder, finished or being built,
// that fails its check: a tier, a part, reach bits, a journal of searched
// answers, cut short, changed or another's. Met by a command that reads
// the file, it is bad input (exit 2): the message names the file, what is
// wrong and the fix. db check, whose work is to find such files, reports
// them instead.
type DamagedError struct {
	Path string // the file
	What string // what is wrong with it
	Fix  string // what to do: remove it, or build the database again
	Err  error  // what it is besides, if anything: fs.ErrNotExist for a missing file
}

func (e *DamagedError) Error() string { return fmt.Sprintf("%s: %s; %s", e.Path, e.What, e.Fix) }

// Unwrap gives what the damage is besides (Err): a missing file is
// fs.ErrNotExist too.
func (e *DamagedError) Unwrap() error { return e.Err }

// Damaged gives the DamagedError of the file path, what is wrong and the
// fix; an error that is one already (a file of a file) is given as it is.
func Damaged(path string, what error, fix string) error {
	var de *DamagedError
	if errors.As(what, &de) {
		return what
	}
	return &DamagedError{Path: path, What: what.Error(), Fix: fix}
}

// rebuildAgain is the fix of a damaged tier file of a finished database,
// until the database that holds it names the command (Rebuild).
const rebuildAgain = "build the database again"

// rebuildFolder is the fix of a manifest that cannot be read, which names
// no game to build.
const rebuildFolder = "remove the folder and build the database again (tateti-lab db build with its game's flags)"

// withFix gives err with the fix of a damaged tier file set to fix.
func withFix(err error, fix string) error {
	var de *DamagedError
	if errors.As(err, &de) {
		de.Fix = fix
	}
	return err
}

// Rebuild gives the fix of a damaged file of the database of m in dir:
// the command that builds it again, the same game and, for a book, the
// same last ply (for a win/draw/loss database, --wdl), into a new folder.
func Rebuild(m Manifest, dir string) string {
	kind := ""
	switch {
	case m.MaxPly != nil:
		kind = fmt.Sprintf(" --max-ply %d", *m.MaxPly)
	case Packed(m.Layout):
		kind = " --wdl"
	}
	return fmt.Sprintf("build it again into a new folder: tateti-lab db build %s%s %s-new", m.Game.Flags(), kind, dir)
}

// Split gives the DamagedError of a position b of the database, worth
// worth by its tier, whose moves weigh weigh by the tier after it (or by
// search past an opening book's last ply): the two disagree, so the tier
// of b's ply is not of one game with the next, and b's tier is named.
func (d *DB) Split(b game.Board, worth, weigh perfect.Outcome) error {
	return d.tiers[b.Ply()].split(d.Rules.Spec(), b, worth, weigh)
}

// Lacks gives the DamagedError of a position b that can arise and that
// the database does not hold: its tier is damaged.
func (d *DB) Lacks(b game.Board) error { return d.tiers[b.Ply()].lacks(d.Rules.Spec(), b) }

// split gives the DamagedError of t, which gives b, a position of its
// ply, worth worth, whose moves weigh weigh: DB.Split.
func (t *tierFile) split(spec rules.Spec, b game.Board, worth, weigh perfect.Outcome) error {
	return &DamagedError{Path: t.name, What: fmt.Sprintf("gives %s %v in %d plies, and its moves weigh %v in %d: ply %d and the ply after it are not of one game",
		spec.Format(b), worth.Value, worth.Depth, weigh.Value, weigh.Depth, t.ply), Fix: t.fix}
}

// lacks gives the DamagedError of t, which does not hold b, a position of
// its ply that can arise: DB.Lacks.
func (t *tierFile) lacks(spec rules.Spec, b game.Board) error {
	return &DamagedError{Path: t.name, What: fmt.Sprintf("does not hold %s, which can arise", spec.Format(b)), Fix: t.fix}
}
