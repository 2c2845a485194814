package solve

import (
	"context"
	"math/bits"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/index"
	"github.com/tateti-lab/tateti-lab/internal/par"
	"github.com/tateti-lab/tateti-lab/internal/progress"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Ranked is a game solved over every placement of each ply, ranked by
// index.Comb, in one byte a placement: whether play can reach it, its value
// and its depth. It keeps no ids, paths or classes, so boards whose
// enumeration does not fit memory (free 4x5 with k=4: 741 million
// placements) still solve, to the game's Summary.
type Ranked struct {
	Rules rules.Rules
	comb  *index.Comb
	cells [][]byte // cells[p][rank]: reachable bit, value+1 and depth
}

// The byte of a placement: bit 7 reachable, bits 5-6 value+1, bits 0-4 depth
// (at most 25 plies).
const (
	reachBit   = 1 << 7
	valueShift = 5
	depthMask  = 1<<valueShift - 1
)

func pack(v, d int8) byte       { return byte(v+1)<<valueShift | byte(d) }
func unpack(b byte) (v, d int8) { return int8(b>>valueShift&3) - 1, int8(b & depthMask) }

// RankedBytes is the memory SolveRanked needs for the game of rs: a byte a
// placement.
func RankedBytes(rs rules.Spec) uint64 {
	c := index.NewComb(rs.Cells())
	var n uint64
	for p := 0; p <= rs.Cells(); p++ {
		n += uint64(c.Size(p))
	}
	return n
}

// SolveRanked marks the placements play can reach, ply by ply from the empty
// board, then solves every placement from the last ply back, using up to
// workers goroutines; each writes only its own range of ranks.
func SolveRanked(ctx context.Context, rl rules.Rules, workers int) (*Ranked, error) {
	n := rl.Spec().Cells()
	r := &Ranked{Rules: rl, comb: index.NewComb(n), cells: make([][]byte, n+1)}
	for p := range r.cells {
		r.cells[p] = make([]byte, r.comb.Size(p))
	}
	r.cells[0][0] = reachBit
	for p := 1; p <= n; p++ {
		if err := r.ply(ctx, p, workers, r.reach); err != nil {
			return nil, err
		}
		progress.Report(ctx, "reachable placements", p, int64(p), int64(n))
	}
	for p := n; p >= 0; p-- {
		if err := r.ply(ctx, p, workers, r.solve); err != nil {
			return nil, err
		}
		progress.Report(ctx, "solve", p, int64(n-p+1), int64(n+1))
	}
	return r, nil
}

// ply calls fill for every placement of ply p, in ranges of X sets.
func (r *Ranked) ply(ctx context.Context, p, workers int, fill func(p int, rank int64, b game.Board)) error {
	inner := r.comb.Inner(p)
	return par.Ranges(ctx, 0, int(r.comb.XSets(p)), workers, func(_ context.Context, _, a, b int) error {
		r.comb.Each(p, int64(a)*inner, int64(b)*inner, nil, func(rank int64, bd game.Board) { fill(p, rank, bd) })
		return nil
	})
}

// reach marks b reachable when one of its parents is.
func (r *Ranked) reach(p int, rank int64, b game.Board) {
	for m := uint64(r.Rules.ParentCells(b)); m != 0; m &= m - 1 {
		if r.cells[p-1][r.comb.Rank(b.Without(bits.TrailingZeros64(m)))]&reachBit != 0 {
			r.cells[p][rank] |= reachBit
			return
		}
	}
}

// solve gives b its value and depth from its children's, as Result.solve
// does (a finished board is worth what the rules say, at depth 0).
func (r *Ranked) solve(p int, rank int64, b game.Board) {
	reach := r.cells[p][rank] & reachBit
	if over, v := r.Rules.Outcome(b); over {
		r.cells[p][rank] = reach | pack(v, 0)
		return
	}
	mover := b.ToMove()
	sign := Sign(mover)
	pk := newPick()
	for m := uint64(r.Rules.Moves(b)); m != 0; m &= m - 1 {
		c := bits.TrailingZeros64(m)
		v, d := unpack(r.cells[p+1][r.comb.Rank(b.Play(c, mover))])
		pk.add(c, sign*v, d)
	}
	r.cells[p][rank] = reach | pack(sign*pk.value, pk.depth+1)
}

// Summarize gives the summary Result.Summarize gives for the same game:
// the value and depth of the empty board, the reachable positions by value
// and ply, and the first moves.
func (r *Ranked) Summarize() Summary {
	v, d := unpack(r.cells[0][0])
	s := Summary{Game: r.Rules.Spec(), Value: v, Depth: d}
	for p, cells := range r.cells {
		pv := PlyValues{Ply: p}
		for _, c := range cells {
			if c&reachBit != 0 {
				v, _ := unpack(c)
				pv.add(v)
				s.PositionsByValue.add(v)
			}
		}
		s.ByPly = append(s.ByPly, pv)
	}
	s.Openings = r.openings()
	return s
}

// openings gives X's first moves, as Result.Moves gives them.
func (r *Ranked) openings() []Move {
	var b game.Board
	pk := newPick()
	var ms []Move
	cols := r.Rules.Spec().Cols
	for m := uint64(r.Rules.Moves(b)); m != 0; m &= m - 1 {
		c := bits.TrailingZeros64(m)
		child := b.Play(c, game.X)
		v, d := unpack(r.cells[1][r.comb.Rank(child)])
		pk.add(c, v, d)
		ms = append(ms, Move{Cell: c, Row: c / cols, Col: c % cols, Child: game.ID(child), Value: v, Depth: d})
	}
	for i := range ms {
		ms[i].Best = pk.best>>ms[i].Cell&1 != 0
	}
	return ms
}
