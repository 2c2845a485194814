package search

import "github.com/tateti-lab/tateti-lab/internal/hugepage"

// A transposition table keeps the scores of positions searched, by their
// key: the marks of the side to move plus all marks, unique to a position
// in Pons' layout. An entry holds its key whole, so a lookup never takes
// another position's score; a new entry replaces the old in its slot.
type table struct {
	entries []entry
	mask    uint64
}

type entry struct {
	key   uint64
	score int8
	flag  uint8
}

// What a score kept is: exact, or a bound on the exact score.
const (
	exact uint8 = iota + 1
	lower
	upper
)

// newTable gives a table of 1<<bits entries, on huge pages where the
// system gives them: a probe lands anywhere in it.
func newTable(bits int) table {
	return table{entries: hugepage.Make[entry](1<<bits, 1<<bits), mask: 1<<bits - 1}
}

func (t *table) slot(key uint64) *entry {
	// A multiplicative hash spreads keys that differ in high bits only.
	return &t.entries[(key*0x9e3779b97f4a7c15)>>32&t.mask]
}

func (t *table) get(key uint64) (score int, flag uint8, ok bool) {
	e := t.slot(key)
	if e.key != key || e.flag == 0 {
		return 0, 0, false
	}
	return int(e.score), e.flag, true
}

func (t *table) put(key uint64, score int, flag uint8) {
	*t.slot(key) = entry{key: key, score: int8(score), flag: flag}
}
