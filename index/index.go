// Package index owns the maps from the state ids of one enumeration to its
// positions 0..Len()-1, which are ordered by ply, then by state id: a dense
// index over every raw board, for boards of at most 16 cells (3^16 bits with
// a rank table, O(1) with no search), and a sparse one for larger boards,
// whose memory grows with the positions, not the raw boards (each ply's
// sorted ids with a directory over their top bits, so that a lookup searches
// a handful of ids, not the whole ply). For solving boards whose
// enumeration does not fit, Comb and Heights rank the placements of a ply
// with no table of ids, and Diagram ranks only the boards with no line,
// by a decision diagram over the cells.
package index

import (
	"context"
	"math/bits"
	"slices"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/hugepage"
	"github.com/tateti-lab/tateti-lab/internal/par"
)

// Index maps the state ids of one enumeration to positions 0..Len()-1.
type Index interface {
	// Len is the number of positions.
	Len() int
	// ID gives the state id of position i.
	ID(i int) uint64
	// Lookup gives the position of a state id, and whether it is there.
	Lookup(id uint64) (i int, ok bool)
	// Children writes to dst[k] the position of the board that the board
	// of state id becomes when the side whose base-3 digit is digit (1 X,
	// 2 O) marks the k-th cell of moves, in increasing order, and returns
	// the count; dst has room for every cell. Every child must be in the
	// index. It is what a solve asks of each position, in one call, so
	// that an index keeps its lookups inlined in its own loop.
	Children(dst []int, id, digit uint64, moves game.Mask) int
}

// DenseCells is the largest board a Dense index is built for: past it, 3^n
// bits no longer fit memory, and enumerate builds a Sparse one.
const DenseCells = 16

// Dense is the index of a board of at most DenseCells cells: a bit per raw
// board, a rank table, and the position of each rank.
type Dense struct {
	ids   []uint64
	words []uint64
	rank  []uint32 // members in the words before each word
	perm  []uint32 // perm[rank of an id among all ids] is its position
}

// NewDense builds a Dense index over ids (any order).
func NewDense(cells int, ids []uint64) *Dense {
	words := make([]uint64, (game.Pow3(cells)+63)/64)
	for _, id := range ids {
		words[id>>6] |= 1 << (id & 63)
	}
	d, _ := NewDenseWords(context.Background(), words, ids, 1) // no context to stop it
	return d
}

// NewDenseWords builds a Dense index over ids (any order) whose bitset of
// the raw boards, a bit set for each of the ids and no other, is made
// already: words, which the index keeps. Up to workers goroutines fill the
// table of positions, each the entries of its own range of ids (the ids
// differ, so no two write the same entry).
func NewDenseWords(ctx context.Context, words []uint64, ids []uint64, workers int) (*Dense, error) {
	n := len(words)
	d := &Dense{ids: ids, words: words, rank: make([]uint32, n), perm: hugepage.Make[uint32](len(ids), len(ids))}
	var r uint32
	for w, x := range d.words {
		d.rank[w] = r
		r += uint32(bits.OnesCount64(x))
	}
	err := par.Ranges(ctx, 0, len(ids), workers, func(_ context.Context, _, lo, hi int) error {
		for i := lo; i < hi; i++ {
			d.perm[d.rankOf(ids[i])] = uint32(i)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

func (d *Dense) rankOf(id uint64) int {
	return int(d.rank[id>>6]) + bits.OnesCount64(d.words[id>>6]&(1<<(id&63)-1))
}

// Len is the number of positions.
func (d *Dense) Len() int { return len(d.ids) }

// ID gives the state id of position i.
func (d *Dense) ID(i int) uint64 { return d.ids[i] }

// Lookup gives the position of id.
func (d *Dense) Lookup(id uint64) (int, bool) {
	if id>>6 >= uint64(len(d.words)) || d.words[id>>6]>>(id&63)&1 == 0 {
		return 0, false
	}
	return int(d.perm[d.rankOf(id)]), true
}

// Children gives the positions of the children of id (see Index).
func (d *Dense) Children(dst []int, id, digit uint64, moves game.Mask) int {
	n := 0
	for m := uint64(moves); m != 0; m &= m - 1 {
		dst[n], _ = d.Lookup(id + digit*game.Pow3(bits.TrailingZeros64(m)))
		n++
	}
	return n
}

// Sparse is the index of a board of any size: each ply's ids, sorted, with a
// directory per ply that splits its id range into buckets, about one per
// bucketSize ids, holding where each bucket starts.
type Sparse struct {
	ids  []uint64
	plys []sparsePly
}

const bucketSize = 8

type sparsePly struct {
	lo, hi int    // its positions
	min    uint64 // its smallest id
	shift  uint   // bucket of id: (id - min) >> shift
	dir    []uint32
}

// NewSparse builds a Sparse index over ids, sorted within each ply, with
// start[p] the first position of ply p.
func NewSparse(ids []uint64, start []int) *Sparse {
	s := &Sparse{ids: ids, plys: make([]sparsePly, len(start)-1)}
	for p := range s.plys {
		s.plys[p] = newPly(ids, start[p], start[p+1])
	}
	return s
}

func newPly(ids []uint64, lo, hi int) sparsePly {
	p := sparsePly{lo: lo, hi: hi}
	if lo == hi {
		return p
	}
	p.min = ids[lo]
	span := ids[hi-1] - p.min
	buckets := uint64(max((hi-lo)/bucketSize, 1))
	for span>>p.shift >= buckets {
		p.shift++
	}
	p.dir = make([]uint32, span>>p.shift+2)
	b := 0
	for i := lo; i < hi; i++ {
		for k := int((ids[i] - p.min) >> p.shift); b <= k; b++ {
			p.dir[b] = uint32(i - lo)
		}
	}
	for ; b < len(p.dir); b++ {
		p.dir[b] = uint32(hi - lo)
	}
	return p
}

// Len is the number of positions.
func (s *Sparse) Len() int { return len(s.ids) }

// ID gives the state id of position i.
func (s *Sparse) ID(i int) uint64 { return s.ids[i] }

// Lookup gives the position of id: its ply from its marks, its bucket from
// the directory, and a binary search of the bucket.
func (s *Sparse) Lookup(id uint64) (int, bool) {
	ply := game.FromID(id).Ply()
	if ply >= len(s.plys) {
		return 0, false
	}
	p := &s.plys[ply]
	if p.lo == p.hi || id < p.min {
		return 0, false
	}
	k := (id - p.min) >> p.shift
	if k+1 >= uint64(len(p.dir)) {
		return 0, false
	}
	bucket := s.ids[p.lo+int(p.dir[k]) : p.lo+int(p.dir[k+1])]
	j, ok := slices.BinarySearch(bucket, id)
	return p.lo + int(p.dir[k]) + j, ok
}

// Children gives the positions of the children of id (see Index). It is
// Dense.Children's loop over this index's own Lookup: one generic loop for
// both would call Lookup through a dictionary, where each of these inlines
// its own.
func (s *Sparse) Children(dst []int, id, digit uint64, moves game.Mask) int {
	n := 0
	for m := uint64(moves); m != 0; m &= m - 1 {
		dst[n], _ = s.Lookup(id + digit*game.Pow3(bits.TrailingZeros64(m)))
		n++
	}
	return n
}
