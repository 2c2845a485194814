package enumerate

import (
	"math/bits"

	"github.com/tateti-lab/tateti-lab/game"
)

// idSet is a set of state ids as a bitset with a rank table, so that the rank
// of a member (how many members are smaller) costs one popcount.
type idSet struct {
	words []uint64
	rank  []uint32 // rank[w] is the number of members in words before w
}

func newIDSet(n uint64) *idSet {
	w := (n + 63) / 64
	return &idSet{words: make([]uint64, w), rank: make([]uint32, w)}
}

func (s *idSet) clear() { clear(s.words) }

func (s *idSet) add(id uint32) { s.words[id>>6] |= 1 << (id & 63) }

func (s *idSet) has(id uint32) bool { return s.words[id>>6]>>(id&63)&1 == 1 }

// buildRank fills the rank table and returns the number of members.
func (s *idSet) buildRank() int {
	n := uint32(0)
	for w, x := range s.words {
		s.rank[w] = n
		n += uint32(bits.OnesCount64(x))
	}
	return int(n)
}

// rankOf gives the number of members smaller than id; buildRank must have run.
func (s *idSet) rankOf(id uint32) int {
	return int(s.rank[id>>6]) + bits.OnesCount64(s.words[id>>6]&(1<<(id&63)-1))
}

// appendTo appends the members in increasing order.
func (s *idSet) appendTo(dst []uint32) []uint32 {
	for w, x := range s.words {
		for ; x != 0; x &= x - 1 {
			dst = append(dst, uint32(w)<<6|uint32(bits.TrailingZeros64(x)))
		}
	}
	return dst
}

func trailing(m game.Mask) int { return bits.TrailingZeros32(uint32(m)) }
