package tier

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/internal/atomicfile"
	"github.com/tateti-lab/tateti-lab/internal/lazyregexp"
)

// A count of the positions play reaches (WDLJob.ReachValues) keeps where
// it stands after each whole ply, so that a run stopped resumes there and
// repeats at most a ply: the reached boards of the next ply P in their bits
// file (ReachName(P)), and then the counts so far in a counts file
// (CountsName(P)): plies below P whole, and at P the finished boards with a
// line that plies below made. The bits are written first, the counts last,
// and the files of the ply before are removed after both: a counts file
// vouches for the bits beside it. A run resumes from the last ply whose
// counts file is there. The counts file is JSON:
//
//	{"version": 1, "ply": P, "plies": [...]}   (the manifest's db.Ply)
type countsFile struct {
	Version int      `json:"version"`
	Ply     int      `json:"ply"`
	Plies   []db.Ply `json:"plies"`
}

// countsVersion is the format version of a counts file.
const countsVersion = 1

// CountsName is the scratch file of a count's counts up to ply p.
func CountsName(p int) string { return fmt.Sprintf("reach-%02d.counts", p) }

// countsName matches the names CountsName gives.
var countsName = lazyregexp.New(`^reach-[0-9]{2}\.counts$`)

// readCounts reads the counts file at path: fs.ErrNotExist when there is
// none, another error when it is no counts file of this version.
func readCounts(path string) (countsFile, error) {
	data, err := db.ReadRegular(os.DirFS(filepath.Dir(path)), filepath.Base(path))
	if err != nil {
		return countsFile{}, err
	}
	var c countsFile
	if err := json.Unmarshal(data, &c); err != nil {
		return countsFile{}, err
	}
	if c.Version != countsVersion || filepath.Base(path) != CountsName(c.Ply) || len(c.Plies) <= c.Ply {
		return countsFile{}, errors.New("not a counts file of this version")
	}
	return c, nil
}

// keepCount keeps in dir where a count stands before ply p: cur, the
// reached boards of ply p, and plies, the counts so far; then removes the
// files of ply p-1.
func (j *WDLJob) keepCount(dir string, p int, cur []uint64, plies []db.Ply) error {
	if err := WriteBits(dir, p, cur); err != nil {
		return err
	}
	data, err := json.Marshal(countsFile{Version: countsVersion, Ply: p, Plies: plies})
	if err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(dir, CountsName(p)), data); err != nil {
		return err
	}
	for _, name := range []string{CountsName(p - 1), ReachName(p - 1)} {
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// resumeCount gives where a count kept in dir stands (keepCount): the ply
// to count next, its reached boards and the counts so far; ply 0 and the
// empty board where nothing is kept. Kept files that fail their check stop
// it, named with their fix.
func (j *WDLJob) resumeCount(dir string) (int, []uint64, []db.Ply, error) {
	for p := j.cells; p > 0; p-- {
		path := filepath.Join(dir, CountsName(p))
		c, err := readCounts(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err == nil && len(c.Plies) != j.cells+1 {
			err = fmt.Errorf("%d plies, want %d", len(c.Plies), j.cells+1)
		}
		if err != nil {
			return 0, nil, nil, db.Damaged(path, err, "remove it to count again")
		}
		cur := make([]uint64, words(j.Size(p)))
		name := filepath.Join(dir, ReachName(p))
		if err := readBitsFile(name, cur); err != nil {
			return 0, nil, nil, db.Damaged(name, err, "remove it and "+CountsName(p)+" to count again")
		}
		return p, cur, c.Plies, nil
	}
	from, cur, plies := j.freshCount()
	return from, cur, plies, nil
}

// freshCount gives where a count begins: ply 0, its one reached board (the
// empty board), and every ply's counts at 0.
func (j *WDLJob) freshCount() (int, []uint64, []db.Ply) {
	plies := make([]db.Ply, j.cells+1)
	for p := range plies {
		plies[p].Ply = p
	}
	return 0, []uint64{1}, plies
}
