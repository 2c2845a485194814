// Package hugepage asks the system to back large arrays with transparent
// huge pages, where it leaves that to each program (Linux with
// transparent_hugepage set to madvise). A fresh huge page costs one page
// fault where 512 small pages cost 512 (docs/design/huge-pages.md has what
// that saves). The Go runtime leaves its heap to the system's setting
// (see https://go.dev/doc/gc-guide#Linux_transparent_huge_pages); this
// package advises only the arrays given to it. Elsewhere it does nothing.
package hugepage

import "unsafe"

// MinBytes is the smallest array Advise advises: below it, the whole huge
// pages inside an array are too few to pay for the system call.
const MinBytes = 4 << 20

// MinMapBytes is the smallest array Map puts on huge pages, an eighth of
// one: here a small page's first touch costs 9.5 µs and a huge page's 60
// µs (docs/design/huge-pages.md), so a huge page costs less once seven of
// its small pages would be touched, and an array of 64 small pages or
// more, such as a search's table of 2^15 entries, whose entries land
// anywhere in it, soon touches more than that.
const MinMapBytes = Size / 8

// Size is the huge page of x86-64, and of arm64 with 4 KB pages; where
// huge pages are of another size, the advice is still given, in 2 MiB
// aligned ranges, and the system applies it as it can.
const Size = 2 << 20

// Make makes a slice of length n and capacity c, as make does, and advises
// its array (see Advise) before anything touches it.
func Make[T any](n, c int) []T {
	s := make([]T, n, c)
	Advise(s)
	return s
}

// Mapped holds an array Map made, S, until Release or until the Mapped is
// collected, whichever comes first.
type Mapped[T any] struct {
	S       []T
	release func() // gives the memory back; nil when there is none to give
}

// Release gives the array's memory back at once, where Map mapped it, and
// empties S: the array must not be used after. Releasing again does
// nothing.
func (m *Mapped[T]) Release() {
	if m.release != nil {
		m.release()
		m.release = nil
	}
	m.S = nil
}

// MakeAligned makes a slice of length n, as make does, whose array starts
// on a huge page boundary when it holds at least one huge page (Size
// bytes), and advises it (Advise, whatever its size): its pages then come
// whole, a fault each, where Make's array, placed wherever the heap has
// room, may hold no whole huge page at 2 MiB and begins and ends on small
// ones past it. The array is allocated up to a huge page longer than asked
// and the slice starts at its first boundary; the pages before it are
// never touched, so they take no memory.
func MakeAligned[T any](n int) []T {
	var zero T
	elem := int(unsafe.Sizeof(zero))
	if elem == 0 || n*elem < Size {
		return Make[T](n, n)
	}
	s := make([]T, n+Size/elem)
	skip := (Size - int(uintptr(unsafe.Pointer(unsafe.SliceData(s)))%Size)) % Size
	s = s[skip/elem : skip/elem+n : skip/elem+n]
	advise(s)
	return s
}
