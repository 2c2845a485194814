package tier

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tateti-lab/tateti-lab/book"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/search"
)

// BenchmarkBookSearch plans a Connect Four book: the time a search of a
// position of its last ply takes (searchCode, one worker, each from an
// empty table), over positions drawn evenly by rank among the ply's,
// every stride-th reachable one, so that the sample spreads over every
// column height as the book does. The plan of docs/performance.md
// multiplies its mean by the searches a build makes. Ply 13 is searched
// alone and bounded by the book built in (WithPrior, as db build bounds a
// deeper book), the codes the same.
func BenchmarkBookSearch(b *testing.B) {
	for _, c := range []struct {
		ply, stride int
		bounded     bool
	}{{8, 2000, false}, {12, 50000, false}, {13, 100000, false}, {13, 100000, true}} {
		name := fmt.Sprintf("ply=%d", c.ply)
		if c.bounded {
			name += ",bounded"
		}
		b.Run(name, func(b *testing.B) {
			j, bs := bookSample(b, c.ply, c.stride)
			if c.bounded {
				j = withBuiltIn(b, j, c.ply-1)
			}
			for b.Loop() {
				s, err := search.New(j.rl.Spec(), search.Options{TableBits: search.TableBitsFor(SearchMemory), Workers: 1})
				if err != nil {
					b.Fatal(err)
				}
				var worst time.Duration
				for _, pos := range bs {
					start := time.Now()
					if _, err := j.searchCode(context.Background(), s, pos); err != nil {
						b.Fatal(err)
					}
					worst = max(worst, time.Since(start))
					s.Reset()
				}
				b.ReportMetric(float64(len(bs)), "positions")
				b.ReportMetric(float64(worst.Milliseconds()), "ms-worst")
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N*len(bs)), "ms/search")
		})
	}
}

// withBuiltIn gives j bounded by the book built in, which holds ply p
// (book.Bounds), closed when the benchmark ends.
func withBuiltIn(b *testing.B, j *Job, p int) *Job {
	prior, ok, err := book.Bounds(j.rl, p)
	if !ok || err != nil {
		b.Fatalf("the book built in holds no ply %d: %v", p, err)
	}
	b.Cleanup(func() { prior.Close() })
	return j.WithPrior(prior)
}

// bookTo runs the forward pass of rl's game to ply p into dir, and gives
// the Job of a book to ply p, the reach bits of that ply, and what the pass
// reached.
func bookTo(tb testing.TB, rl rules.Rules, dir string, p int) (*Job, []uint64, Reached) {
	tb.Helper()
	reached, err := ReachTo(context.Background(), rl, dir, 2, p)
	if err != nil {
		tb.Fatal(err)
	}
	j, err := NewBook(rl, p)
	if err != nil {
		tb.Fatal(err)
	}
	buf, err := os.ReadFile(filepath.Join(dir, ReachName(p)))
	if err != nil {
		tb.Fatal(err)
	}
	have, err := DecodeBits(buf, j.Size(p))
	if err != nil {
		tb.Fatal(err)
	}
	return j, have, reached
}

// bookSample gives the Job of a Connect Four book to ply p and every
// stride-th reachable position of that ply still in progress.
func bookSample(b *testing.B, p, stride int) (*Job, []game.Board) {
	rl := rules.New(spec(6, 7, 4, true, false))
	j, have, _ := bookTo(b, rl, filepath.Join(b.TempDir(), "db"), p)
	var bs []game.Board
	n := 0
	j.layout.Each(p, 0, j.Size(p), have, func(_ int64, pos game.Board) {
		if n++; n%stride == 0 {
			if over, _ := rl.Outcome(pos); !over {
				bs = append(bs, pos)
			}
		}
	})
	return j, bs
}
