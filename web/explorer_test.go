package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/oracle/oracletest"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/tier"
	"github.com/tateti-lab/tateti-lab/view"
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
	want, _ := json.MarshalIndent(view.NewPosition(a), "", "  ")
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
	var v view.Position
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

// Past a client's share of the search queue its requests get a 429 with
// Retry-After (the queue's bounds are oracle.Queue's, tested there).
func TestExplorerBounds(t *testing.T) {
	s := oracletest.NewStalling()
	x := NewExplorer(t.Context(), connectFour, s, 0)
	x.wait = time.Millisecond
	base := serverOf(t, x).URL
	bs := oracletest.Positions(t, connectFour, oracle.MaxShare+1)
	for i, b := range bs[:oracle.MaxShare+1] {
		resp, err := http.Get(base + "/api/position?board=" + url.QueryEscape(connectFour.Spec().Format(b)))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		want, retry := http.StatusAccepted, ""
		if i == oracle.MaxShare {
			want, retry = http.StatusTooManyRequests, strconv.Itoa(RetryAfter)
		}
		if resp.StatusCode != want || resp.Header.Get("Retry-After") != retry {
			t.Fatalf("request %d: status %d, Retry-After %q; want %d, %q", i+1, resp.StatusCode, resp.Header.Get("Retry-After"), want, retry)
		}
	}
}

// A cheap position is answered ahead of a costly one: a position 34 plies
// in, asked while the empty board is searched, stops that search, is
// answered, and the empty board's search goes on (issue 43, case 5: it
// waited over 95 s).
func TestExplorerCheapFirst(t *testing.T) {
	c, base := searched(t, 0, 50*time.Millisecond)
	resp, err := http.Get(base + "/api/position?board=") // the empty board's search starts
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	deep := inProgress(t, 34)
	if _, code, body := poll(t, base, "board="+url.QueryEscape(connectFour.Spec().Format(deep))); code != http.StatusOK {
		t.Fatalf("status %d: %s", code, body)
	}
	for deadline := time.Now().Add(10 * time.Second); c.asked.Load() < 3; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the oracle was asked %d times, want the empty board, the cheap one, and the empty board again", c.asked.Load())
		}
	}
}

// inProgress gives a Connect Four position of the plies given, still in
// progress, played by a fixed random game.
func inProgress(t *testing.T, plies int) game.Board {
	t.Helper()
	r := rand.New(rand.NewPCG(7, 7))
	for range 1000 {
		b := game.Board{}
		for p := 0; p < plies; p++ {
			moves := connectFour.Moves(b)
			if moves == 0 || connectFour.Game().Status(b).Terminal() {
				break
			}
			cells := []int{}
			for m := uint64(moves); m != 0; m &= m - 1 {
				cells = append(cells, bits.TrailingZeros64(m))
			}
			b = b.Play(cells[r.IntN(len(cells))], b.ToMove())
		}
		if bits.OnesCount64(uint64(b.X|b.O)) == plies && !connectFour.Game().Status(b).Terminal() {
			return b
		}
	}
	t.Fatalf("no game of %d plies in progress found", plies)
	return game.Board{}
}

