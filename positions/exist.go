package positions

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"

	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/index"
	"github.com/tateti-lab/tateti-lab/internal/figure"
	"github.com/tateti-lab/tateti-lab/rules"
)

// countLimit is the most placements, over the plies from 0 to a sample's
// last, that Exist enumerates to count the positions exactly: a fraction
// of a second. Past it Exist gives a bound.
const countLimit = 1 << 22

// drawBytes is what drawing holds for each position: the board and its
// entry in the set of those seen.
const drawBytes = 64

// Exist gives how many positions s can draw from rl's game: those in
// progress at its plies (under Quiet, the classes of quiet ones). It
// counts them (exact) where the plies up to s.Plies.High hold at most
// countLimit placements; past that it gives the placements of its plies,
// an upper bound, saturated at 2^64-1. Memory bounds the count (0: no
// limit).
func (s Sample) Exist(ctx context.Context, rl rules.Rules, workers int, memory uint64) (n uint64, exact bool, err error) {
	if placements(rl, 0, s.Plies.High) > countLimit {
		return placements(rl, s.Plies.Low, s.Plies.High), false, nil
	}
	c, err := enumerate.Shallow(ctx, rl, s.Plies.High, workers, cmp.Or(memory, math.MaxUint64))
	if err != nil {
		return 0, false, err
	}
	for _, p := range c.ByPly {
		if p.Ply < s.Plies.Low {
			continue
		}
		if s.Quiet {
			n += uint64(p.QuietClasses)
		} else {
			n += uint64(p.Positions - p.Terminal)
		}
	}
	return n, true, nil
}

// ErrTooMany says a sample asks for more positions than exist, or than
// memory holds.
var ErrTooMany = errors.New("more positions than can be drawn")

// Check refuses, before any drawing, a sample of more positions than
// Exist finds at its plies, naming how many there are, or than drawing
// them fits in memory bytes (0: no limit).
func (s Sample) Check(ctx context.Context, rl rules.Rules, workers int, memory uint64) error {
	n, exact, err := s.enough(ctx, rl, workers, memory)
	if err != nil {
		return err
	}
	what := "positions in progress"
	if s.Quiet {
		what = "classes of quiet positions"
	}
	switch {
	case uint64(s.N) > n && exact:
		return fmt.Errorf("%w: %s has %s %s at plies %s, and %d were asked for; ask for at most %s, or for other plies",
			ErrTooMany, rl.Spec().Words(), figure.Commas(int64(n)), what, s.Plies, s.N, figure.Commas(int64(n)))
	case uint64(s.N) > n:
		return fmt.Errorf("%w: %s has at most %s %s at plies %s, and %d were asked for; ask for fewer, or for other plies",
			ErrTooMany, rl.Spec().Words(), figure.Commas(int64(n)), what, s.Plies, s.N)
	case memory > 0 && uint64(s.N) > memory/drawBytes:
		return fmt.Errorf("%w: drawing %d positions takes about %s of memory, more than the %s this run may use; ask for fewer",
			ErrTooMany, s.N, figure.Bytes(uint64(s.N)*drawBytes), figure.Bytes(memory))
	}
	return nil
}

// enough is Exist, but where Exist would count several plies and the
// first holds s.N positions or more it counts that ply alone, an exact
// count of part of them: enough to take the sample, and the later plies,
// which may hold far more, are not counted (Connect Four's ply 10 holds
// 1.6 million, its ply 8 ten times fewer). Where Exist gives a bound
// without counting, so does enough.
func (s Sample) enough(ctx context.Context, rl rules.Rules, workers int, memory uint64) (n uint64, exact bool, err error) {
	if s.Plies.Low < s.Plies.High && placements(rl, 0, s.Plies.High) <= countLimit {
		first := s
		first.Plies.High = first.Plies.Low
		if n, exact, err := first.Exist(ctx, rl, workers, memory); err != nil || exact && n >= uint64(s.N) {
			return n, exact, err
		}
	}
	return s.Exist(ctx, rl, workers, memory)
}

// placements is the placements of rl's board at plies lo to hi: the
// assignments of each ply's marks to cells (under gravity, to columns'
// lowest cells) with X's count and O's, at least the positions there;
// saturated at 2^64-1.
func placements(rl rules.Rules, lo, hi int) uint64 {
	s := rl.Spec()
	if layout, err := index.NewPlacements(s.Spec, s.Gravity); err == nil {
		var sum uint64
		for p := lo; p <= hi; p++ {
			sum = saturate(new(big.Int).Add(new(big.Int).SetUint64(sum), big.NewInt(layout.Size(p))))
		}
		return sum
	}
	sum := new(big.Int) // a free board past what index ranks: C(cells, p)·C(p, x)
	for p := lo; p <= hi; p++ {
		c := new(big.Int).Binomial(int64(s.Cells()), int64(p))
		sum.Add(sum, c.Mul(c, new(big.Int).Binomial(int64(p), int64((p+1)/2))))
	}
	return saturate(sum)
}

// saturate gives n, or 2^64-1 past it.
func saturate(n *big.Int) uint64 {
	if n.IsUint64() {
		return n.Uint64()
	}
	return math.MaxUint64
}
