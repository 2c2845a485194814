package search

import (
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/tateti-lab/tateti-lab/internal/hugepage"
)

// A transposition table keeps the scores of positions searched, by their
// key: the marks of the side to move plus all marks, unique to a position
// in Pons' layout. The workers of one search share it without locks: an
// entry is one 64-bit word, read and written whole.
//
// The key is first hashed by a permutation of the 64-bit words (hash), so
// the hash h identifies the key. The low bits of h choose the slot among
// the first 2^b of the table, those in use, and the entry keeps the top
// tagBits bits of h (the tag) beside the score and what it is: with b at
// least 64-tagBits (MinTableBits), slot and tag hold all of h, whatever b
// was when the entry was stored, so a lookup never takes another
// position's score. The slots in use can so grow during a search, as it
// proves long (Solver.grow), with no entry made wrong: a position's
// earlier entry is merely not found where its slot moved. The tag takes
// 54 bits of the word, the score 8 and the flag 2. A search hashes a key
// once, and looks its entry up and stores it by the hash.
//
// A packed layout's key takes two words (wideKey): the hash h of the first
// and a second word v that together name the position. A wide table keeps
// v beside each entry (checks), and a lookup must find both; the two words
// of a slot are read and written under a lock of the slot's stripe, so that
// no worker reads one entry's h with another's v.
type table struct {
	slots  []atomic.Uint64
	bits   uint                 // the table holds 2^bits slots, of which the first 2^used are in use
	mask   atomic.Uint64        // 2^used-1: h&mask is h's slot
	most   uint                 // the most slots in use since the table was emptied: 2^most
	checks []uint64             // when wide, the v of each slot's entry
	locks  *[stripes]sync.Mutex // when wide, a slot i's lock is locks[i%stripes]
	// slotsMem and checksMem hold the memory of slots and checks
	// (hugepage.Map), given back by release or once the table is
	// collected: the table is used only through itself, so its arrays
	// live as long as it does.
	slotsMem  *hugepage.Mapped[atomic.Uint64]
	checksMem *hugepage.Mapped[uint64]
}

// stripes is how many locks a wide table's slots share.
const stripes = 1 << 10

// What a score kept is: exact, or a bound on the exact score; 0 marks an
// empty slot.
const (
	exact uint64 = iota + 1
	lower
	upper
)

// MinTableBits is the smallest table: 2^10 entries.
const MinTableBits = 10

// The fields of an entry, from the low bits up: flag, score, tag.
const (
	scoreShift = 2
	tagShift   = 10
	tagBits    = 64 - tagShift
)

// newTable gives a table of 1<<bits entries (8 bytes each, 16 when wide),
// on huge pages where the system gives them, the first 2^used in use: a
// probe lands anywhere in them. Its memory is the system's pages, mapped
// for it (hugepage.Map), taken as slots are first stored.
func newTable(bits, used int, wide bool) *table {
	t := &table{slotsMem: hugepage.Map[atomic.Uint64](1 << bits), bits: uint(bits)}
	t.slots = t.slotsMem.S
	if wide {
		t.checksMem, t.locks = hugepage.Map[uint64](1<<bits), new([stripes]sync.Mutex)
		t.checks = t.checksMem.S
	}
	t.use(used)
	return t
}

// use puts the first 2^b slots in use, b between MinTableBits and the
// table's bits.
func (t *table) use(b int) {
	b = max(MinTableBits, min(b, int(t.bits)))
	t.mask.Store(1<<b - 1)
	t.most = max(t.most, uint(b))
}

// used is the bits of the slots in use.
func (t *table) used() int { return bits.Len64(t.mask.Load()) }

// hash gives the hash of a key, a permutation of the 64-bit words whose
// low bits, which choose a slot, depend on every bit of the key: a
// multiplication by an odd constant mixes each bit into those above it,
// and the xor of the high half into the low half brings them back down.
// Both steps can be undone, so h identifies the key.
func hash(key uint64) uint64 {
	h := key * 0x9e3779b97f4a7c15
	return h ^ h>>32
}

