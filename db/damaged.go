package db

import (
	"errors"
	"fmt"
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
}

func (e *DamagedError) Error() string { return fmt.Sprintf("%s: %s; %s", e.Path, e.What, e.Fix) }

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
// same last ply, into a new folder.
func Rebuild(m Manifest, dir string) string {
	book := ""
	if m.MaxPly != nil {
		book = fmt.Sprintf(" --max-ply %d", *m.MaxPly)
	}
	return fmt.Sprintf("build it again into a new folder: tateti-lab db build %s%s %s-new", m.Game.Flags(), book, dir)
}