// An opening book answers its positions at once, but past its last ply it
// searches: the explorer queues its positions as search's, and a position
// of the book comes back within the wait.
func TestExplorerBook(t *testing.T) {
	rl := rules.New(rules.Spec{Spec: game.Spec{Rows: 4, Cols: 4, K: 4}, Gravity: true})
	dir := filepath.Join(t.TempDir(), "book")
	if _, err := tier.SolveBook(context.Background(), rl, 5, dir, 2); err != nil {
		t.Fatal(err)
	}
	o, err := oracle.Database(rl, dir, oracle.Options{Workers: 1, Memory: 64 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	x := NewExplorer(t.Context(), rl, o, 0)
	if !o.Instant(game.Board{}) || o.Instant(game.Board{}.Play(15, game.X).Play(11, game.O).Play(14, game.X).Play(10, game.O).Play(13, game.X).Play(9, game.O)) {
		t.Fatal("a book's positions before its last ply are answered in the request, outside the search queue, and those past it not")
	}
	v, solving, err := x.view(t.Context(), game.Board{}, oracle.Client{Addr: "a client"}, false)
	if err != nil || solving != nil || v.Engine != "book" || len(v.Moves) != 4 {
		t.Fatalf("the empty board: %+v, %+v, %v; want the book's answer with 4 moves at once", v, solving, err)
	}
}

// A position whose search is cancelled, running or queued, is stopped or
// never started, and a request for it later queues it again; DELETE on the
// API cancels, and says whether there was a search to cancel.
func TestExplorerCancel(t *testing.T) {
	s := oracletest.NewStalling()
	x := NewExplorer(t.Context(), connectFour, s, 0)
	x.wait = time.Millisecond
	bs := oracletest.Positions(t, connectFour, 2)
	running, queued := bs[0], bs[1]
	for _, b := range bs {
		if _, solving, err := x.view(t.Context(), b, oracle.Client{Addr: "127.0.0.1"}, false); err != nil || solving == nil {
			t.Fatalf("view: %v, %v; want it being solved", solving, err)
		}
	}
	if got := <-s.Started; got != running {
		t.Fatalf("searched %v first, want %v", got, running)
	}
	srv := httptest.NewServer(Handler(x))
	defer srv.Close()
	del := func(b game.Board) string {
		req, _ := http.NewRequest(http.MethodDelete, srv.URL+"/api/position?board="+url.QueryEscape(connectFour.Spec().Format(b)), nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return fmt.Sprint(resp.StatusCode, " ", strings.Join(strings.Fields(string(body)), ""))
	}
	if got, want := del(queued), `200 {"cancelled":true}`; got != want {
		t.Errorf("DELETE the queued position: %s, want %s", got, want)
	}
	if got, want := del(running), `200 {"cancelled":true}`; got != want {
		t.Errorf("DELETE the running position: %s, want %s", got, want)
	}
	select {
	case cause := <-s.Stopped:
		if !errors.Is(cause, oracle.ErrCancelled) {
			t.Errorf("the search stopped: %v, want %v", cause, oracle.ErrCancelled)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the cancelled search still runs 10 s on")
	}
	select {
	case b := <-s.Started:
		t.Fatalf("%v was searched after its cancel", b)
	case <-time.After(300 * time.Millisecond):
	}
	if got, want := del(running), `200 {"cancelled":false}`; got != want {
		t.Errorf("DELETE again: %s, want %s", got, want)
	}
	// A page's poll still in flight when it left the position starts no
	// search: it is told the position is gone.
	resp, err := http.Get(srv.URL + "/api/position?poll=1&board=" + url.QueryEscape(connectFour.Spec().Format(running)))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusGone {
		t.Errorf("a poll after the cancel: %d, want %d", resp.StatusCode, http.StatusGone)
	}
	select {
	case b := <-s.Started:
		t.Fatalf("%v was searched again after a poll that came late", b)
	case <-time.After(300 * time.Millisecond):
	}
	if _, _, err := x.view(t.Context(), queued, oracle.Client{Addr: "back"}, false); err != nil {
		t.Fatal(err)
	}
	if got := <-s.Started; got != queued {
		t.Errorf("asked again, searched %v, want %v", got, queued)
	}
}

// A client cancels only what it asked for: a DELETE from another tab of
// the same address (TabHeader), or from another address, leaves the search
// another client waits for running, and says it cancelled nothing; once
// every client that asked has cancelled, the search stops. A tab header
// that is no token is a 400.
func TestExplorerCancelOwnOnly(t *testing.T) {
	s := oracletest.NewStalling()
	x := NewExplorer(t.Context(), connectFour, s, 0)
	x.wait = time.Millisecond
	b := oracletest.Positions(t, connectFour, 1)[0]
	srv := httptest.NewServer(Handler(x))
	defer srv.Close()
	from := func(ip string) *http.Client { // requests sent from ip, on loopback
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
		return &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
	}
	query := srv.URL + "/api/position?board=" + url.QueryEscape(connectFour.Spec().Format(b))
	send := func(ip, tab, method string) string {
		req, _ := http.NewRequest(method, query, nil)
		req.Header.Set(TabHeader, tab)
		resp, err := from(ip).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return fmt.Sprint(resp.StatusCode, " ", strings.Join(strings.Fields(string(body)), ""))
	}
	if got := send("127.0.0.50", "tab-A", http.MethodGet); !strings.HasPrefix(got, "202 ") {
		t.Fatalf("GET from 127.0.0.50: %s, want 202", got)
	}
	<-s.Started
	tests := []struct {
		name, ip, tab, want string
		stops               bool
	}{
		{"a tab header that is no token", "127.0.0.50", "tab A!", `400 {"error":"the`, false},
		{"another tab of the address", "127.0.0.50", "tab-B", `200 {"cancelled":false}`, false},
		{"another address", "127.0.0.51", "tab-A", `200 {"cancelled":false}`, false},
		{"the tab that asked", "127.0.0.50", "tab-A", `200 {"cancelled":true}`, true},
	}
	for _, tt := range tests {
		if got := send(tt.ip, tt.tab, http.MethodDelete); !strings.HasPrefix(got, tt.want) {
			t.Errorf("%s: DELETE %s, want %s", tt.name, got, tt.want)
		}
		select {
		case cause := <-s.Stopped:
			if !tt.stops {
				t.Fatalf("%s: the search stopped (%v), want it running", tt.name, cause)
			}
		case <-time.After(300 * time.Millisecond):
			if tt.stops {
				t.Fatalf("%s: the search still runs, want it stopped", tt.name)
			}
		}
	}
}

// "why?" on a position whose search the time limit cut short is a 422 that
// says how to settle it (a longer --time-limit), not to ask again: the
// answer is kept, and asking again gives the same.
func TestWhyUnsettled(t *testing.T) {
	_, base := searched(t, 20*time.Millisecond, time.Minute)
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		resp, err := http.Get(base + "/api/why?board=&move=4")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusAccepted {
			continue
		}
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(string(body), "a longer --time-limit") || strings.Contains(string(body), "ask again once") {
			t.Fatalf("got %d %s; want 422 naming a longer --time-limit", resp.StatusCode, body)
		}
		return
	}
	t.Fatal("no answer within a minute")
}