// load gives the entry in the slot of hash h, whosever it is.
func (t *table) load(h uint64) uint64 {
	return t.slots[h&t.mask.Load()].Load()
}

// read gives what the entry e, loaded from the slot of hash h, says of h's
// position.
func read(h, e uint64) (score int, flag uint64, ok bool) {
	if e>>tagShift != h>>tagShift || e&3 == 0 {
		return 0, 0, false
	}
	return int(int8(uint8(e >> scoreShift))), e & 3, true
}

func (t *table) get(h uint64) (score int, flag uint64, ok bool) {
	return read(h, t.load(h))
}

func (t *table) put(h uint64, score int, flag uint64) {
	t.slots[h&t.mask.Load()].Store(h>>tagShift<<tagShift | uint64(uint8(int8(score)))<<scoreShift | flag)
}

// getWide is get in a wide table, for the key of hash h and second word v.
func (t *table) getWide(h, v uint64) (score int, flag uint64, ok bool) {
	i := h & t.mask.Load()
	l := &t.locks[i%stripes]
	l.Lock()
	e, c := t.slots[i].Load(), t.checks[i]
	l.Unlock()
	if c != v {
		return 0, 0, false
	}
	return read(h, e)
}

// putWide is put in a wide table.
func (t *table) putWide(h, v uint64, score int, flag uint64) {
	i := h & t.mask.Load()
	l := &t.locks[i%stripes]
	l.Lock()
	t.put(h, score, flag)
	t.checks[i] = v
	l.Unlock()
}

// clear empties every slot used since the table was last emptied (a wide
// table's checks need not be: an empty slot's entry matches nothing).
func (t *table) clear() {
	clear(t.slots[:1<<t.most])
	t.most = uint(t.used())
}

// release gives the table's memory back at once: it must not be used
// after. A Solver releases a table it replaces, between searches, when no
// worker holds it. Releasing no table (nil) does nothing.
func (t *table) release() {
	if t == nil {
		return
	}
	t.slotsMem.Release()
	if t.checksMem != nil {
		t.checksMem.Release()
	}
	t.slots, t.checks = nil, nil
}

// Bytes is the table's size.
func (t *table) bytes() uint64 { return uint64(len(t.slots)+len(t.checks)) * 8 }

// wantBits is the table a search of a position with empty empty cells
// wants: about a quarter of the positions it meets, which grow by about
// 1.7 a cell under gravity (w7h5's 35 empty cells meet 21 million, the
// empty 7x6 board's 42 some 670 million) and faster with free placement,
// where every empty cell is a move. A table much larger than the search
// costs time in cache and TLB misses (docs/design/search-table-size.md) as well as
// memory. Under gravity a position of at most 31 empty cells gets up to
// 2^18 entries (2 MiB, in cache), 2^(empty-9) at most: its searches are
// many null windows over the same few positions, and hold them better so
// (Middle-Medium's nodes fell by a quarter).
func wantBits(empty int, gravity bool) int {
	if gravity {
		return min(empty-9, max(empty-13, 18))
	}
	return empty + 2
}

// MaxTableBits is the largest table TableBitsFor gives: 2^26 entries, 512
// MiB. With the positions near the end in the workers' near tables, the
// shared table keeps only those nearer the root, and the empty Connect
// Four board searched its value in the same nodes a tenth faster than
// with 2^27 entries, and each first move's value no slower
// (docs/design/search-table-size.md).
const MaxTableBits = 26

// TableBitsFor gives the largest table that takes at most half of memory
// bytes, between MinTableBits and MaxTableBits; 2^24 entries (128 MiB) when
// memory is 0, not known. It is the most a Solver's table may take: a
// search takes what its position wants (wantBits) within it.
func TableBitsFor(memory uint64) int {
	if memory == 0 {
		return 24
	}
	b := MinTableBits
	for b < MaxTableBits && uint64(8)<<(b+1) <= memory/2 {
		b++
	}
	return b
}
