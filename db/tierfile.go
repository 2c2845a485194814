package db

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/crc32c"
	"github.com/tateti-lab/tateti-lab/internal/par"
	"github.com/tateti-lab/tateti-lab/rules"
)

// A tier file holds the codes of one ply's placements, in rank order, cut
// into blocks of BlockLen codes (the last may be shorter), each compressed
// on its own with raw DEFLATE (RFC 1951) so that a probe reads and inflates
// one block. All integers are little-endian:
//
//	header  magic "TTDBTIER", version u32, ply u32, placements u64, blocks u64,
//	        game: rows u8, cols u8, k u8, rules u8 (1 gravity, 2 misère), 4 zero bytes
//	table   per block: offset u64 (from the file's start), length u32,
//	        CRC-32C u32 of the compressed bytes
//	check   CRC-32C u32 of the header and the table
//	data    the blocks, one after another
//
// The game in the header is what binds a tier to its database: misère and
// normal play of one board have the same placements a ply, and a tier of
// the one, sound in itself, would be served as the other's. Versions 1 and
// 2 (folded), written before tiers named their game, have no game field;
// they are read still, each file held to its manifest's SHA-256 when it is
// opened (legacy). docs/database.md says the same for a reader in another
// language.
const (
	magic   = "TTDBTIER"
	Version = 3 // of the format: the manifest's and the tier files'

	version1  = 1                 // Version before tiers named their game
	headerLen = 8 + 4 + 4 + 8 + 8 // before the game
	gameLen   = 8
	EntryLen  = 8 + 4 + 4 // a block's entry in a tier file's table
	BlockLen  = 1 << 14   // codes a block
	// blockSlack bounds what compressing a block adds to its codes, at
	// worst: DEFLATE adds at most 5 bytes a stored block of 64 KiB, zstd
	// a few bytes of frame and block headers.
	blockSlack    = 1024
	MaxBlockBytes = BlockLen + blockSlack // a version 1 block's bound
	flateLevel    = flate.BestSpeed
)

// legacy reports whether tier files of the format version v name no game
// in their header: versions 1 and 2, read by their manifest's SHA-256.
func legacy(v uint32) bool { return v == version1 || v == folded2 }

// folded reports whether the format version v is a folded one (Folded).
func folded(v uint32) bool { return v == Folded || v == folded2 }

// headLen gives the bytes of the header of a tier file of the format
// version v, before its table.
func headLen(v uint32) int {
	if legacy(v) {
		return headerLen
	}
	return headerLen + gameLen
}

// GameBytes gives the game field of a tier file's header for the game of
// spec: rows, cols, k, the rules (1 gravity, 2 misère), 4 zero bytes.
func GameBytes(spec rules.Spec) [gameLen]byte {
	var rl byte
	if spec.Gravity {
		rl |= 1
	}
	if spec.Misere {
		rl |= 2
	}
	return [gameLen]byte{byte(spec.Rows), byte(spec.Cols), byte(spec.K), rl}
}

// gameWords says which game a tier header's game field names, for a
// message.
func gameWords(b []byte) string {
	if b[3] > 3 || [4]byte(b[4:8]) != [4]byte{} {
		return "no game this tateti-lab knows"
	}
	spec := rules.Spec{Spec: game.Spec{Rows: int(b[0]), Cols: int(b[1]), K: int(b[2])}, Gravity: b[3]&1 != 0, Misere: b[3]&2 != 0}
	return spec.String()
}

// blockLen gives the codes a block of a tier file of the format version
// holds: BlockLen, and FoldedBlockLen in a folded one.
func blockLen(version uint32) int64 {
	if folded(version) {
		return FoldedBlockLen
	}
	return BlockLen
}

// TierName is the file of ply p in a database folder.
func TierName(p int) string { return fmt.Sprintf("ply-%02d.tier", p) }

// blockEntry is a block's place in its file.
type blockEntry struct {
	offset uint64
	length uint32
	crc    uint32
}

