// Package checker owns four independent ways to tell whether a board is won,
// drawn or still open, one from each source article: primes (a prime per cell and
// the fundamental theorem of arithmetic), product (the k-th root of a line's
// product), counter (replayed marks counted per line) and lines (every window
// scanned cell by cell). Each finds its lines its own way, and none uses the
// bitmask lines of package game, so that their agreement means something.
package checker

import (
	"fmt"

	"github.com/tateti-lab/tateti-lab/game"
)

// A Checker tells the status of a board given as its cells, row-major. It only
// reads the cells; a Checker is safe for concurrent use.
type Checker interface {
	// Name is the checker's short name, such as "primes".
	Name() string
	// Status gives the board's status. On boards that cannot arise in play
	// (both players with a line, say) checkers may answer differently.
	Status(cells []game.Cell) game.Status
}

// Names lists the four checkers in the order of the source articles.
var Names = []string{"primes", "product", "counter", "lines"}

// New returns the named checker for boards of s.
func New(name string, s game.Spec) (Checker, error) {
	switch name {
	case "primes":
		return newPrimes(s)
	case "product":
		return newProduct(s), nil
	case "counter":
		return newCounter(s), nil
	case "lines":
		return newLines(s), nil
	}
	return nil, fmt.Errorf("checker %q is unknown, want one of %v", name, Names)
}

// All returns the four checkers for boards of s, in the order of Names.
func All(s game.Spec) ([]Checker, error) {
	out := make([]Checker, len(Names))
	for i, n := range Names {
		c, err := New(n, s)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}
