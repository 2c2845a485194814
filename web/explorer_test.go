package web

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/report"
	"github.com/tateti-lab/tateti-lab/rules"
)

var connectFour = rules.New(rules.Spec{Spec: game.Spec{Rows: 6, Cols: 7, K: 4}, Gravity: true})

// counting counts the questions put to an oracle.
type counting struct {
	oracle.Oracle
	asked atomic.Int64
}

func (c *counting) Analyze(ctx context.Context, b game.Board) (perfect.Analysis, error) {
	c.asked.Add(1)
	return c.Oracle.Analyze(ctx, b)
}

// searched serves Connect Four answered by search, each position within
// limit, a request waiting wait for its answer.
func searched(t *testing.T, limit, wait time.Duration) (*counting, string) {
	t.Helper()
	o, err := oracle.Search(connectFour, oracle.Options{Memory: 64 << 20, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	c := &counting{Oracle: o}
	x := NewExplorer(t.Context(), connectFour, c, limit)
	x.wait = wait
	return c, serverOf(t, x).URL
}

// poll asks for a position until its answer comes, and gives the answers
// that said it was being solved, and the last.
func poll(t *testing.T, base, query string) ([]Solving, int, string) {
	t.Helper()
	var solving []Solving
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		resp, err := http.Get(base + "/api/position?" + query)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusAccepted {
			return solving, resp.StatusCode, string(body)
		}
		var s Solving
		if err := json.Unmarshal(body, &s); err != nil {
			t.Fatalf("a 202 that is no Solving: %v\n%s", err, body)
		}
		solving = append(solving, s)
	}
	t.Fatalf("%s: no answer within a minute", query)
	return nil, 0, ""
}

// A position answered by search is asked of the oracle once: the first
// request learns that it is being solved, and the answer, when it comes,
// is what solve --position --json prints; asked again it comes at once.
func TestExplorerSearchesOnce(t *testing.T) {
	c, base := searched(t, 0, time.Millisecond)
	moves := "742234173564774116" // some tenths of a second
	b, _ := rules.Play(connectFour, game.Board{}, moves)
	query := "board=&move=" + moves
	solving, code, body := poll(t, base, query)
	if code != http.StatusOK || len(solving) == 0 || solving[0].Board != connectFour.Spec().Format(b) {
		t.Fatalf("status %d after %v; want 200 after at least one 202 naming %s\n%s", code, solving, connectFour.Spec().Format(b), body)
	}
	o, _ := oracle.Search(connectFour, oracle.Options{Memory: 64 << 20, Workers: 1})
	a, err := o.Analyze(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.MarshalIndent(report.NewPosition(a), "", "  ")
	if strings.TrimSpace(body) != string(want) {
		t.Errorf("API answered\n%s\nsolve --position gives\n%s", body, want)
	}
	if _, code, again := poll(t, base, "board="+url.QueryEscape(connectFour.Spec().Format(b))); code != http.StatusOK || again != body {
		t.Errorf("asked again: status %d, %s", code, again)
	}
	if got := c.asked.Load(); got != 1 {
		t.Errorf("the oracle was asked %d times, want once", got)
	}
}

// A search cut short by the limit is answered with what it proved, and a
// position asked while another is searched waits its turn.
func TestExplorerLimit(t *testing.T) {
	_, base := searched(t, 300*time.Millisecond, 50*time.Millisecond)
	resp, err := http.Get(base + "/api/position?board=&move=4") // its search starts
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("status %d, want 202 while the first position is searched", resp.StatusCode)
	}
	second, code, body := poll(t, base, "board=&move=3")
	var v report.Position
	if err := json.Unmarshal([]byte(body), &v); err != nil || code != http.StatusOK {
		t.Fatalf("status %d: %v\n%s", code, err, body)
	}
	if v.Outcome != "not settled" || v.Proved == nil {
		t.Errorf("outcome %q, proved %v; want not settled, with what was proved", v.Outcome, v.Proved)
	}
	// Column 3's next cell is a row up; the others are on the bottom row.
	if want := []int{30, 35, 36, 38, 39, 40, 41}; !slices.Equal(v.Legal, want) {
		t.Errorf("legal cells %v, want %v: a position not settled can still be played", v.Legal, want)
	}
	if len(second) == 0 || !second[0].Queued {
		t.Errorf("the second position's first answers %v; want it queued behind the first", second)
	}
}
