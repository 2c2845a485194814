// Package lazyregexp owns the file-name patterns kept in package
// variables: a Regexp is compiled the first time it is matched, not when
// its package starts, so that every run of the program, most of which
// match none of them, does not pay for compiling them all (the Go
// toolchain keeps an internal package of the same name for the same
// reason).
package lazyregexp

import (
	"regexp"
	"sync"
)

// Regexp is a regular expression compiled on its first use.
type Regexp struct {
	re func() *regexp.Regexp
}

// New gives the Regexp of pattern, which must compile: a bad pattern
// panics on first use, as regexp.MustCompile panics at once.
func New(pattern string) *Regexp {
	return &Regexp{re: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })}
}

// MatchString reports whether s holds a match of the expression.
func (r *Regexp) MatchString(s string) bool { return r.re().MatchString(s) }
