// Package db owns the solved game as a database on disk: a folder with a
// manifest (the game, its rules, the layout of the ranks, the format
// version, the positions by ply and by value for the side to move, and a
// SHA-256 of each file) and one tier file a ply, which keeps a byte for
// each placement of the ply (index.Placements): 0 for a board play cannot
// reach, else its value and depth. The bytes are compressed in blocks, so
// that a probe of one position reads and inflates one block, and each block
// carries a checksum, so that a damaged file is refused, never served. Best
// moves are not stored: a probe of the children gives them. It reads,
// probes and checks a database, and owns the format both sides share; it
// writes no file, so that a prober imports it alone: package dbwrite
// writes the files, and package tier solves the game into them.
// docs/database.md gives the format for other readers.
package db

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/index"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

// ManifestName is the manifest's file in a database folder; it is written
// last, so a folder without one holds no finished database.
const ManifestName = "manifest.json"

// MarkerName is the file that marks a folder as a database of tateti-lab,
// finished or not, from the start of its build; it holds the game's spec.
const MarkerName = ".tateti-db"

// IsDatabase reports whether the folder dir holds a database, finished or
// being built, sound or not: its marker, or a manifest that says it is a
// database's, of any version.
func IsDatabase(dir string) bool {
	if _, err := os.Lstat(filepath.Join(dir, MarkerName)); err == nil {
		return true
	}
	var m struct{ Format string }
	data, err := ReadRegular(os.DirFS(dir), ManifestName)
	return err == nil && json.Unmarshal(data, &m) == nil && m.Format == Format
}

// Format names the manifest's kind.
const Format = "tateti-lab solved game"

// Manifest describes a database.
type Manifest struct {
	Format    string        `json:"format"`
	Version   int           `json:"version"`
	Game      rules.Spec    `json:"game"`
	Layout    string        `json:"layout"`    // "comb", "heights" or "diagram": index.Placements' Name; Packed says how a tier holds codes
	BlockLen  int           `json:"block_len"` // codes a compressed block
	Value     perfect.Value `json:"value"`     // the empty board's, for X
	Depth     perfect.Depth `json:"depth"`     // the empty board's
	Positions int64         `json:"positions"` // reachable positions, every ply
	Plies     []Ply         `json:"plies"`     // one a ply, from 0
	// MaxPly is set on an opening book: the last ply it holds, valued
	// by search, the plies before it from the ones after. The positions
	// past it are not in it.
	MaxPly *int `json:"max_ply,omitempty"`
	// Reached counts, in a win/draw/loss database (Packed), whose plies
	// count its boards with no line, the positions play reaches at each
	// ply, finished boards among them, by value for the side to move, as
	// a database of values and depths counts its plies (no file, no
	// placements); empty until its forward pass has counted them.
	Reached []Ply `json:"reached,omitempty"`
	// Checksum is the SHA-256 of the manifest file with this field's hex
	// digits taken out ("checksum": ""): a manifest changed after the
	// build, its counts say, is refused where it is read.
	Checksum string `json:"checksum"`
}

// Ply is one ply's tier: its file, and its positions by value for the side
// to move (a finished board is lost or drawn for the side that would move).
type Ply struct {
	Ply        int    `json:"ply"`
	File       string `json:"file"`
	Placements int64  `json:"placements"`
	Positions  int64  `json:"positions"`
	Won        int64  `json:"won"`
	Drawn      int64  `json:"drawn"`
	Lost       int64  `json:"lost"`
	// Terminal counts the finished boards among the positions (depth 0)
	// by status, as enumerate counts them.
	Terminal perfect.ByStatus `json:"terminal"`
	Bytes    int64            `json:"bytes"`
	SHA256   string           `json:"sha256"`
}

// Packed says whether the tiers of a layout hold win, draw or loss alone
// for the side to move, two bits a position, four to a byte (the
// position of rank r at bits 2(r%4) of byte r/4; 1 lost, 2 drawn, 3 won,
// 0 none), as the win/draw/loss solve over the boards with no line writes
// them ("diagram"), not a byte of value and depth a placement.
func Packed(layout string) bool { return layout == "diagram" }

