package perfect

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
)

// Noisy is noisy perfect play (--epsilon E): a best move with probability
// 1-E, a uniformly random legal move otherwise. E = 0 is perfect play,
// E = 1 random play. Both the drawing of positions for a dataset and the
// weakened perfect opponent of grade play by it, so that one E means one
// thing.
type Noisy struct{ Epsilon float64 }

// CheckEpsilon says what is wrong with e as the epsilon of noisy perfect
// play, if anything: it must be a probability, 0 to 1.
func CheckEpsilon(e float64) error {
	if math.IsNaN(e) || e < 0 || e > 1 {
		return fmt.Errorf("%v is not a probability, want 0 to 1 (0: perfect play, 1: random play)", e)
	}
	return nil
}

// NeedsBest reports whether Pick may ask for the best moves: unless E is
// 1, the caller must be able to give them.
func (n Noisy) NeedsBest() bool { return n.Epsilon < 1 }

// Pick gives the cell of the move noisy perfect play makes among the legal
// cells (a mask, not empty), its choices drawn from rng: with E strictly
// between 0 and 1 a float first. A random move is a uniform index in the
// mask. A best move is the first best one in an order of the legal cells
// drawn uniformly (a Fisher-Yates shuffle), which is uniform among the
// best moves however many there are: isBest is asked of the cells in that
// order until one is best, so that a position with k best moves of n asks
// about (n+1)/(k+1) of them, not n, and a random move asks none
// (docs/design/draw-questions.md).
func (n Noisy) Pick(rng *rand.Rand, legal uint64, isBest func(cell int) (bool, error)) (int, error) {
	if n.Epsilon >= 1 || n.Epsilon > 0 && rng.Float64() < n.Epsilon {
		k := rng.IntN(bits.OnesCount64(legal))
		for ; k > 0; k-- {
			legal &= legal - 1
		}
		return bits.TrailingZeros64(legal), nil
	}
	var cells [64]int
	m := 0
	for l := legal; l != 0; l &= l - 1 {
		cells[m] = bits.TrailingZeros64(l)
		m++
	}
	for i := range m { // the order drawn a cell at a time, asked as it comes
		j := i + rng.IntN(m-i)
		cells[i], cells[j] = cells[j], cells[i]
		best, err := isBest(cells[i])
		if err != nil || best {
			return cells[i], err
		}
	}
	return 0, errors.New("noisy perfect play: no legal move is a best one, a bug of the engine that said so")
}