// CompressBlocks cuts codes into blocks of BlockLen and compresses each on
// its own with raw DEFLATE, as a tier file of Version keeps them: a part's
// blocks, one task's work.
func CompressBlocks(codes []byte) [][]byte {
	blocks := make([][]byte, (len(codes)+BlockLen-1)/BlockLen)
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flateLevel) // the level is valid; reset for each block
	for i := range blocks {
		blocks[i] = deflate(w, &buf, codes[i*BlockLen:min((i+1)*BlockLen, len(codes))])
	}
	return blocks
}

// TierPieces gives the tier file of ply p of the game of spec, placements
// codes compressed in blocks as the format version says, as the pieces to
// write one after another: the header and table, then the blocks.
func TierPieces(spec rules.Spec, p int, placements int64, blocks [][]byte, version uint32) [][]byte {
	n := len(blocks)
	head := TierHead(spec, p, placements, int64(n), version)
	offset := uint64(len(head) + n*EntryLen + 4)
	for _, b := range blocks {
		head = binary.LittleEndian.AppendUint64(head, offset)
		head = binary.LittleEndian.AppendUint32(head, uint32(len(b)))
		head = binary.LittleEndian.AppendUint32(head, crc32c.Checksum(b))
		offset += uint64(len(b))
	}
	head = binary.LittleEndian.AppendUint32(head, crc32c.Checksum(head))
	return append([][]byte{head}, blocks...)
}

// TierHead gives the header of a tier file of ply p of the game of spec,
// placements codes in n blocks, of the format version: with its game
// unless the version is a legacy one. Its table follows, n entries of
// EntryLen bytes.
func TierHead(spec rules.Spec, p int, placements, n int64, version uint32) []byte {
	head := binary.LittleEndian.AppendUint32([]byte(magic), version)
	head = binary.LittleEndian.AppendUint32(head, uint32(p))
	head = binary.LittleEndian.AppendUint64(head, uint64(placements))
	head = binary.LittleEndian.AppendUint64(head, uint64(n))
	if !legacy(version) {
		g := GameBytes(spec)
		head = append(head, g[:]...)
	}
	return head
}

// deflate compresses one block with w, which writes to buf, and gives a
// copy of the compressed bytes.
func deflate(w *flate.Writer, buf *bytes.Buffer, b []byte) []byte {
	buf.Reset()
	w.Reset(buf)
	w.Write(b) // a bytes.Buffer takes everything
	w.Close()
	return bytes.Clone(buf.Bytes())
}

// InflateBlock inflates one block compressed by CompressBlocks into dst,
// which it must fill exactly.
func InflateBlock(raw, dst []byte) error {
	r := flate.NewReader(bytes.NewReader(raw))
	k, err := io.ReadFull(r, dst)
	if err != nil || k != len(dst) {
		return fmt.Errorf("does not inflate to %d codes: %v", len(dst), err)
	}
	return nil
}

// tierFile is an open tier file: its table read and checked.
type tierFile struct {
	f          io.ReaderAt
	name       string
	version    uint32 // Version, or Folded
	blockLen   int64  // the codes a block: blockLen(version)
	ply        int
	placements int64
	size       int64 // the file's bytes
	blocks     []blockEntry
	closer     io.Closer // the file, when it is one
	fix        string    // what to do when it is found damaged (DamagedError)
}

