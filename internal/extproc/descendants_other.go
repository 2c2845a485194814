//go:build !linux

package extproc

// becomeSubreaper has no counterpart here.
func becomeSubreaper() {}

// killMarked cannot find processes by their environment here: a descendant
// that left the program's process group is not reached.
func killMarked(mark string, main int) {}
