package tier

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/db/dbwrite"
	"github.com/tateti-lab/tateti-lab/internal/atomicfile"
	"github.com/tateti-lab/tateti-lab/internal/lazyregexp"
	"github.com/tateti-lab/tateti-lab/rules"
)

// CheckFolder says why dir cannot take the database of the game of spec,
// if it cannot: it must be missing, empty, or hold that game's database,
// finished or not; a file, a folder of other files or another game's
// database is refused.
func CheckFolder(dir string, spec rules.Spec) error { return checkFolder(dir, marker{Spec: spec}) }

// A marker is what a database folder's marker holds: the game's spec, an
// opening book's last ply, and the layout of a win/draw/loss database
// ("diagram"); the last two left out where they are not, so that a whole
// game's marker of values and depths is the spec's JSON alone.
type marker struct {
	rules.Spec
	MaxPly *int   `json:"max_ply,omitempty"`
	Layout string `json:"layout,omitempty"`
}

// bytes gives the bytes of the marker.
func (m marker) bytes() []byte {
	b, _ := json.Marshal(m) // a marker always marshals
	return b
}

// of gives the marker of the database m describes.
func of(m db.Manifest) marker {
	k := marker{Spec: m.Game, MaxPly: m.MaxPly}
	if m.Layout == wdlLayout {
		k.Layout = wdlLayout
	}
	return k
}

// same says whether two markers are of the same database.
func (m marker) same(o marker) bool {
	return m.Spec == o.Spec && sameLast(m.MaxPly, o.MaxPly) && m.Layout == o.Layout
}

// holds says what a database folder holds: the database of the game, its
// win/draw/loss database, or its opening book to a ply.
func (m marker) holds() string {
	switch {
	case m.Layout != "":
		return "the win/draw/loss database of " + m.Spec.String()
	case m.MaxPly == nil:
		return "the database of " + m.Spec.String()
	}
	return fmt.Sprintf("the opening book of %s to ply %d", m.Spec, *m.MaxPly)
}

// begun says the flags of db build that began a build of the database m
// marks.
func (m marker) begun() string {
	switch {
	case m.Layout != "":
		return " --wdl"
	case m.MaxPly == nil:
		return " or db build --reach-only"
	}
	return fmt.Sprintf(" --max-ply %d", *m.MaxPly)
}

// checkFolder is CheckFolder of the database the marker want marks.
func checkFolder(dir string, want marker) error {
	if to, err := os.Readlink(dir); err == nil {
		if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("folder %q is a link to %q, which does not exist; make the folder it names, or name another", dir, to)
		}
	}
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("folder %q cannot be read (%v); name a folder the database can be written in", dir, err)
	}
	if m, err := db.ReadManifest(dir); err == nil && !of(m).same(want) {
		return fmt.Errorf("folder %q holds %s, not %s; name another folder", dir, of(m).holds(), want.holds())
	}
	have, err := db.ReadRegular(os.DirFS(dir), db.MarkerName)
	switch {
	case err == nil && !bytes.Equal(have, want.bytes()):
		var m marker
		if json.Unmarshal(have, &m) != nil {
			return fmt.Errorf("folder %q: its marker %s is damaged (%q); name another folder, or remove it", dir, db.MarkerName, have)
		}
		return fmt.Errorf("folder %q holds an unfinished build of %s (begun by db build%s), not of %s; name another folder, or remove it", dir, m.holds(), m.begun(), want.holds())
	case err != nil && slices.ContainsFunc(entries, notTemporary):
		return fmt.Errorf("folder %q holds files that are not a database of tateti-lab; name a new or empty folder", dir)
	}
	return checkScratch(dir, entries)
}