// openTier opens the tier file of ply p of the game of spec in fsys, the
// files of the folder dir, and checks its header and table against the
// game, the ply and the placements it must hold. Only a regular file is
// opened: a FIFO or a device would block or never end. A file of fsys
// that cannot be read at an offset is read whole. A missing file is a
// DamagedError that is fs.ErrNotExist too.
func openTier(fsys fs.FS, dir string, spec rules.Spec, p int, placements int64) (*tierFile, error) {
	name := filepath.Join(dir, TierName(p))
	fi, err := fs.Stat(fsys, TierName(p))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, &DamagedError{Path: name, What: "the file is missing", Fix: rebuildAgain, Err: fs.ErrNotExist}
	case err != nil:
		return nil, &DamagedError{Path: name, What: fmt.Sprintf("cannot be read (%v)", err), Fix: rebuildAgain}
	case !fi.Mode().IsRegular():
		return nil, &DamagedError{Path: name, What: fmt.Sprintf("is not a regular file (%v), and a tier is one", fi.Mode().Type()), Fix: rebuildAgain}
	}
	f, err := fsys.Open(TierName(p))
	if err != nil {
		return nil, &DamagedError{Path: name, What: fmt.Sprintf("cannot be read (%v)", err), Fix: rebuildAgain}
	}
	ra, ok := f.(io.ReaderAt)
	if !ok {
		data, err := io.ReadAll(io.LimitReader(f, fi.Size()))
		if err != nil {
			f.Close()
			return nil, err
		}
		ra = bytes.NewReader(data)
	}
	t, err := readTable(ra, fi.Size(), name, spec, p, placements)
	if err != nil {
		f.Close()
		return nil, err
	}
	t.closer = f
	return t, nil
}

// readTable reads and checks the header and the block table of f, of size
// bytes, the tier file of ply p of the game of spec.
func readTable(f io.ReaderAt, size int64, name string, spec rules.Spec, p int, placements int64) (*tierFile, error) {
	bad := func(what string) error { return &DamagedError{Path: name, What: what, Fix: rebuildAgain} }
	head := make([]byte, headerLen+gameLen)
	if k, _ := f.ReadAt(head, 0); k < headerLen {
		return nil, bad("too short for a tier file")
	}
	n, version := binary.LittleEndian.Uint64(head[24:]), binary.LittleEndian.Uint32(head[8:])
	bl := blockLen(version)
	switch {
	case string(head[:8]) != magic:
		return nil, bad("not a tier file")
	case version != Version && version != Folded && !legacy(version):
		return nil, bad(fmt.Sprintf("format version %d, want %d or %d (or 1 or 2, before tiers named their game)", version, Version, Folded))
	case !legacy(version) && size < int64(len(head)):
		return nil, bad("too short for a tier file")
	case int(binary.LittleEndian.Uint32(head[12:])) != p || int64(binary.LittleEndian.Uint64(head[16:])) != placements:
		return nil, bad("the header does not match the manifest")
	case n != uint64((placements+bl-1)/bl):
		return nil, bad("the block count does not match the placements")
	}
	head = head[:headLen(version)]
	table := make([]byte, int(n)*EntryLen+4)
	if _, err := f.ReadAt(table, int64(len(head))); err != nil {
		return nil, bad("too short for its block table")
	}
	body := table[:len(table)-4]
	if crc32c.Update(crc32c.Checksum(head), body) != binary.LittleEndian.Uint32(table[len(body):]) {
		return nil, bad("the header or block table fails its checksum")
	}
	if !legacy(version) && [gameLen]byte(head[headerLen:]) != GameBytes(spec) {
		return nil, bad(fmt.Sprintf("holds a tier of %s, not of %s: a file of another database", gameWords(head[headerLen:]), spec))
	}
	t := &tierFile{f: f, name: name, version: version, blockLen: bl, ply: p, placements: placements, size: size, blocks: make([]blockEntry, n), fix: rebuildAgain}
	for i := range t.blocks {
		e := body[i*EntryLen:]
		t.blocks[i] = blockEntry{binary.LittleEndian.Uint64(e), binary.LittleEndian.Uint32(e[8:]), binary.LittleEndian.Uint32(e[12:])}
		if b := t.blocks[i]; int64(b.length) > bl+blockSlack || b.offset > uint64(size) || b.offset+uint64(b.length) > uint64(size) {
			return nil, bad(fmt.Sprintf("block %d lies outside the file", i))
		}
	}
	return t, nil
}

