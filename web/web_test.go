package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
	"github.com/tateti-lab/tateti-lab/view"
)

// server serves the explorer of rl's game solved whole.
func server(t *testing.T, rl rules.Rules) *httptest.Server {
	t.Helper()
	o, err := oracle.Solved(context.Background(), rl, oracle.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	return serverOf(t, NewExplorer(t.Context(), rl, o, 0))
}

func serverOf(t *testing.T, x *Explorer) *httptest.Server {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	srv.Config = NewServer(x, srv.Listener)
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

func get(t *testing.T, srv *httptest.Server, path string) (int, string) {
	t.Helper()
	resp, err := http.Get(srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}

// The API answers what solve --position --json prints (view.Position of
// solve.Analyze), for positions of several rule sets.
func TestAPIEqualsSolvePosition(t *testing.T) {
	tests := []struct {
		rules  rules.Rules
		boards []string
	}{
		{rules.Classic(game.Default), []string{".../.../...", "XX./O../...", "XXX/OO./...", "XOX/XOO/OXX"}},
		{rules.New(rules.Spec{Spec: game.Default, Misere: true}), []string{"XX./OO./...", "X../.O./..."}},
		{rules.New(rules.Spec{Spec: game.Spec{Rows: 4, Cols: 4, K: 4}, Gravity: true}), []string{"..../..../.OX./.XO."}},
	}
	for _, tt := range tests {
		srv := server(t, tt.rules)
		for _, board := range tt.boards {
			t.Run(tt.rules.Spec().String()+" "+board, func(t *testing.T) {
				code, body := get(t, srv, "/api/position?board="+url.QueryEscape(board))
				if code != http.StatusOK {
					t.Fatalf("status %d: %s", code, body)
				}
				b, _ := tt.rules.Spec().Parse(board)
				a, err := solve.Analyze(context.Background(), tt.rules, b, 1)
				if err != nil {
					t.Fatal(err)
				}
				want, _ := json.MarshalIndent(view.NewPosition(a), "", "  ")
				if strings.TrimSpace(body) != string(want) {
					t.Fatalf("API answered\n%s\nsolve --position gives\n%s", body, want)
				}
			})
		}
	}
}

func TestBadRequests(t *testing.T) {
	free := server(t, rules.Classic(game.Default))
	grav := server(t, rules.New(rules.Spec{Spec: game.Default, Gravity: true}))
	tests := []struct {
		name string
		srv  *httptest.Server
		path string
		code int
		want string
	}{
		{"unparseable board", free, "/api/position?board=XQ./.../...", 400, `has 'Q' at character 2`},
		{"board of the wrong size", free, "/api/position?board=XO", 400, "has 2 cells, want 9"},
		{"unreachable board", free, "/api/position?board=XXX/OOO/...", 400, "cannot arise in play"},
		{"move to a full cell", free, "/api/position?board=X../.../...&move=0", 400, "cell 0 holds X, want an empty cell"},
		{"move after the end", free, "/api/position?board=XXX/OO./...&move=5", 400, "comes after the game is over"},
		{"a full column", grav, "/api/position?board=X../O../X..&move=1", 400, "column 1 is full"},
		{"a floating mark", grav, "/api/position?board=X../.../...", 400, "a mark stands above an empty cell"},
		{"a long board is cut", free, "/api/position?board=" + strings.Repeat("X", 5000), 400, "(5000 characters)"},
		{"a query that cannot be read", free, "/api/position?board=%ZZX........", 400, "the query cannot be read"},
		{"a semicolon", free, "/api/position?board=X........;x=1", 400, "the query cannot be read"},
		{"nine parameters", free, "/api/position?board=X........" + strings.Repeat("&x=1", 8), 400, "more than 8 parameters"},
		{"10,001 parameters", free, "/api/position?board=X........" + strings.Repeat("&x=1", 10000), 431, "Request Header Fields Too Large"},
		{"no board", free, "/api/position", 400, "board is missing"},
		{"no board but a move", free, "/api/position?move=4", 400, "board is missing"},
		{"another parameter", free, "/api/position?board=&x=1", 400, `names \"x\"; the API takes board, move and poll`},
		{"a poll not 1", free, "/api/position?board=&poll=yes", 400, `poll=\"yes\"; give poll=1`},
		{"two boards", free, "/api/position?board=&board=X........", 400, "gives board 2 times"},
		{"the empty board, explicitly", free, "/api/position?board=", 200, `"board": ".../.../..."`},
		{"outside the app", free, "/nope", 404, "no such page"},
		{"outside the API", free, "/api/positions", 404, "no such page"},
		{"the page", free, "/", 200, "<title>tateti-lab explorer</title>"},
		{"the script", free, "/app.js", 200, "/api/position?board="},
		{"a move", free, "/api/position?board=.../.../...&move=4", 200, `"board": ".../.X./..."`},
		{"why without a move", free, "/api/why?board=", 400, "move is missing"},
		{"why of a move to a full cell", free, "/api/why?board=X../.../...&move=0", 400, "cell 0 holds X"},
		{"why of no move", free, "/api/why?board=&move=%20", 400, "plays 0 moves; /api/why takes one"},
		{"why of two moves", free, "/api/why?board=&move=4,0", 400, "plays 2 moves; /api/why takes one"},
		{"why with a poll", free, "/api/why?board=&move=4&poll=1", 400, "poll is /api/position's"},
		{"why of a bad board", free, "/api/why?board=XXX/OOO/...&move=8", 400, "cannot arise in play"},
		{"why of a losing move", free, "/api/why?board=X../.../...&move=1", 200, `"shows": "refutation"`},
		// /api/check answers whether a board and moves make a position,
		// 200 either way, naming the move that fails.
		{"check a good link", grav, "/api/check?board=&move=1,1,2", 200, `"ok": true`},
		{"check a bad link", grav, "/api/check?board=&move=1,1,1,1", 200, `move 4: column 1 is full`},
		{"check a board that cannot arise", free, "/api/check?board=XXX/OOO/...", 200, `"ok": false`},
		{"check an unreadable query", free, "/api/check?board=%ZZ", 400, "the query cannot be read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, body := get(t, tt.srv, tt.path)
			if code != tt.code || !strings.Contains(body, tt.want) {
				t.Fatalf("status %d, body %q; want %d and %q", code, body, tt.code, tt.want)
			}
			if code != 200 && code != 431 { // 431 is net/http's own, in plain text
				var e struct{ Error string }
				if err := json.Unmarshal([]byte(body), &e); err != nil || e.Error == "" {
					t.Fatalf("body %q is not a JSON error: %v", body, err)
				}
			}
		})
	}
}

// Any method but GET and HEAD gets a 405 that names them, but DELETE of
// the API's position, which stops its search (TestExplorerCancel).
func TestMethods(t *testing.T) {
	srv := server(t, rules.Classic(game.Default))
	for _, method := range []string{"POST", "PUT", "DELETE /", "OPTIONS", "PATCH"} {
		t.Run(method, func(t *testing.T) {
			path := "/api/position?board="
			if m, p, ok := strings.Cut(method, " "); ok {
				method, path = m, p
			}
			req, err := http.NewRequest(method, srv.URL+path, strings.NewReader("x"))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != 405 || resp.Header.Get("Allow") != "GET, HEAD" || !strings.Contains(string(body), `"error": "method `+method+` is not served`) {
				t.Fatalf("status %d, Allow %q, body %q; want 405, GET, HEAD and a JSON error", resp.StatusCode, resp.Header.Get("Allow"), body)
			}
		})
	}
}

// Every answer carries the security headers; a Host that is not the
// server's gets a 421, so that a rebound name cannot reach it.
func TestGuard(t *testing.T) {
	srv := server(t, rules.Classic(game.Default))
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	tests := []struct {
		host string
		code int
	}{
		{"", 200}, // the test client's own: 127.0.0.1:port
		{fmt.Sprintf("localhost:%d", port), 200},
		{fmt.Sprintf("[::1]:%d", port), 200},
		{"LOCALHOST", 200},
		{fmt.Sprintf("evil.example:%d", port), 421},
		{"127.0.0.1.evil.example", 421},
	}
	for _, tt := range tests {
		t.Run(tt.host, func(t *testing.T) {
			req, _ := http.NewRequest("GET", srv.URL+"/api/position?board=", nil)
			if tt.host != "" {
				req.Host = tt.host
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tt.code {
				t.Fatalf("Host %q: status %d, want %d", tt.host, resp.StatusCode, tt.code)
			}
			for h, want := range map[string]string{"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY"} {
				if got := resp.Header.Get(h); got != want {
					t.Errorf("%s: %q, want %q", h, got, want)
				}
			}
			if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none'") {
				t.Errorf("Content-Security-Policy %q, want frame-ancestors 'none'", csp)
			}
		})
	}
}

// The server does not wait on a slow or idle client for ever.
func TestTimeouts(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	srv := NewServer(nil, ln)
	for name, d := range map[string]time.Duration{"ReadHeaderTimeout": srv.ReadHeaderTimeout, "ReadTimeout": srv.ReadTimeout,
		"WriteTimeout": srv.WriteTimeout, "IdleTimeout": srv.IdleTimeout} {
		if d <= 0 || d > time.Minute {
			t.Errorf("%s = %v, want a limit of a minute or less", name, d)
		}
	}
}

func TestHosts(t *testing.T) {
	tests := []struct {
		addr string
		want []string
	}{
		{"127.0.0.1:8080", []string{"localhost", "127.0.0.1", "::1", "127.0.0.1"}},
		{"[::1]:8080", []string{"localhost", "127.0.0.1", "::1", "::1"}},
		{"192.0.2.7:80", []string{"localhost", "127.0.0.1", "::1", "192.0.2.7"}},
		{"0.0.0.0:80", nil},
	}
	for _, tt := range tests {
		addr, _ := net.ResolveTCPAddr("tcp", tt.addr)
		if got := Hosts(addr); !slices.Equal(got, tt.want) {
			t.Errorf("Hosts(%s) = %q, want %q", tt.addr, got, tt.want)
		}
	}
}

// Serve answers until its context is done, then shuts down and gives the
// context's error; a listener that cannot serve gives its error at once.
func TestServe(t *testing.T) {
	hello := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "hello") })
	t.Run("stops with its context", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- Serve(ctx, &http.Server{Handler: hello}, ln) }()
		resp, err := http.Get("http://" + ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if got := string(body); got != "hello" {
			t.Errorf("body %q, want %q", got, "hello")
		}
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve gave %v, want nil: its context's end is its normal end", err)
		}
		if _, err := http.Get("http://" + ln.Addr().String()); err == nil {
			t.Error("the server still answers after Serve returned")
		}
	})
	t.Run("a listener that cannot serve", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ln.Close()
		if err := Serve(context.Background(), &http.Server{Handler: hello}, ln); err == nil {
			t.Error("Serve on a closed listener gave no error")
		}
	})
}
