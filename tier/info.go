package tier

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Info is what a database folder holds, finished or not: what db info
// prints.
type Info struct {
	Dir    string     `json:"dir"`
	Game   rules.Spec `json:"game"`
	MaxPly *int       `json:"max_ply,omitempty"` // an opening book's last ply
	// Layout is how the tiers rank their positions: "heights" and "comb"
	// keep a value and depth a placement, "diagram" win, draw or loss a
	// board with no line (WDLJob).
	Layout   string `json:"layout"`
	Finished bool   `json:"finished"`
	// Value and Depth are the empty board's, once finished.
	Value     *perfect.Value `json:"value"`
	Depth     *perfect.Depth `json:"depth"`
	Positions *int64         `json:"positions"` // once finished; a win/draw/loss database's boards with no line
	// Reached is a finished win/draw/loss database's positions play
	// reaches, every ply, once its forward pass has counted them.
	Reached *int64 `json:"reached,omitempty"`
	// Placements are the tiers' entries, every ply; Bytes the tier files'
	// size on disk.
	Placements int64     `json:"placements"`
	Bytes      int64     `json:"bytes"`
	Plies      []PlyInfo `json:"plies"`
}

// PlyInfo is one ply of a database folder: its placements, its positions
// once counted, and which of its files are there.
type PlyInfo struct {
	Ply        int    `json:"ply"`
	Placements int64  `json:"placements"`
	Positions  *int64 `json:"positions"` // once its tier is finished and counted in the manifest (a win/draw/loss database's by its forward pass)
	Reached    bool   `json:"reached"`   // the forward pass's bits of the ply are kept
	Solved     bool   `json:"solved"`    // its tier file is written
	Bytes      int64  `json:"bytes"`     // its tier file's size
}

// Inspect says what the database folder dir holds, without reading the
// tiers: the game (from the manifest, or an unfinished run's marker), and
// for each ply its placements and which files are there. A folder that is
// no database of tateti-lab is an error.
func Inspect(dir string) (Info, error) {
	k, m, err := folderGame(dir)
	if err != nil {
		return Info{}, err
	}
	job, err := k.rule()
	if err != nil {
		return Info{}, err
	}
	in := Info{Dir: dir, Game: k.Spec, MaxPly: k.MaxPly, Layout: job.Layout(), Finished: m != nil}
	if m != nil {
		in.Value, in.Depth, in.Positions = &m.Value, &m.Depth, &m.Positions
		in.Reached = reachedTotal(m.Reached)
	}
	for p := 0; p <= job.Plies(); p++ {
		pi := PlyInfo{Ply: p, Placements: job.Size(p)}
		if st, err := os.Stat(filepath.Join(dir, db.TierName(p))); err == nil {
			pi.Solved, pi.Bytes = true, st.Size()
		}
		if _, err := os.Stat(filepath.Join(dir, ReachName(p))); err == nil || p == 0 || m != nil || k.Layout != "" {
			pi.Reached = true // ply 0 is the empty board; a finished run has let its bits go
		}
		switch {
		case m != nil && p < len(m.Reached):
			pi.Positions = &m.Reached[p].Positions
		case m != nil && p < len(m.Plies) && !db.Packed(m.Layout):
			pi.Positions = &m.Plies[p].Positions
		}
		in.Placements += pi.Placements
		in.Bytes += pi.Bytes
		in.Plies = append(in.Plies, pi)
	}
	return in, nil
}

// reachedTotal gives the positions the plies count, nil for none.
func reachedTotal(plies []db.Ply) *int64 {
	if len(plies) == 0 {
		return nil
	}
	var n int64
	for _, p := range plies {
		n += p.Positions
	}
	return &n
}

// folderGame gives the marker of the database folder dir, its
// manifest's where it is finished, and the manifest.
func folderGame(dir string) (marker, *db.Manifest, error) {
	m, err := db.ReadManifest(dir)
	if err == nil {
		return of(m), &m, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return marker{}, nil, err
	}
	k, err := readMarker(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return marker{}, nil, fmt.Errorf("folder %q holds no database of tateti-lab, finished or not", dir)
	}
	return k, nil, err
}
