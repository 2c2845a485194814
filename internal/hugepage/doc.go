// Package hugepage asks the system to back large arrays with transparent
// huge pages, where it leaves that to each program (Linux with
// transparent_hugepage set to madvise). A fresh huge page costs one page
// fault where 512 small pages cost 512 (docs/design/huge-pages.md has what
// that saves). The Go runtime leaves its heap to the system's setting
// (see https://go.dev/doc/gc-guide#Linux_transparent_huge_pages); this
// package advises only the arrays given to it. Elsewhere it does nothing.
package hugepage

// MinBytes is the smallest array Advise advises: below it, the whole huge
// pages inside an array are too few to pay for the system call.
const MinBytes = 4 << 20

// Make makes a slice of length n and capacity c, as make does, and advises
// its array (see Advise) before anything touches it.
func Make[T any](n, c int) []T {
	s := make([]T, n, c)
	Advise(s)
	return s
}
