package dbwrite

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/internal/crc32c"
	"github.com/tateti-lab/tateti-lab/rules"
)

// WriteTier writes to w the tier file of ply p of the game of spec,
// placements codes, from the
// part files of its n tasks in rank order, which open opens, and gives the
// file's size and SHA-256: the bytes TierBytes gives from the same parts.
// It reads each part twice, its header and table first, for the file's
// table, and then whole, to check its blocks and copy them, so it holds one
// part at a time and never the ply: a ply of terabytes is written so.
func WriteTier(w io.Writer, spec rules.Spec, p int, placements int64, n int, open func(k int) (io.ReadCloser, error)) (int64, string, error) {
	out := &tally{w: w, sum: sha256.New()}
	firsts, checks, err := writeTable(out, spec, p, placements, n, open)
	if err != nil {
		return 0, "", err
	}
	for k := range n {
		if err := copyBlocks(out, p, k, firsts, checks[k], open); err != nil {
			return 0, "", err
		}
	}
	return out.n, hex.EncodeToString(out.sum.Sum(nil)), nil
}

// tally writes to w and counts and sums what it writes.
type tally struct {
	w   io.Writer
	sum hash.Hash
	n   int64
}

func (t *tally) Write(b []byte) (int, error) {
	t.sum.Write(b)
	k, err := t.w.Write(b)
	t.n += int64(k)
	return k, err
}

// writeTable writes the tier file's header, table and check from the
// parts' headers and tables, and gives each part's first rank (and the
// ply's end, last) and the check of its header and table, which its
// second reading must match.
func writeTable(out io.Writer, spec rules.Spec, p int, placements int64, n int, open func(k int) (io.ReadCloser, error)) ([]int64, []uint32, error) {
	le := binary.LittleEndian
	blocks := (placements + db.BlockLen - 1) / db.BlockLen
	check := crc32c.New()
	head := db.TierHead(spec, p, placements, blocks, db.Version)
	offset := uint64(len(head)) + uint64(blocks)*db.EntryLen + 4
	firsts, checks := make([]int64, n+1), make([]uint32, n)
	check.Write(head)
	if _, err := out.Write(head); err != nil {
		return nil, nil, err
	}
	for k := range n {
		head = head[:0]
		table, codes, sum, err := readPartHead(open, p, k, firsts[k])
		if err != nil {
			return nil, nil, err
		}
		for e := table; len(e) > 0; e = e[partEntryLen:] {
			head = le.AppendUint64(head, offset)
			head = append(head, e[:partEntryLen]...) // length u32, CRC-32C u32: the tier's entry but its offset
			offset += uint64(le.Uint32(e))
		}
		firsts[k+1], checks[k] = firsts[k]+codes, sum
		check.Write(head)
		if _, err := out.Write(head); err != nil {
			return nil, nil, err
		}
	}
	if firsts[n] != placements {
		return nil, nil, fmt.Errorf("ply %d: the parts hold %d codes, want %d", p, firsts[n], placements)
	}
	_, err := out.Write(le.AppendUint32(nil, check.Sum32()))
	return firsts, checks, err
}

// readPartHead reads the header and table of the part of task k of ply p,
// which must start at rank first, at a block's start, and gives the
// table, the part's codes and its check.
func readPartHead(open func(k int) (io.ReadCloser, error), p, k int, first int64) (table []byte, codes int64, check uint32, err error) {
	r, err := open(k)
	if err != nil {
		return nil, 0, 0, err
	}
	defer r.Close()
	head := make([]byte, partHeaderLen)
	if _, err := io.ReadFull(r, head); err != nil {
		return nil, 0, 0, fmt.Errorf("ply %d, task %d: a part's header: %w", p, k, err)
	}
	le := binary.LittleEndian
	codes, n := int64(le.Uint64(head[24:])), int64(le.Uint64(head[32:]))
	if first%db.BlockLen != 0 || n != (codes+db.BlockLen-1)/db.BlockLen {
		return nil, 0, 0, fmt.Errorf("ply %d, task %d: a part from rank %d of %d codes in %d blocks", p, k, first, codes, n)
	}
	rest := make([]byte, n*partEntryLen+4)
	if _, err := io.ReadFull(r, rest); err != nil {
		return nil, 0, 0, fmt.Errorf("ply %d, task %d: a part's table: %w", p, k, err)
	}
	whole := append(head, rest...)
	if _, err := parsePartHead(whole, p, first, codes); err != nil {
		return nil, 0, 0, fmt.Errorf("ply %d, task %d: %w", p, k, err)
	}
	return rest[:n*partEntryLen], codes, le.Uint32(rest[n*partEntryLen:]), nil
}

// copyBlocks reads the part of task k whole, checks it and that its header
// and table are those read first, and writes its blocks.
func copyBlocks(out io.Writer, p, k int, firsts []int64, check uint32, open func(k int) (io.ReadCloser, error)) error {
	r, err := open(k)
	if err != nil {
		return err
	}
	data, err := io.ReadAll(r)
	r.Close()
	if err != nil {
		return err
	}
	part, err := parsePart(data, p, firsts[k], firsts[k+1]-firsts[k])
	if err != nil {
		return fmt.Errorf("ply %d, task %d: %w", p, k, err)
	}
	tableEnd := partHeaderLen + len(part.blocks)*partEntryLen
	if binary.LittleEndian.Uint32(data[tableEnd:]) != check {
		return fmt.Errorf("ply %d, task %d: %w", p, k, errors.New("the part changed between its two readings"))
	}
	_, err = out.Write(data[tableEnd+4:])
	return err
}
