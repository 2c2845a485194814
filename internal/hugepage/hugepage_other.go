//go:build !linux

package hugepage

// Advise does nothing outside Linux.
func Advise[T any](s []T) {}

// advise does nothing outside Linux.
func advise[T any](s []T) {}
