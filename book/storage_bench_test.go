package book

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/binary"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/db/dbwrite"
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
	d, err := db.OpenFS(bk.Files, bk.Where(), rl)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	for p := 0; p <= bk.Last(); p++ {
		codes, err := d.Codes(context.Background(), p, 2) // unfolded: every position's code
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("ply=%02d", p), func(b *testing.B) {
			var s storage
			for range b.N {
				s = measure(rl, layout, p, 0, codes)
			}
			s.report(b)
		})
	}
}

// report gives each way's bits a position as the benchmark's metrics: the
// tier's against the positions it holds, the others' (which hold the
// canonical positions alone) against those they serve.
func (s storage) report(b *testing.B) {
	b.ReportMetric(8*float64(s.tier)/float64(s.positions), "tier-bits/position")
	for name, bytes := range map[string]int{"canonical": s.canonical, "planes": s.planes, "planes+ranks": s.planes + s.ranks, "ranked-values+depths": s.ranked + s.depths,
		"canonical-blocks": s.canonicalBlocks, "canonical-zstd": s.canonicalZstd, "canonical-zstd-blocks": s.canonicalZstdBlocks} {
		b.ReportMetric(8*float64(bytes)/float64(s.served), name+"-bits/position")
	}
}

// add sums t into s.
func (s *storage) add(t storage) {
	s.positions += t.positions
	s.served += t.served
	s.tier += t.tier
	s.canonical += t.canonical
	s.planes += t.planes
	s.ranks += t.ranks
	s.ranked += t.ranked
	s.depths += t.depths
	s.canonicalBlocks += t.canonicalBlocks
	s.canonicalZstd += t.canonicalZstd
	s.canonicalZstdBlocks += t.canonicalZstdBlocks
}

// partsDir is a Connect Four book build's folder, under way or not, whose
// part files BenchmarkStorageParts measures.
var partsDir = flag.String("parts", "", "the folder of a Connect Four book build: measure the storage of the part files there")

// BenchmarkStorageParts measures the ways of BenchmarkStorage on the part
// files of a Connect Four book build (-parts DIR), those of its last ply
// as they are written, before the build ends: each part is a block of
// codes, and each way is taken a block at a time, as a reader that probes
// one position needs (the "whole ply" ways too, so every way here is a
// block's). A part's first rank and its count of codes are in its header.
//
//	go test ./book -run '^$' -bench StorageParts -benchtime 1x -parts DIR
func BenchmarkStorageParts(b *testing.B) {
	if *partsDir == "" {
		b.Skip("no -parts DIR: name a Connect Four book build's folder")
	}
	rl := rules.New(connectFour)
	layout, err := index.NewPlacements(connectFour.Spec, true)
	if err != nil {
		b.Fatal(err)
	}
	names, err := filepath.Glob(filepath.Join(*partsDir, "ply-*.part-*"))
	if err != nil || len(names) == 0 {
		b.Fatalf("no part files in %s (%v)", *partsDir, err)
	}
	var s storage
	for range b.N {
		s = storage{}
		for _, name := range names {
			data, err := os.ReadFile(name)
			if err != nil {
				b.Fatal(err)
			}
			p, first, n := int(binary.LittleEndian.Uint32(data[12:])), int64(binary.LittleEndian.Uint64(data[16:])), binary.LittleEndian.Uint64(data[24:])
			codes := make([]byte, n)
			if _, err := dbwrite.DecodePart(data, p, first, codes); err != nil {
				b.Fatalf("%s: %v", name, err)
			}
			s.add(measure(rl, layout, p, first, codes))
			s.written += len(data)
		}
	}
	b.ReportMetric(float64(len(names)), "parts")
	b.ReportMetric(float64(s.positions), "positions")
	b.ReportMetric(float64(s.served), "served")
	b.ReportMetric(8*float64(s.written)/float64(s.positions), "part-files-bits/position")
	s.report(b)
}

// storage is what one ply's codes take, in bytes, each way.
type storage struct {
	positions, tier, canonical, planes, ranks, ranked, depths int
	// served counts the positions the canonical ones answer, themselves
	// and their mirror images (wherever those lie): over a whole ply, its
	// positions again; over some of its blocks, what their canonical ways
	// stand for.
	served int
	// the canonical codes DEFLATEd a block (db.BlockLen) at a time, as a
	// tier file is; and with zstd at its best level, whole and by blocks
	canonicalBlocks, canonicalZstd, canonicalZstdBlocks int
	written                                             int // the part files, as a build writes them
}

// measure stores the codes of ply p each way.
func measure(rl rules.Rules, layout index.Placements, p int, first int64, codes []byte) storage {
	s := storage{tier: deflated(codes)}
	canon := bytes.Clone(codes)
	var values, depths []byte
	for r, c := range codes {
		if c == 0 {
			continue
		}
		s.positions++
		bd := layout.Unrank(p, first+int64(r))
		least, orbit := game.Least(bd, rl.Symmetries())
		if least != bd {
			canon[r] = 0
			continue
		}
		s.served += orbit
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
