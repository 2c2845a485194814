package web

import (
	"context"
	"encoding/json"
	"fmt"
	"math/bits"
	"net/http"
	"net/url"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/longtest"
	"github.com/tateti-lab/tateti-lab/rules"
	"golang.org/x/sync/errgroup"
)

// TestLoad sends many concurrent position requests, bounded in count and
// time, to a server on loopback, and checks every answer: 20,000 of free
// 4x4 k=4 with the long checks, 4,000 of free 3x4 k=3 otherwise. It logs
// the throughput and latency percentiles; it asserts no time, since
// timing belongs to measurement, not to a test. Under -short it is skipped:
// solving 4x4 takes seconds.
func TestLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("the load test solves free 4x4 first; run without -short")
	}
	requests, rl := 4000, rules.Classic(game.Spec{Rows: 3, Cols: 4, K: 3})
	if longtest.Enabled() {
		requests, rl = 20000, rules.Classic(game.Spec{Rows: 4, Cols: 4, K: 4})
	}
	const clients = 32
	srv := server(t, rl)
	boards := sample(rl, requests)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	latency := make([]time.Duration, requests)
	var next atomic.Int64
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
	g, ctx := errgroup.WithContext(ctx)
	start := time.Now()
	for range clients {
		g.Go(func() error {
			for i := int(next.Add(1)) - 1; i < requests; i = int(next.Add(1)) - 1 {
				t0 := time.Now()
				if err := ask(ctx, client, srv.URL, boards[i]); err != nil {
					return err
				}
				latency[i] = time.Since(t0)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	slices.Sort(latency)
	pct := func(p int) time.Duration { return latency[(len(latency)-1)*p/100] }
	t.Logf("%d requests from %d clients in %v: %.0f req/s; latency p50 %v, p90 %v, p99 %v, max %v",
		requests, clients, elapsed.Round(time.Millisecond), float64(requests)/elapsed.Seconds(),
		pct(50), pct(90), pct(99), latency[len(latency)-1])
}

// sample gives n boards spread over the game: the positions met along
// pseudo-random games, the same on every run.
func sample(rl rules.Rules, n int) []string {
	s := rl.Spec().Spec
	var out []string
	seed := uint64(1)
	for len(out) < n {
		var b game.Board
		for {
			out = append(out, s.Format(b))
			m := rl.Moves(b)
			if m == 0 || len(out) == n {
				break
			}
			seed = seed*6364136223846793005 + 1442695040888963407
			for range int(seed>>33) % bits.OnesCount64(uint64(m)) {
				m &= m - 1
			}
			b = b.Play(bits.TrailingZeros64(uint64(m)), b.ToMove())
		}
	}
	return out
}

// ask requests one board and checks the answer names it.
func ask(ctx context.Context, c *http.Client, base, board string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/api/position?board="+url.QueryEscape(board), nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var v struct {
		Board string `json:"board"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		return fmt.Errorf("board %s: %w", board, err)
	}
	if resp.StatusCode != http.StatusOK || v.Board != board {
		return fmt.Errorf("board %s: status %d, board %q", board, resp.StatusCode, v.Board)
	}
	return nil
}
