package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
)

// The six bands of Pascal Pons' Connect Four benchmark: positions of 7x6
// by the moves played (at most 14, 15 to 28, more than 28) and the moves
// remaining with perfect play, the depth (fewer than 14, 14 to 27, 28 or
// more). His strong solver's mean time a position, on his machine, is in
// docs/performance.md beside ours. The positions are fewer in the bands
// that take longer: every position drawn must be solved once to find its
// band, and most drawn for a Begin band fall in Begin-Hard. The Begin bands are drawn from plies 10
// to 14: earlier positions take minutes each to place in a band (the
// empty board one to two), and are not what a benchmark of positions
// measures.
var bands = []struct {
	name         string
	played, left [2]int // inclusive ranges
	positions    int
}{
	{"End-Easy", [2]int{29, 42}, [2]int{0, 13}, 1000},
	{"Middle-Easy", [2]int{15, 28}, [2]int{0, 13}, 1000},
	{"Middle-Medium", [2]int{15, 28}, [2]int{14, 27}, 1000},
	{"Begin-Easy", [2]int{10, 14}, [2]int{0, 13}, 1000},
	{"Begin-Medium", [2]int{10, 14}, [2]int{14, 27}, 200},
	{"Begin-Hard", [2]int{10, 14}, [2]int{28, 42}, 100},
}

// bandPositions gives n positions of the band, by random play from the empty
// board to a ply in the band's range (seeded, so the same every run), kept
// when the game is not over and its depth is in the band's range.
func bandPositions(s *Solver, rl rules.Rules, played, left [2]int, n int, seed uint64) ([]game.Board, error) {
	rng := rand.New(rand.NewPCG(seed, 1))
	var out []game.Board
	for len(out) < n {
		b, ok := randomPlay(rl, played[0]+rng.IntN(played[1]-played[0]+1), rng)
		if !ok {
			continue
		}
		s.Reset()
		r, err := s.Solve(context.Background(), uint64(b.X), uint64(b.O))
		if err != nil {
			return nil, err
		}
		if d := int(r.Depth); d >= left[0] && d <= left[1] {
			out = append(out, b)
		}
	}
	return out, nil
}

// randomPlay plays ply random legal moves; false when the game ends first
// or at that ply.
func randomPlay(rl rules.Rules, ply int, rng *rand.Rand) (game.Board, bool) {
	var b game.Board
	for range ply {
		moves := rl.Moves(b)
		n := marks(uint64(moves))
		if n == 0 {
			return b, false
		}
		c := nthBit(uint64(moves), rng.IntN(n))
		if b = b.Play(c, b.ToMove()); rl.Game().Status(b).Terminal() {
			return b, false
		}
	}
	return b, true
}

// nthBit gives the cell of the i-th set bit of m.
func nthBit(m uint64, i int) int {
	for ; i > 0; i-- {
		m &= m - 1
	}
	for c := 0; ; c++ {
		if m>>c&1 == 1 {
			return c
		}
	}
}

// BenchmarkBands solves the positions of each band one at a time, the table
// emptied before each (untimed, as in Pons' benchmark), with one worker and
// with two (Bands/Begin-Hard/workers=1), and reports the mean time and
// nodes a position and the table's size.
func BenchmarkBands(b *testing.B) {
	rl := rules.New(rules.Spec{Spec: game.Spec{Rows: 6, Cols: 7, K: 4}, Gravity: true})
	for i, band := range bands {
		var ps []game.Board // made once, by the first run of the band
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/workers=%d", band.name, workers), func(b *testing.B) {
				s, err := New(gravity(6, 7, 4), Options{TableBits: 24, Workers: workers})
				if err != nil {
					b.Fatal(err)
				}
				if ps == nil {
					if ps, err = bandPositions(s, rl, band.played, band.left, band.positions, uint64(i+1)); err != nil {
						b.Fatal(err)
					}
				}
				settleEach(b, s, ps, func(x, o uint64) error {
					_, err := s.Solve(context.Background(), x, o)
					return err
				})
				b.ReportMetric(float64(s.TableBytes()>>10), "KiB-table")
			})
		}
	}
}

