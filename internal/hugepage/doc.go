// Package hugepage asks the system to back large arrays with transparent
// huge pages, where it leaves that to each program (Linux with
// transparent_hugepage set to madvise, as on this project's build
// machines). A fresh huge page costs one page fault where 512 small pages
// cost 512, and on a virtual machine a fault is dear: enumerating 4x4 k=4
// in a fresh process took 0.89-0.96 s, and 0.45-0.71 s with its largest
// arrays advised. The Go runtime leaves its heap to the system's setting
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