// block reads block i, checks it and inflates it into dst, which must hold
// t.blockLen bytes; it gives the block's codes.
func (t *tierFile) block(i int, dst []byte) ([]byte, error) {
	e := t.blocks[i]
	raw := make([]byte, e.length)
	if _, err := t.f.ReadAt(raw, int64(e.offset)); err != nil {
		return nil, &DamagedError{Path: t.name, What: fmt.Sprintf("block %d cannot be read (%v)", i, err), Fix: t.fix}
	}
	if crc32c.Checksum(raw) != e.crc {
		return nil, &DamagedError{Path: t.name, What: fmt.Sprintf("block %d fails its checksum", i), Fix: t.fix}
	}
	want := int(min(t.blockLen, t.placements-int64(i)*t.blockLen))
	decode := InflateBlock
	if folded(t.version) {
		decode = unzstd
	}
	if err := decode(raw, dst[:want]); err != nil {
		return nil, &DamagedError{Path: t.name, What: fmt.Sprintf("block %d %v", i, err), Fix: t.fix}
	}
	return dst[:want], nil
}

// ReadTier reads the codes of ply p of the game of spec, len(dst) of them,
// from the tier file in dir into dst, checking every block: a tier of the
// format db build writes (Version), whose header names that game: what a
// build reads back of a former run. A missing file is an error that is
// fs.ErrNotExist; any other file is refused, to be removed and solved
// again.
func ReadTier(ctx context.Context, dir string, spec rules.Spec, p int, dst []byte, workers int) error {
	const fix = "remove it to solve its ply again"
	version, err := readTier(ctx, dir, spec, p, dst, workers)
	switch {
	case err == nil && version != Version:
		name := filepath.Join(dir, TierName(p))
		return &DamagedError{Path: name, What: fmt.Sprintf("format version %d, written by another tateti-lab; a build writes %d", version, Version), Fix: fix}
	case errors.Is(err, fs.ErrNotExist):
		return err
	}
	return withFix(err, fix)
}

// readTier reads the codes of ply p of the game of spec as ReadTier does,
// of any format version, a folded tier's as they are stored (the
// positions whose canonical image is another as 0), and gives the file's
// format version.
func readTier(ctx context.Context, dir string, spec rules.Spec, p int, dst []byte, workers int) (uint32, error) {
	t, err := openTier(os.DirFS(dir), dir, spec, p, int64(len(dst)))
	if err != nil {
		return 0, err
	}
	defer t.closer.Close()
	return t.version, t.into(ctx, dst, workers)
}

// DecodeTier gives the codes of ply p of the game of spec, placements of
// them, from data, the
// bytes of its tier file, checking every block: ReadTier for a file read
// some other way (from an object store, say); a folded tier's as they are
// stored.
func DecodeTier(ctx context.Context, data []byte, spec rules.Spec, p int, placements int64) ([]byte, error) {
	t, err := readTable(bytes.NewReader(data), int64(len(data)), TierName(p), spec, p, placements)
	if err != nil {
		return nil, err
	}
	codes := make([]byte, placements)
	return codes, t.into(ctx, codes, 1)
}

// all reads every block of the file into one slice of codes.
func (t *tierFile) all(ctx context.Context, workers int) ([]byte, error) {
	codes := make([]byte, t.placements)
	return codes, t.into(ctx, codes, workers)
}

// into reads every block of the file into codes, which holds the
// placements, by up to workers goroutines.
func (t *tierFile) into(ctx context.Context, codes []byte, workers int) error {
	return par.Ranges(ctx, 0, len(t.blocks), workers, func(_ context.Context, _, a, b int) error {
		for i := a; i < b; i++ {
			if _, err := t.block(i, codes[int64(i)*t.blockLen:min(int64(i+1)*t.blockLen, t.placements)]); err != nil {
				return err
			}
		}
		return nil
	})
}
