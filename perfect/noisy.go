package perfect

import (
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
// between 0 and 1 a float first, then a uniform index in the mask taken.
// best gives the best cells (a mask within legal) and is called only when
// the move is to be a best one, so that a random move costs no search;
// with E 0 or 1 no float is drawn, so that perfect and random play draw as
// they did before there was an E.
func (n Noisy) Pick(rng *rand.Rand, legal uint64, best func() (uint64, error)) (int, error) {
	from := legal
	if n.Epsilon < 1 && (n.Epsilon <= 0 || rng.Float64() >= n.Epsilon) {
		var err error
		if from, err = best(); err != nil {
			return 0, err
		}
	}
	k := rng.IntN(bits.OnesCount64(from))
	for ; k > 0; k-- {
		from &= from - 1
	}
	return bits.TrailingZeros64(from), nil
}
