package dbwrite

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/internal/atomicfile"
	"github.com/tateti-lab/tateti-lab/internal/crc32c"
	"github.com/tateti-lab/tateti-lab/internal/lazyregexp"
	"github.com/tateti-lab/tateti-lab/rules"
)

// A part file holds one task's range of a ply's codes, compressed in the
// blocks its tier file will keep, so that the tier file is the parts'
// blocks one after another behind a new table (AssembleTier). All integers
// are little-endian:
//
//	header  magic "TTDBPART", version u32, ply u32, first rank u64,
//	        codes u64, blocks u64
//	table   per block: length u32, CRC-32C u32 of the compressed bytes
//	check   CRC-32C u32 of the header and the table
//	data    the blocks, one after another
//
// The first rank is a multiple of db.BlockLen. Parts are a run's scratch:
// they live beside the tier files until their tier is written.
const (
	partMagic     = "TTDBPART"
	partHeaderLen = 8 + 4 + 4 + 8 + 8 + 8
	partEntryLen  = 4 + 4
	// partVersion is the part file's own format version, which the tier
	// file's (db.Version) does not change: a part names no game, being a
	// run's scratch in a folder whose marker names it.
	partVersion = 1
)

// PartName is the file of task k of ply p in a database folder.
func PartName(p, k int) string { return fmt.Sprintf("ply-%02d.part-%06d", p, k) }

// partName matches the names PartName gives.
var partName = lazyregexp.New(`^ply-[0-9]{2}\.part-[0-9]{6}$`)

// IsPartName reports whether name is named as a part file is (PartName).
func IsPartName(name string) bool { return partName.MatchString(name) }

// IsPart reports whether the file path begins as a part file does: a file
// named as one that does not is someone else's, which no run may remove.
func IsPart(path string) bool {
	f, err := db.OpenRegular(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(partMagic))
	_, err = io.ReadFull(f, head)
	return err == nil && string(head) == partMagic
}

// A Part is one range of a ply's codes, compressed in blocks.
type Part struct {
	ply    int
	first  int64
	codes  int64
	blocks [][]byte
}

// WritePart compresses codes, those of ply p from rank first (a multiple
// of db.BlockLen), and writes them as the part file of task k in dir, as a
// unit. The bytes depend on the codes alone: writing a part again changes
// nothing.
func WritePart(dir string, p, k int, first int64, codes []byte) (Part, error) {
	part, data, err := EncodePart(p, first, codes)
	if err != nil {
		return Part{}, err
	}
	return part, atomicfile.WriteParts(filepath.Join(dir, PartName(p, k)), data...)
}

// EncodePart compresses codes, those of ply p from rank first (a multiple
// of db.BlockLen), into a part, and gives it with the bytes of its file, as
// pieces to write one after another.
func EncodePart(p int, first int64, codes []byte) (Part, [][]byte, error) {
	if first%db.BlockLen != 0 {
		return Part{}, nil, fmt.Errorf("a part starts at rank %d, not at a block's start", first)
	}
	blocks := db.CompressBlocks(codes)
	head := binary.LittleEndian.AppendUint32([]byte(partMagic), partVersion)
	head = binary.LittleEndian.AppendUint32(head, uint32(p))
	head = binary.LittleEndian.AppendUint64(head, uint64(first))
	head = binary.LittleEndian.AppendUint64(head, uint64(len(codes)))
	head = binary.LittleEndian.AppendUint64(head, uint64(len(blocks)))
	for _, b := range blocks {
		head = binary.LittleEndian.AppendUint32(head, uint32(len(b)))
		head = binary.LittleEndian.AppendUint32(head, crc32c.Checksum(b))
	}
	head = binary.LittleEndian.AppendUint32(head, crc32c.Checksum(head))
	part := Part{ply: p, first: first, codes: int64(len(codes)), blocks: blocks}
	return part, append([][]byte{head}, blocks...), nil
}

// ReadPart reads the part file of task k of ply p in dir, which must hold
// the codes from rank first, len(dst) of them; it checks every block and
// inflates the codes into dst. The error is fs.ErrNotExist when there is
// no such file.
func ReadPart(dir string, p, k int, first int64, dst []byte) (Part, error) {
	name := filepath.Join(dir, PartName(p, k))
	data, err := db.ReadRegular(os.DirFS(dir), PartName(p, k))
	if err != nil {
		return Part{}, err
	}
	part, err := DecodePart(data, p, first, dst)
	if err != nil {
		return Part{}, &db.DamagedError{Path: name, What: err.Error(), Fix: "remove it to run its task again"}
	}
	return part, nil
}