// The packed codes of a win/draw/loss tier (Packed): a position's value
// for its side to move; 0 is no position's, so that bytes not solved
// read as none.
const (
	PackedLost  byte = 1
	PackedDrawn byte = 2
	PackedWon   byte = 3
)

// PackedAt gives the packed code of rank r among codes, four to a byte.
func PackedAt(codes []byte, r int64) byte { return codes[r>>2] >> (2 * (r & 3)) & 3 }

// PackedValue gives the value for the side to move of a packed code
// (not 0).
func PackedValue(code byte) perfect.Value { return perfect.Value(code) - 2 }

// CodeBytes gives the bytes of a tier of n placements of a layout.
func CodeBytes(layout string, n int64) int64 {
	if Packed(layout) {
		return (n + 3) / 4
	}
	return n
}

// MaxDepth is the deepest a code holds: 6 bits.
const MaxDepth = 63

// Pack gives the code of a reachable position of value v (for X) and depth
// d: (v+2)<<6 | d, never 0.
func Pack(v perfect.Value, d perfect.Depth) byte { return byte(v+2)<<6 | byte(d) }

// Unpack gives the value and depth of a code, and false for 0, a board that
// play cannot reach.
func Unpack(c byte) (v perfect.Value, d perfect.Depth, ok bool) {
	if c == 0 {
		return 0, 0, false
	}
	return perfect.Value(c>>6) - 2, perfect.Depth(c & 63), true
}

// DB is an open database.
type DB struct {
	Manifest Manifest
	Rules    rules.Rules
	layout   index.Placements
	tiers    []*tierFile
	cache    *blockCache
	syms     [][]int // a folded database's symmetries, its positions read through their canonical image
}

// ErrUnfinished is the error of a folder that holds no finished database:
// it has no manifest. Such an error is fs.ErrNotExist too.
var ErrUnfinished = errors.New("no finished database")

// unfinishedError is ErrUnfinished for the folder dir.
type unfinishedError struct{ dir string }

func (e unfinishedError) Error() string {
	return fmt.Sprintf("folder %q holds no finished database (no %s)", e.dir, ManifestName)
}

func (e unfinishedError) Is(target error) bool {
	return target == ErrUnfinished || target == fs.ErrNotExist
}

// ReadManifest reads the manifest of the database in dir; an error that is
// ErrUnfinished (and fs.ErrNotExist) when it has none, and an error when
// it fails its checksum or its counts contradict one another.
func ReadManifest(dir string) (Manifest, error) {
	m, unsound, err := ManifestAsIs(dir)
	if err == nil {
		err = unsound
	}
	return m, err
}

// ManifestAsIs reads the manifest of the database in dir as ReadManifest
// does, but gives apart, as unsound, why it cannot be trusted (a failed
// checksum, counts that contradict one another), for db check to report
// beside what the tiers say. err is why it cannot be read at all.
func ManifestAsIs(dir string) (m Manifest, unsound, err error) {
	return manifestIn(os.DirFS(dir), dir)
}

// manifestIn is ManifestAsIs of the database whose files are fsys's, named
// dir in messages.
func manifestIn(fsys fs.FS, dir string) (m Manifest, unsound, err error) {
	name := filepath.Join(dir, ManifestName)
	data, err := ReadRegular(fsys, ManifestName)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return m, nil, unfinishedError{dir}
	case errors.Is(err, syscall.ENOTDIR):
		return m, nil, fmt.Errorf("%q is a file, not a database folder; name the folder db build wrote", dir)
	case err != nil:
		return m, nil, &DamagedError{Path: name, What: fmt.Sprintf("cannot be read (%v)", err), Fix: rebuildFolder}
	}
	if err := json.Unmarshal(data, &m); err != nil || m.Format != Format {
		return m, nil, &DamagedError{Path: name, What: "is not a solved game's manifest (cut short, or another tool's)", Fix: rebuildFolder}
	}
	if v := uint32(m.Version); v != Version && v != Folded && !legacy(v) {
		return m, nil, &DamagedError{Path: name, What: fmt.Sprintf("format version %d, this tateti-lab reads %d and %d (folded), and 1 and 2 before them", m.Version, Version, Folded), Fix: Rebuild(m, dir)}
	}
	if want := checksum(data, m.Checksum); m.Checksum != want {
		return m, &DamagedError{Path: name, What: "fails its checksum (or has none, from a tateti-lab before manifests had one): it was changed after the build, and its counts cannot be trusted", Fix: Rebuild(m, dir)}, nil
	}
	if err := m.check(); err != nil {
		return m, &DamagedError{Path: name, What: err.Error(), Fix: Rebuild(m, dir)}, nil
	}
	return m, nil, nil
}

