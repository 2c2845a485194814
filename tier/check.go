package tier

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

// A TierCheck is what Check found of one tier file: OK, or the first
// thing wrong with it.
type TierCheck struct {
	Ply     int    `json:"ply"`
	File    string `json:"file"`
	OK      bool   `json:"ok"`
	Problem string `json:"problem,omitempty"`
}

// A Checked database is what Check found: every tier, and whether the
// manifest's totals and the empty board's value agree with the tiers.
type Checked struct {
	Dir    string      `json:"dir"`
	Game   rules.Spec  `json:"game"`
	MaxPly *int        `json:"max_ply,omitempty"` // an opening book's last ply
	Tiers  []TierCheck `json:"tiers"`
	// Problems are what is wrong beyond one tier: the manifest's total of
	// positions, or its value and depth of the empty board.
	Problems []string `json:"problems"`
	OK       bool     `json:"ok"`
}

// Damaged lists the tiers that failed, as "ply-07.tier".
func (c Checked) Damaged() []string {
	var out []string
	for _, t := range c.Tiers {
		if !t.OK {
			out = append(out, t.File)
		}
	}
	return out
}

// Check reads every tier of the finished database in dir whole and holds
// it to the manifest: the file's size and SHA-256, every block's checksum
// as it is inflated, and the ply's counts (placements, positions by value
// for the side to move, finished boards by status) counted again from its
// codes; then the manifest's total of positions and the empty board's
// value and depth; and the manifest's own checksum; and the game's rules
// (checkRule): each position's code is what the next ply's codes make of
// it, each finished board's what the rules say. A damaged database is a
// Checked that is not OK, naming what is wrong; the error is for a folder that holds no finished
// database, or an interruption. Up to workers goroutines inflate a tier.
func Check(ctx context.Context, dir string, workers int) (Checked, error) {
	m, unsound, err := db.ManifestAsIs(dir)
	if err != nil {
		return Checked{}, err
	}
	c := Checked{Dir: dir, Game: m.Game, MaxPly: m.MaxPly, OK: true, Problems: []string{}}
	job, err := jobFor(m.Game, m.MaxPly)
	if err != nil && m.MaxPly != nil { // an unsound manifest's last ply
		c.problem(err.Error())
		job, err = NewJob(rules.New(m.Game))
	}
	if err != nil {
		return Checked{}, err
	}
	if unsound != nil {
		c.problem(unsound.Error())
	}
	if len(m.Plies) != job.Plies()+1 {
		c.problem(fmt.Sprintf("the manifest lists %d plies, want %d", len(m.Plies), job.Plies()+1))
	}
	var total int64
	var root byte
	var prev []byte // the codes of ply p-1, when its tier checked out
	for p, want := range m.Plies {
		codes, problem, err := checkTier(ctx, dir, p, want, job, workers)
		if err != nil {
			return Checked{}, err
		}
		c.Tiers = append(c.Tiers, TierCheck{Ply: p, File: db.TierName(p), OK: problem == "", Problem: problem})
		c.OK = c.OK && problem == ""
		if problem == "" && p <= job.Plies() {
			if err := c.checkRule(ctx, job, p, prev, codes, workers); err != nil {
				return Checked{}, err
			}
		}
		total += want.Positions
		if p == 0 && problem == "" {
			root = codes[0]
		}
		prev = codes
	}
	if total != m.Positions {
		c.problem(fmt.Sprintf("the manifest says %d positions, and its plies add up to %d", m.Positions, total))
	}
	if v, d, ok := db.Unpack(root); ok && (v != m.Value || d != m.Depth) {
		c.problem(fmt.Sprintf("the manifest gives the empty board value %d depth %d, and its tier %d and %d", m.Value, m.Depth, v, d))
	}
	return c, nil
}

// checkRule holds the codes of ply p to the game's rules: the codes of ply
// p-1 (prev, nil when that tier failed) to the backward rule from p's, and
// the finished boards of the last ply to what the rules say of them. A
// tier of another game, or of the same game under other rules, passes its
// own sums and counts but not this. The error is an interruption's alone.
func (c *Checked) checkRule(ctx context.Context, job *Job, p int, prev, codes []byte, workers int) error {
	if p == job.Plies() {
		r, bad, err := job.disagrees(ctx, p, codes, nil, workers)
		if err != nil || !bad {
			return err
		}
		c.Tiers[p].OK, c.Tiers[p].Problem = false, fmt.Sprintf("the finished board of rank %d is not what the rules of %s say of it", r, job.rl.Spec())
		c.OK = false
	}
	if prev == nil {
		return nil
	}
	r, bad, err := job.disagrees(ctx, p-1, prev, codes, workers)
	if err != nil || !bad {
		return err
	}
	c.problem(fmt.Sprintf("the position of rank %d of ply %d is not what the rules of %s make of ply %d's codes: the two tiers are not of one game", r, p-1, job.rl.Spec(), p))
	return nil
}