// DecodePart checks data, the bytes of a part file that must hold the
// codes of ply p from rank first, len(dst) of them, and inflates the codes
// into dst.
func DecodePart(data []byte, p int, first int64, dst []byte) (Part, error) {
	part, err := parsePart(data, p, first, int64(len(dst)))
	if err != nil {
		return Part{}, err
	}
	for i, b := range part.blocks {
		if err := db.InflateBlock(b, dst[i*db.BlockLen:min((i+1)*db.BlockLen, len(dst))]); err != nil {
			return Part{}, fmt.Errorf("block %d: %w", i, err)
		}
	}
	return part, nil
}

// parsePart checks data, the bytes of a part file that must hold codes
// codes of ply p from rank first: its header, its table and its blocks'
// checksums. It gives the part without inflating its blocks, as
// TierBytes takes them.
func parsePart(data []byte, p int, first, codes int64) (Part, error) {
	n, err := parsePartHead(data, p, first, codes)
	if err != nil {
		return Part{}, err
	}
	le := binary.LittleEndian
	part := Part{ply: p, first: first, codes: codes, blocks: make([][]byte, n)}
	at := partHeaderLen + n*partEntryLen + 4
	for i := range part.blocks {
		e := data[partHeaderLen+i*partEntryLen:]
		length := int(le.Uint32(e))
		if length > db.MaxBlockBytes || at+length > len(data) {
			return Part{}, fmt.Errorf("block %d lies outside the file", i)
		}
		part.blocks[i] = data[at : at+length]
		if crc32c.Checksum(part.blocks[i]) != le.Uint32(e[4:]) {
			return Part{}, fmt.Errorf("block %d fails its checksum", i)
		}
		at += length
	}
	if at != len(data) {
		return Part{}, errors.New("bytes follow its last block")
	}
	return part, nil
}

// parsePartHead checks the header and table at the start of data, a part
// file's, against the range it must hold, and gives its number of blocks.
func parsePartHead(data []byte, p int, first, codes int64) (int, error) {
	if len(data) < partHeaderLen {
		return 0, errors.New("too short for a part file")
	}
	le := binary.LittleEndian
	n := int64(le.Uint64(data[32:]))
	switch {
	case string(data[:8]) != partMagic || le.Uint32(data[8:]) != partVersion:
		return 0, errors.New("not a part file of this version")
	case int(le.Uint32(data[12:])) != p || int64(le.Uint64(data[16:])) != first || int64(le.Uint64(data[24:])) != codes:
		return 0, errors.New("its header names another range")
	case n != (codes+db.BlockLen-1)/db.BlockLen || int64(len(data)) < partHeaderLen+n*partEntryLen+4:
		return 0, errors.New("its block count does not match its codes")
	}
	tableEnd := partHeaderLen + int(n)*partEntryLen
	if crc32c.Checksum(data[:tableEnd]) != le.Uint32(data[tableEnd:]) {
		return 0, errors.New("the header or block table fails its checksum")
	}
	return int(n), nil
}

// AssembleTier writes the tier file of ply p of the game of spec,
// placements codes, from parts, which must cover the ply in rank order,
// and gives its size and SHA-256: the same bytes as the ply's codes
// compressed whole.
func AssembleTier(dir string, spec rules.Spec, p int, placements int64, parts []Part) (int64, string, error) {
	data, err := TierBytes(spec, p, placements, parts)
	if err != nil {
		return 0, "", err
	}
	return writeUnit(filepath.Join(dir, db.TierName(p)), data)
}

// TierBytes gives the bytes of the tier file of ply p of the game of
// spec, placements codes, assembled from parts, which must cover the ply
// in rank order, as pieces to write one after another; Sum gives their
// size and SHA-256.
func TierBytes(spec rules.Spec, p int, placements int64, parts []Part) ([][]byte, error) {
	var blocks [][]byte
	at := int64(0)
	for _, part := range parts {
		if part.ply != p || part.first != at {
			return nil, fmt.Errorf("ply %d: a part of ply %d from rank %d, want one from rank %d", p, part.ply, part.first, at)
		}
		blocks = append(blocks, part.blocks...)
		at += part.codes
	}
	if at != placements {
		return nil, fmt.Errorf("ply %d: the parts hold %d codes, want %d", p, at, placements)
	}
	return db.TierPieces(spec, p, placements, blocks, db.Version), nil
}

// RemoveParts removes the part files in dir of every task of ply p, or of
// every ply when p is negative: what a tier file, once written, makes
// needless. A file named as a part that is not one (IsPart) is left.
func RemoveParts(dir string, p int) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	prefix := fmt.Sprintf("ply-%02d.part-", p)
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !IsPartName(name) || (p >= 0 && !strings.HasPrefix(name, prefix)) {
			continue
		}
		if IsPart(filepath.Join(dir, name)) {
			if err := os.Remove(filepath.Join(dir, name)); err != nil {
				return err
			}
		}
	}
	return nil
}