// settleEach settles each of the positions ps by settle, the table of s
// emptied before each (untimed), and reports the mean time and nodes a
// position.
func settleEach(b *testing.B, s *Solver, ps []game.Board, settle func(x, o uint64) error) {
	var spent time.Duration
	var nodes uint64
	for b.Loop() {
		spent, nodes = 0, s.Nodes()
		for _, p := range ps {
			s.Reset()
			start := time.Now()
			if err := settle(uint64(p.X), uint64(p.O)); err != nil {
				b.Fatal(err)
			}
			spent += time.Since(start)
		}
	}
	b.ReportMetric(float64(spent.Microseconds())/float64(len(ps)), "µs/position")
	b.ReportMetric(float64(s.Nodes()-nodes)/float64(len(ps)), "nodes/position")
}

// BenchmarkValueAlone settles 60 positions of Connect Four drawn by random
// play at each of plies 13, 15 and 18 (those labelling meets past the
// opening book), the table emptied before each, one worker: by the score,
// value and depth (Solve), or by who wins alone (Value). It reports the
// mean time and nodes a position.
func BenchmarkValueAlone(b *testing.B) {
	rl := rules.New(rules.Spec{Spec: game.Spec{Rows: 6, Cols: 7, K: 4}, Gravity: true})
	for _, ply := range []int{13, 15, 18} {
		rng := rand.New(rand.NewPCG(uint64(ply), 3))
		var ps []game.Board
		for len(ps) < 60 {
			if p, ok := randomPlay(rl, ply, rng); ok && rl.Game().Status(p) == game.InProgress {
				ps = append(ps, p)
			}
		}
		for _, mode := range []string{"score", "value"} {
			b.Run(fmt.Sprintf("ply=%d/%s", ply, mode), func(b *testing.B) {
				s, err := New(gravity(6, 7, 4), Options{TableBits: 20, Workers: 1})
				if err != nil {
					b.Fatal(err)
				}
				settleEach(b, s, ps, func(x, o uint64) (err error) {
					if mode == "score" {
						_, err = s.Solve(context.Background(), x, o)
					} else {
						_, err = s.Value(context.Background(), x, o)
					}
					return err
				})
			})
		}
	}
}

// BenchmarkUCI labels a sample of the positions of UCI's Connect-4 data
// set: quiet positions of ply 8 of 7x6 (rules.Quiet), drawn by random play
// and solved one at a time, and reports the mean time a position and how
// the values fall, from which the time of the whole set (67,557 positions)
// follows. The sample is searched for the score (Solve) and for the value
// alone (Value), which is all the data set labels, each with an empty table
// a position or one table kept from position to position.
func BenchmarkUCI(b *testing.B) {
	rl := rules.New(rules.Spec{Spec: game.Spec{Rows: 6, Cols: 7, K: 4}, Gravity: true})
	rng := rand.New(rand.NewPCG(8, 1))
	var ps []game.Board
	for len(ps) < 50 {
		if p, ok := randomPlay(rl, 8, rng); ok && rules.Quiet(rl, p) {
			ps = append(ps, p)
		}
	}
	for _, how := range []string{"solve", "value"} {
		for _, reset := range []bool{true, false} {
			b.Run(fmt.Sprintf("%s/reset=%v", how, reset), func(b *testing.B) {
				s, err := New(rl.Spec(), Options{TableBits: 24, Workers: 2})
				if err != nil {
					b.Fatal(err)
				}
				answer := s.Solve
				if how == "value" {
					answer = s.Value
				}
				labelUCI(b, s, answer, ps, reset)
			})
		}
	}
}

// labelUCI answers each of ps by answer, with an empty table for each if
// reset, and reports the mean time and the values' counts.
func labelUCI(b *testing.B, s *Solver, answer func(context.Context, uint64, uint64) (Result, error), ps []game.Board, reset bool) {
	var spent time.Duration
	var won, lost, drawn int
	for b.Loop() {
		spent, won, lost, drawn = 0, 0, 0, 0
		s.Reset()
		for _, p := range ps {
			if reset {
				s.Reset()
			}
			start := time.Now()
			r, err := answer(context.Background(), uint64(p.X), uint64(p.O))
			if err != nil {
				b.Fatal(err)
			}
			spent += time.Since(start)
			switch r.Value {
			case 1:
				won++
			case -1:
				lost++
			default:
				drawn++
			}
		}
	}
	b.ReportMetric(spent.Seconds()/float64(len(ps)), "s/position")
	b.ReportMetric(float64(won), "won")
	b.ReportMetric(float64(lost), "lost")
	b.ReportMetric(float64(drawn), "drawn")
}
