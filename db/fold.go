package db

import (
	"context"
	"fmt"
	"sync"

	"github.com/klauspost/compress/zstd"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/index"
	"github.com/tateti-lab/tateti-lab/internal/par"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Folded is the format version of a folded database (Fold): its tier
// files hold the codes of the canonical positions alone, a position whose
// canonical image (game.Least under the game's symmetries) is another
// stored as 0 and read through that image, and each block is compressed
// by zstd (RFC 8878) instead of DEFLATE, in blocks of FoldedBlockLen
// codes. The layout, the header and the table are Version's: a probe
// still reads one block. Over the opening book of Connect Four this takes
// under 3 bits a position, where version 1 takes about 4.6
// (docs/design/book-storage.md).
const Folded = 4

// folded2 is Folded before tiers named their game (legacy).
const folded2 = 2

// FoldedBlockLen is the codes a block of a folded tier holds: four times
// version 1's, for zstd's sake (2.95 bits a position over the 8-ply book,
// against 3.00 in blocks of BlockLen), at about 0.1 ms to read a block.
const FoldedBlockLen = 1 << 16

// zstdCodec is the one zstd encoder and decoder of folded tiers: both are
// safe for concurrent EncodeAll and DecodeAll.
var zstdCodec = sync.OnceValues(func() (*zstd.Encoder, *zstd.Decoder) {
	e, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression), zstd.WithEncoderCRC(false), zstd.WithEncoderConcurrency(1))
	if err != nil {
		panic(err) // the options are constants
	}
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecoderMaxMemory(FoldedBlockLen))
	if err != nil {
		panic(err)
	}
	return e, d
})

// unzstd decompresses raw, a folded tier's block, into dst, which it must
// fill exactly.
func unzstd(raw, dst []byte) error {
	_, d := zstdCodec()
	got, err := d.DecodeAll(raw, dst[:0])
	switch {
	case err != nil:
		return fmt.Errorf("does not decompress: %v", err)
	case len(got) != len(dst) || &got[0] != &dst[0]:
		return fmt.Errorf("decompresses to %d codes, want %d", len(got), len(dst))
	}
	return nil
}

// image gives the rank of the canonical image of the placement of rank r
// of ply p (game.Least under syms), and whether that is r itself.
func image(layout index.Placements, syms [][]int, p int, r int64) (int64, bool) {
	b := layout.Unrank(p, r)
	least, _ := game.Least(b, syms)
	if least == b {
		return r, true
	}
	return layout.Rank(least), false
}

// unfold fills in the codes of ply p that a folded tier leaves out: each
// position takes the code of its canonical image. A 0 whose image is
// itself stays 0, a placement play cannot reach; as the rules are
// symmetric, so is reachability. Nothing to do on version 1's codes.
func (m Manifest) unfold(ctx context.Context, p int, codes []byte, workers int) error {
	if !folded(uint32(m.Version)) {
		return nil
	}
	layout, err := index.NewPlacements(m.Game.Spec, m.Game.Gravity)
	if err != nil {
		return err
	}
	syms := rules.New(m.Game).Symmetries()
	// Only the zeros of positions not canonical are written, and only
	// canonical ones are read: no code is both.
	return par.Ranges(ctx, 0, len(codes), workers, func(ctx context.Context, _, a, b int) error {
		for r := a; r < b; r++ {
			if codes[r] != 0 {
				continue
			}
			if at, self := image(layout, syms, p, int64(r)); !self {
				codes[r] = codes[at]
			}
		}
		return ctx.Err()
	})
}

// FoldCodes leaves out of ply p's codes every position whose canonical
// image is another, and compresses them a block at a time with zstd, as a
// tier file of Folded keeps them.
func FoldCodes(codes []byte, layout index.Placements, syms [][]int, p int) [][]byte {
	folded := make([]byte, len(codes))
	for r, c := range codes {
		if c == 0 {
			continue
		}
		if _, self := image(layout, syms, p, int64(r)); self {
			folded[r] = c
		}
	}
	e, _ := zstdCodec()
	blocks := make([][]byte, (len(folded)+FoldedBlockLen-1)/FoldedBlockLen)
	for i := range blocks {
		blocks[i] = e.EncodeAll(folded[i*FoldedBlockLen:min((i+1)*FoldedBlockLen, len(folded))], nil)
	}
	return blocks
}