// problem records a problem beyond one tier.
func (c *Checked) problem(p string) {
	c.Problems = append(c.Problems, p)
	c.OK = false
}

// checkTier reads ply p's tier file in dir and holds it to want, its entry
// in the manifest: it gives the codes and "" when all agree, else what is
// wrong. The error is an interruption's alone.
func checkTier(ctx context.Context, dir string, p int, want db.Ply, job *Job, workers int) ([]byte, string, error) {
	if want.File != db.TierName(p) || want.Placements != job.Size(p) {
		return nil, fmt.Sprintf("the manifest lists it as %q of %d placements, want %q of %d", want.File, want.Placements, db.TierName(p), job.Size(p)), nil
	}
	name := filepath.Join(dir, want.File)
	size, sum, err := db.FileSum(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, "the file is missing", nil
	case err != nil:
		return nil, fmt.Sprintf("cannot be read: %v", err), nil
	case size != want.Bytes || sum != want.SHA256:
		return nil, fmt.Sprintf("%d bytes of SHA-256 %.12s…, the manifest says %d bytes of %.12s…", size, sum, want.Bytes, want.SHA256), nil
	}
	codes := make([]byte, want.Placements)
	if err := db.ReadTier(ctx, dir, p, codes, workers); err != nil {
		if ctx.Err() != nil {
			return nil, "", ctx.Err()
		}
		return nil, err.Error(), nil
	}
	got := job.Count(p, codes)
	got.File, got.Bytes, got.SHA256 = want.File, want.Bytes, want.SHA256
	if got != want {
		return nil, fmt.Sprintf("its codes count %d positions (%d won, %d drawn, %d lost), the manifest %d (%d, %d, %d)",
			got.Positions, got.Won, got.Drawn, got.Lost, want.Positions, want.Won, want.Drawn, want.Lost), nil
	}
	return codes, "", nil
}

// Info is what a database folder holds, finished or not: what db info
// prints.
type Info struct {
	Dir      string     `json:"dir"`
	Game     rules.Spec `json:"game"`
	MaxPly   *int       `json:"max_ply,omitempty"` // an opening book's last ply
	Finished bool       `json:"finished"`
	// Value and Depth are the empty board's, once finished.
	Value     *perfect.Value `json:"value"`
	Depth     *perfect.Depth `json:"depth"`
	Positions *int64         `json:"positions"` // once finished
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
	Positions  *int64 `json:"positions"` // once its tier is finished and counted in the manifest
	Reached    bool   `json:"reached"`   // the forward pass's bits of the ply are kept
	Solved     bool   `json:"solved"`    // its tier file is written
	Bytes      int64  `json:"bytes"`     // its tier file's size
}

// Inspect says what the database folder dir holds, without reading the
// tiers: the game (from the manifest, or an unfinished run's marker), and
// for each ply its placements and which files are there. A folder that is
// no database of tateti-lab is an error.
func Inspect(dir string) (Info, error) {
	spec, maxPly, m, err := folderGame(dir)
	if err != nil {
		return Info{}, err
	}
	job, err := jobFor(spec, maxPly)
	if err != nil {
		return Info{}, err
	}
	in := Info{Dir: dir, Game: spec, MaxPly: maxPly, Finished: m != nil}
	if m != nil {
		in.Value, in.Depth, in.Positions = &m.Value, &m.Depth, &m.Positions
	}
	for p := 0; p <= job.Plies(); p++ {
		pi := PlyInfo{Ply: p, Placements: job.Size(p)}
		if st, err := os.Stat(filepath.Join(dir, db.TierName(p))); err == nil {
			pi.Solved, pi.Bytes = true, st.Size()
		}
		if _, err := os.Stat(filepath.Join(dir, ReachName(p))); err == nil || p == 0 || m != nil {
			pi.Reached = true // ply 0 is the empty board; a finished run has let its bits go
		}
		if m != nil && p < len(m.Plies) {
			pi.Positions = &m.Plies[p].Positions
		}
		in.Placements += pi.Placements
		in.Bytes += pi.Bytes
		in.Plies = append(in.Plies, pi)
	}
	return in, nil
}

// folderGame gives the game of the database folder dir, an opening book's
// last ply (nil for the whole game), and its manifest when it is finished.
func folderGame(dir string) (rules.Spec, *int, *db.Manifest, error) {
	m, err := db.ReadManifest(dir)
	if err == nil {
		return m.Game, m.MaxPly, &m, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return rules.Spec{}, nil, nil, err
	}
	spec, maxPly, err := readMarker(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return rules.Spec{}, nil, nil, fmt.Errorf("folder %q holds no database of tateti-lab, finished or not", dir)
	}
	return spec, maxPly, nil, err
}