// checkScratch says which file of entries, those of the database folder
// dir, is named as a run's scratch file (reach bits, a Beam task's range
// of them, a part, searched codes) but is not one, if one is: a run removes its scratch
// files, and must not take someone else's for its own.
func checkScratch(dir string, entries []fs.DirEntry) error {
	for _, e := range entries {
		name := e.Name()
		if !isScratchName(name) {
			continue
		}
		if !e.Type().IsRegular() || !isScratch(filepath.Join(dir, name)) {
			return fmt.Errorf("folder %q holds %s, named as a scratch file of tateti-lab but not one (or one cut short); move it out of the folder, or remove it", dir, name)
		}
	}
	return nil
}

// reachName matches the names ReachName gives.
var reachName = lazyregexp.New(`^reach-[0-9]{2}\.bits$`)

// isScratchName reports whether name is a scratch file's name.
func isScratchName(name string) bool {
	return reachName.MatchString(name) || countsName.MatchString(name) || taskReach.MatchString(name) || searchedName.MatchString(name) || dbwrite.IsPartName(name)
}

// isScratch reports whether the file path, named as a scratch file, is
// one: a part begins as one does (dbwrite.IsPart), and so do searched codes
// (SearchedName); bits end with their trailer,
// or are the empty file of a Beam task's range none of whose placements is
// reachable.
func isScratch(path string) bool {
	switch name := filepath.Base(path); {
	case dbwrite.IsPartName(name):
		return dbwrite.IsPart(path)
	case searchedName.MatchString(name):
		return isSearched(path)
	case countsName.MatchString(name):
		_, err := readCounts(path)
		return err == nil
	}
	f, err := db.OpenRegular(path)
	if err != nil {
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return err == nil && taskReach.MatchString(filepath.Base(path))
	}
	magic := make([]byte, len(bitsMagic))
	_, err = f.ReadAt(magic, st.Size()-bitsTrailerLen)
	return err == nil && string(magic) == bitsMagic
}

// notTemporary reports whether e is other than a file being written (as
// the marker of a run that has just claimed the folder is): a racing run
// must meet that run's lock, not take its marker for a stranger's file.
func notTemporary(e fs.DirEntry) bool {
	return !strings.Contains(e.Name(), atomicfile.TempInfix)
}

// Claim makes dir the folder of a database of the game of spec, or finds it
// so already (an unfinished run to resume), and locks it for this run; it
// refuses what CheckFolder refuses, and a folder another run holds. It
// removes the temporary files of a run that was killed. unlock releases the
// folder.
func Claim(dir string, spec rules.Spec) (unlock func(), err error) {
	return claim(dir, marker{Spec: spec})
}

// CheckFolder is the package's CheckFolder of job's database, the whole
// game's or an opening book's.
func (j *Job) CheckFolder(dir string) error { return checkFolder(dir, j.marker()) }

// marker gives the marker of job's database.
func (j *Job) marker() marker { return marker{Spec: j.rl.Spec(), MaxPly: j.maxPly()} }

// Claim is the package's Claim of job's database, the whole game's or an
// opening book's.
func (j *Job) Claim(dir string) (unlock func(), err error) {
	return claim(dir, j.marker())
}

// sameLast reports whether two books' last plies, nil for the whole game,
// are the same.
func sameLast(a, b *int) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

// claim is Claim of the database the marker want marks. The lock is the folder's own, which no run
// can replace under another, and it is taken before the marker is read or
// written: of two runs racing into one new folder, the second refuses at
// once, and the first checks the folder again under its lock.
func claim(dir string, want marker) (unlock func(), err error) {
	if err := checkFolder(dir, want); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, fmt.Errorf("folder %q cannot be made: %w", dir, err)
	}
	unlock, err = lock(dir)
	if err != nil {
		return nil, fmt.Errorf("folder %q: another run is solving into it (%v); wait for it to end, or name another folder", dir, err)
	}
	if err := claimLocked(dir, want); err != nil {
		unlock()
		return nil, err
	}
	return unlock, nil
}