// checksum gives the SHA-256, in hex, of the manifest file data with the
// hex digits of its checksum field, sum, taken out.
func checksum(data []byte, sum string) string {
	if sum != "" {
		data = bytes.Replace(data, []byte(`"checksum": "`+sum+`"`), []byte(`"checksum": ""`), 1)
	}
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

// check says how m's counts contradict one another, if they do: a ply
// for each number of marks on the board, in order, each ply's positions
// the sum of its won, drawn and lost, none negative, and the plies' sum
// the whole game's.
func (m Manifest) check() error {
	if m.MaxPly != nil && (*m.MaxPly < 0 || *m.MaxPly >= m.Game.Cells()) {
		return fmt.Errorf("max ply %d, want 0 to %d", *m.MaxPly, m.Game.Cells()-1)
	}
	if len(m.Plies) != m.Last()+1 {
		return fmt.Errorf("%d plies, want %d", len(m.Plies), m.Last()+1)
	}
	var sum int64
	for p, ply := range m.Plies {
		switch {
		case ply.Ply != p:
			return fmt.Errorf("ply %d listed at %d", ply.Ply, p)
		case ply.Positions < 0 || ply.Won < 0 || ply.Drawn < 0 || ply.Lost < 0 || ply.Positions > ply.Placements:
			return fmt.Errorf("ply %d: a count below zero, or more positions than placements", p)
		case ply.Won+ply.Drawn+ply.Lost != ply.Positions:
			return fmt.Errorf("ply %d: %d won, drawn and lost, and %d positions", p, ply.Won+ply.Drawn+ply.Lost, ply.Positions)
		}
		sum += ply.Positions
	}
	if sum != m.Positions {
		return fmt.Errorf("the plies hold %d positions, and the game %d", sum, m.Positions)
	}
	return nil
}

// Last gives the last ply m holds: MaxPly in an opening book, else the
// last of the game.
func (m Manifest) Last() int {
	if m.MaxPly != nil {
		return *m.MaxPly
	}
	return m.Game.Cells()
}

// Finished reads the manifest of the finished database in dir, which must
// be of the game of spec; it opens no tier. An opening book is refused:
// its callers read the whole game.
func Finished(dir string, spec rules.Spec) (Manifest, error) {
	m, err := Readable(dir, spec)
	if err == nil && m.MaxPly != nil {
		err = fmt.Errorf("folder %q holds an opening book of %s to ply %d, not the whole game; name a database of the whole game (db build without --max-ply)", dir, spec, *m.MaxPly)
	}
	return m, err
}

// Depths is Finished of a database that holds each position's depth
// beside its value, and counts the positions play reaches: a win/draw/loss
// database, which holds values alone of the boards with no line, is
// refused.
func Depths(dir string, spec rules.Spec) (Manifest, error) {
	m, err := Finished(dir, spec)
	if err == nil && Packed(m.Layout) {
		err = valuesAlone(dir, m)
	}
	return m, err
}

// valuesAlone is the refusal of the win/draw/loss database m in dir where
// a database of values and depths is wanted.
func valuesAlone(dir string, m Manifest) error {
	return fmt.Errorf("folder %q holds the win/draw/loss database of %s, values alone (layout %s), which answers positions (solve --db with --moves, export --db with --sample) but keeps no depth nor count of the positions play reaches; build one of values and depths where it fits (db build without --wdl)", dir, m.Game, m.Layout)
}

// Readable reads the manifest of the finished database in dir, which must
// be of the game of spec, the whole game or an opening book; it opens no
// tier.
func Readable(dir string, spec rules.Spec) (Manifest, error) {
	return ReadableFS(os.DirFS(dir), dir, spec)
}

// ReadableFS is Readable of the database whose files are fsys's, named
// dir in messages.
func ReadableFS(fsys fs.FS, dir string, spec rules.Spec) (Manifest, error) {
	m, unsound, err := manifestIn(fsys, dir)
	if err == nil {
		err = unsound
	}
	switch {
	case err != nil:
	case m.Game != spec:
		err = fmt.Errorf("folder %q holds the database of %s, not of %s; give that game's flags, or name another folder", dir, m.Game, spec)
	}
	return m, err
}

// Open opens the database in dir for the game of rl: its manifest must
// name the same game, and every tier file's header (its game among them)
// and block table must check; a tier of a legacy version, whose header
// names no game, must have the SHA-256 the manifest records. Blocks are
// checked as they are read.
func Open(dir string, rl rules.Rules) (*DB, error) { return OpenFS(os.DirFS(dir), dir, rl) }

// OpenFS is Open of the database whose files are those of fsys, named
// where in messages: an opening book built into the binary, say.
func OpenFS(fsys fs.FS, where string, rl rules.Rules) (*DB, error) {
	dir := where
	m, err := ReadableFS(fsys, dir, rl.Spec())
	if err != nil {
		return nil, err
	}
	if Packed(m.Layout) {
		return nil, valuesAlone(dir, m)
	}
	layout, err := index.NewPlacements(m.Game.Spec, m.Game.Gravity)
	if err != nil {
		return nil, err
	}
	if bl := blockLen(uint32(m.Version)); m.Layout != layout.Name() || int64(m.BlockLen) != bl {
		return nil, fmt.Errorf("%s: layout %q in blocks of %d, want %q in blocks of %d; %s", dir, m.Layout, m.BlockLen, layout.Name(), bl, Rebuild(m, dir))
	}
	d := &DB{Manifest: m, Rules: rl, layout: layout, cache: newBlockCache(256)}
	if folded(uint32(m.Version)) {
		d.syms = rl.Symmetries()
	}
	fix := Rebuild(m, dir)
	for p, ply := range m.Plies {
		t, err := openTier(fsys, dir, m.Game, p, ply.Placements)
		if err == nil {
			t.fix = fix
			d.tiers = append(d.tiers, t)
			err = t.sameAs(m, ply)
		}
		if err != nil {
			d.Close()
			return nil, withFix(err, fix)
		}
	}
	return d, nil
}

// sameAs checks that t is the tier the manifest m lists as ply: of its
// format version, and, for a legacy version whose header names no game,
// of the bytes whose SHA-256 it records, read whole (about 4 ms a
// megabyte here: docs/performance.md).
func (t *tierFile) sameAs(m Manifest, ply Ply) error {
	if t.version != uint32(m.Version) {
		return &DamagedError{Path: t.name, What: fmt.Sprintf("format version %d, the manifest's %d", t.version, m.Version), Fix: t.fix}
	}
	if !legacy(t.version) {
		return nil
	}
	size, sum, err := sumOf(io.NewSectionReader(t.f, 0, t.size))
	switch {
	case err != nil:
		return &DamagedError{Path: t.name, What: fmt.Sprintf("cannot be read (%v)", err), Fix: t.fix}
	case size != ply.Bytes || sum != ply.SHA256:
		return &DamagedError{Path: t.name, What: "is not the tier its manifest lists (its SHA-256 differs): a file of another database, or changed", Fix: t.fix}
	}
	return nil
}

// ErrPastBook is Probe's error for a position past an opening book's last
// ply: not in the book, for another engine to answer.
var ErrPastBook = errors.New("past the opening book's last ply")

// Close closes the tier files.
func (d *DB) Close() error { return closeTiers(d.tiers) }

// closeTiers closes tier files, all of them whatever fails.
func closeTiers(tiers []*tierFile) error {
	var errs []error
	for _, t := range tiers {
		errs = append(errs, t.closer.Close())
	}
	return errors.Join(errs...)
}

// Probe gives the value (for X) and depth of b, and false when play cannot
// reach b; ErrPastBook past an opening book's last ply. It reads at most
// one block.
func (d *DB) Probe(b game.Board) (o perfect.Outcome, ok bool, err error) {
	p := b.Ply()
	if p >= len(d.tiers) {
		return o, false, fmt.Errorf("ply %d: %w (ply %d)", p, ErrPastBook, len(d.tiers)-1)
	}
	if d.syms != nil { // folded: read through the canonical image
		b, _ = game.Least(b, d.syms)
	}
	r, t := d.layout.Rank(b), d.tiers[p]
	codes, err := d.cache.get(t, int(r/t.blockLen))
	if err != nil {
		return o, false, err
	}
	o.Value, o.Depth, ok = Unpack(codes[r%t.blockLen])
	return o, ok, nil
}

// Verify reads every tier file whole and checks its SHA-256 against the
// manifest.
func (d *DB) Verify(ctx context.Context) error { return verify(ctx, d.tiers, d.Manifest) }

// verify checks the SHA-256 of each of the tiers against the manifest m.
func verify(ctx context.Context, tiers []*tierFile, m Manifest) error {
	for p, t := range tiers {
		if err := ctx.Err(); err != nil {
			return err
		}
		_, sum, err := sumOf(io.NewSectionReader(t.f, 0, t.size))
		if err != nil {
			return err
		}
		if sum != m.Plies[p].SHA256 {
			return &DamagedError{Path: t.name, What: "fails its checksum", Fix: t.fix}
		}
	}
	return nil
}

// FileSum gives the size of the regular file name and the SHA-256 of its
// bytes, in hex; the cancellation of ctx stops it. A FIFO or a device is
// refused, never read: it might never end.
func FileSum(ctx context.Context, name string) (int64, string, error) {
	f, err := OpenRegular(name)
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	return sumOf(ctxReader{ctx, f})
}

// OpenRegular opens the file name for reading if it is a regular file
// (through links), and refuses anything else, a FIFO or a device, without
// opening it: opening a FIFO waits for a writer, and a device may never
// end.
func OpenRegular(name string) (*os.File, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%v)", name, fi.Mode().Type())
	}
	return os.Open(name)
}

