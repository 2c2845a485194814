//go:build !linux

package hugepage

// Advise does nothing outside Linux.
func Advise[T any](s []T) {}

// advise does nothing outside Linux.
func advise[T any](s []T) {}

// Map gives MakeAligned's array outside Linux.
func Map[T any](n int) *Mapped[T] { return &Mapped[T]{S: MakeAligned[T](n)} }