// claimLocked checks the folder dir again under its lock, writes its
// marker where it has none, and removes a killed run's temporary files.
func claimLocked(dir string, want marker) error {
	if err := checkFolder(dir, want); err != nil {
		return err
	}
	marker := filepath.Join(dir, db.MarkerName)
	if _, err := os.Stat(marker); errors.Is(err, fs.ErrNotExist) {
		if err := atomicfile.Write(marker, want.bytes()); err != nil {
			return err
		}
	}
	removeTemporary(dir)
	return nil
}

// removeTemporary removes the temporary files a killed run left in dir.
func removeTemporary(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), atomicfile.TempInfix) && e.Type().IsRegular() {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// finish writes the manifest of the solved tiers, last, and removes the
// scratch files (reach bits, parts, searched codes): the database is finished.
func (r *run) finish(ctx context.Context, counts []db.Ply, root byte) (db.Manifest, error) {
	return finishIn(ctx, r.dir, counts, func(counts []db.Ply) db.Manifest { return r.Manifest(counts, root) })
}

// finishIn writes the manifest that manifest gives of the solved tiers
// of counts in dir, last, and removes the scratch files: the database is
// finished. A tier file a former run wrote is read for its SHA-256; this
// run's came with theirs.
func finishIn(ctx context.Context, dir string, counts []db.Ply, manifest func([]db.Ply) db.Manifest) (db.Manifest, error) {
	for p := range counts {
		if err := ctx.Err(); err != nil {
			return db.Manifest{}, err
		}
		c := &counts[p]
		var err error
		if c.SHA256 == "" {
			if c.Bytes, c.SHA256, err = db.FileSum(ctx, filepath.Join(dir, db.TierName(p))); err != nil {
				return db.Manifest{}, err
			}
		}
	}
	m := manifest(counts)
	if err := dbwrite.WriteManifest(dir, m); err != nil {
		return db.Manifest{}, err
	}
	return m, Tidy(dir)
}

// Tidy removes the scratch files of a finished database in dir: the
// reach bits, those of a Beam run's tasks (TaskReachName) where a killed
// run left them, and the parts and searched codes a run killed after
// writing their tier left. A file named as one that is not (isScratch) is left: the folder's
// check refuses such a file before a run begins (CheckFolder), and one that
// came later is someone else's.
func Tidy(dir string) error {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		name := filepath.Join(dir, e.Name())
		if !e.Type().IsRegular() || dbwrite.IsPartName(e.Name()) || !isScratchName(e.Name()) || !isScratch(name) {
			continue
		}
		if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return dbwrite.RemoveParts(dir, -1)
}

// readMarker gives the marker of the database folder dir: fs.ErrNotExist
// when there is none.
func readMarker(dir string) (marker, error) {
	data, err := db.ReadRegular(os.DirFS(dir), db.MarkerName)
	if err != nil {
		return marker{}, err
	}
	var m marker
	if err := json.Unmarshal(data, &m); err != nil {
		return m, fmt.Errorf("folder %q: its marker %s is damaged (%v); remove the folder and build the database again", dir, db.MarkerName, err)
	}
	return m, nil
}

// HoldsWDL says whether the folder dir holds a win/draw/loss database,
// finished or not: what a build into it resumes or finds, whatever fits.
func HoldsWDL(dir string) bool {
	k, _, err := folderGame(dir)
	return err == nil && k.Layout == wdlLayout
}

// rule gives the solve of the database the marker k marks: the whole
// game's, its opening book's, or its win/draw/loss solve.
func (k marker) rule() (db.Rule, error) {
	rl := rules.New(k.Spec)
	switch {
	case k.Layout == wdlLayout:
		return NewWDLJob(rl)
	case k.MaxPly != nil:
		return NewBook(rl, *k.MaxPly)
	}
	return NewJob(rl)
}

// Rule is db.RuleOf for the databases tier builds: a database is checked
// against the job that builds it (db.Check).
func Rule(spec rules.Spec, maxPly *int, layout string) (db.Rule, error) {
	k := marker{Spec: spec, MaxPly: maxPly}
	if layout == wdlLayout {
		k.Layout = wdlLayout
	}
	return k.rule()
}
