package book

import (
	"bytes"
	"compress/flate"
	"context"
	"fmt"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/index"
	"github.com/tateti-lab/tateti-lab/rules"
)

// BenchmarkStorage measures, for each ply of the book built in, the bits a
// position its codes take under the ways of storing them weighed in
// docs/design/book-storage.md, each compressed with DEFLATE at level 9 as a
// whole ply: the tier's byte a placement as today; the same with every
// position whose mirror image is less (game.Least) left out as a zero; and
// those canonical positions alone, dense, in two planes, their values four
// to a byte and their depths a byte each, a draw's depth (the empty cells)
// and a decided position's parity (the winner moves last) left out; and the
// planes with the bitset of the ranks they hold (a bit a placement), which
// a reader needs to find a rank's place in them without the reach bits;
// and the values by rank instead, four placements a byte, 0 where no
// canonical position is (which tells a rank's place in the depths), with
// the depths' plane. The
// bits are counted against every position of the ply, mirror images
// included, as the book serves them.
//
//	go test ./book -run '^$' -bench Storage -benchtime 1x
func BenchmarkStorage(b *testing.B) {
	rl := rules.New(connectFour)
	layout, err := index.NewPlacements(connectFour.Spec, true)
	if err != nil {
		b.Fatal(err)
	}
	bk, _, _ := For(connectFour)
	for p := 0; p <= bk.Last(); p++ {
		codes := make([]byte, layout.Size(p))
		if err := db.ReadTier(context.Background(), "connect-four", p, codes, 2); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("ply=%02d", p), func(b *testing.B) {
			var s storage
			for range b.N {
				s = measure(rl, layout, p, codes)
			}
			for name, bytes := range map[string]int{"tier": s.tier, "canonical": s.canonical, "planes": s.planes, "planes+ranks": s.planes + s.ranks, "ranked-values+depths": s.ranked + s.depths,
				"canonical-blocks": s.canonicalBlocks, "canonical-zstd": s.canonicalZstd, "canonical-zstd-blocks": s.canonicalZstdBlocks} {
				b.ReportMetric(8*float64(bytes)/float64(s.positions), name+"-bits/position")
			}
		})
	}
}

// storage is what one ply's codes take, in bytes, each way.
type storage struct {
	positions, tier, canonical, planes, ranks, ranked, depths int
	// the canonical codes DEFLATEd a block (db.BlockLen) at a time, as a
	// tier file is; and with zstd at its best level, whole and by blocks
	canonicalBlocks, canonicalZstd, canonicalZstdBlocks int
}

// measure stores the codes of ply p each way.
func measure(rl rules.Rules, layout index.Placements, p int, codes []byte) storage {
	s := storage{tier: deflated(codes)}
	canon := bytes.Clone(codes)
	var values, depths []byte
	for r, c := range codes {
		if c == 0 {
			continue
		}
		s.positions++
		bd := layout.Unrank(p, int64(r))
		if least, _ := game.Least(bd, rl.Symmetries()); least != bd {
			canon[r] = 0
			continue
		}
		v, d, _ := db.Unpack(c)
		values = append(values, byte(v+1))
		if v != 0 { // a draw's depth is its empty cells; a decision's parity is known
			depths = append(depths, byte(d/2))
		}
	}
	s.canonical = deflated(canon)
	for lo := 0; lo < len(canon); lo += db.BlockLen {
		block := canon[lo:min(lo+db.BlockLen, len(canon))]
		s.canonicalBlocks += deflated(block)
		s.canonicalZstdBlocks += zstded(block)
	}
	s.canonicalZstd = zstded(canon)
	held := make([]byte, (len(codes)+7)/8)
	for r, c := range canon {
		if c != 0 {
			held[r/8] |= 1 << (r % 8)
		}
	}
	s.ranks = deflated(held)
	packed := make([]byte, (len(values)+3)/4)
	for i, v := range values {
		packed[i/4] |= v << (2 * (i % 4))
	}
	s.depths = deflated(depths)
	s.planes = deflated(packed) + s.depths
	ranked := make([]byte, (len(codes)+3)/4)
	for r, c := range canon {
		if c != 0 {
			v, _, _ := db.Unpack(c)
			ranked[r/4] |= byte(v+2) << (2 * (r % 4))
		}
	}
	s.ranked = deflated(ranked)
	return s
}

// zstded gives the bytes of data compressed by zstd at its best level.
func zstded(data []byte) int {
	e, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression))
	defer e.Close()
	return len(e.EncodeAll(data, nil))
}

// deflated gives the bytes of data compressed by DEFLATE at level 9.
func deflated(data []byte) int {
	var out bytes.Buffer
	w, _ := flate.NewWriter(&out, flate.BestCompression)
	w.Write(data)
	w.Close()
	return out.Len()
}