// ReadRegular reads the file name in fsys whole, if it is a regular file,
// and refuses anything else without opening it (OpenRegular): the manifest
// or the marker of a database folder.
func ReadRegular(fsys fs.FS, name string) ([]byte, error) {
	fi, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%v)", name, fi.Mode().Type())
	}
	return fs.ReadFile(fsys, name)
}

// ctxReader reads from r until ctx is done.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(b []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(b)
}

// sumOf gives the bytes r reads and their SHA-256, in hex.
func sumOf(r io.Reader) (int64, string, error) {
	h := sha256.New()
	n, err := io.Copy(h, r)
	if err != nil {
		return 0, "", err
	}
	return n, hex.EncodeToString(h.Sum(nil)), nil
}

// ManifestBytes gives the bytes of the manifest file of m, sealed with its
// checksum (Manifest.Checksum).
func ManifestBytes(m Manifest) ([]byte, error) {
	m.Checksum = ""
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	data = append(data, '\n')
	m.Checksum = checksum(data, "")
	data, err = json.MarshalIndent(m, "", "  ")
	return append(data, '\n'), err
}

// TierPath gives the path of ply p's tier file, as errors name it.
func (d *DB) TierPath(p int) string { return d.tiers[p].name }

// Layout gives the ranks the database keys its placements by.
func (d *DB) Layout() index.Placements { return d.layout }

// Codes reads the codes of ply p whole, every block checked, inflated by
// up to workers goroutines: for work over a whole ply, a byte a placement.
func (d *DB) Codes(ctx context.Context, p, workers int) ([]byte, error) {
	codes, err := d.tiers[p].all(ctx, workers)
	if err != nil {
		return nil, err
	}
	return codes, d.Manifest.unfold(ctx, p, codes, workers)
}
