package checker

import (
	"fmt"
	"math/bits"

	"github.com/tateti-lab/tateti-lab/game"
)

// primes is the prime-product article: cell i gets the i-th prime; a player's score is the
// product of the primes of its cells; a line is won when the product of its
// cells' primes divides the score. By the fundamental theorem of arithmetic
// that happens exactly when the player holds every cell of the line. Scores are
// 128-bit so that they stay exact where products pass 64 bits (16 cells already
// multiply to 32,589,158,477,190,044,730, past 2^64).
type primes struct {
	prime   []uint64
	winners []uint64 // the product of each line's primes
}

func newPrimes(s game.Spec) (*primes, error) {
	p := &primes{prime: firstPrimes(s.Cells())}
	// The score of a full board is the product of every prime: it must fit.
	var hi, lo uint64 = 0, 1
	for _, q := range p.prime {
		var carry uint64
		carry, lo = bits.Mul64(lo, q)
		h1, h2 := bits.Mul64(hi, q)
		if h1 != 0 {
			return nil, fmt.Errorf("primes checker: %s has too many cells for 128-bit scores", s.Size())
		}
		var c uint64
		hi, c = bits.Add64(h2, carry, 0)
		if c != 0 {
			return nil, fmt.Errorf("primes checker: %s has too many cells for 128-bit scores", s.Size())
		}
	}
	// The winning products, walking from every cell in four directions.
	for r := range s.Rows {
		for c := range s.Cols {
			for _, d := range [][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}} {
				prod := uint64(1)
				for j := range s.K {
					rr, cc := r+j*d[0], c+j*d[1]
					if rr < 0 || rr >= s.Rows || cc < 0 || cc >= s.Cols {
						prod = 0
						break
					}
					prod *= p.prime[rr*s.Cols+cc]
				}
				if prod != 0 {
					p.winners = append(p.winners, prod)
				}
			}
		}
	}
	return p, nil
}

// firstPrimes lists the first n primes by trial division.
func firstPrimes(n int) []uint64 {
	var out []uint64
	for q := uint64(2); len(out) < n; q++ {
		prime := true
		for _, d := range out {
			if d*d > q {
				break
			}
			if q%d == 0 {
				prime = false
				break
			}
		}
		if prime {
			out = append(out, q)
		}
	}
	return out
}

func (p *primes) Name() string { return "primes" }

// u128 is an unsigned 128-bit number.
type u128 struct{ hi, lo uint64 }

func (a u128) mul(q uint64) u128 {
	h, l := bits.Mul64(a.lo, q)
	return u128{hi: a.hi*q + h, lo: l}
}

func (a u128) divisibleBy(d uint64) bool {
	_, rem := bits.Div64(a.hi%d, a.lo, d)
	return rem == 0
}

func (p *primes) Status(cells []game.Cell) game.Status {
	result := game.Draw
	one, two := u128{lo: 1}, u128{lo: 1}
	for i, c := range cells {
		switch c {
		case game.X:
			one = one.mul(p.prime[i])
		case game.O:
			two = two.mul(p.prime[i])
		default:
			result = game.InProgress
		}
	}
	for _, w := range p.winners {
		if one.divisibleBy(w) {
			return game.XWon
		}
		if two.divisibleBy(w) {
			return game.OWon
		}
	}
	return result
}
