package web

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/report"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
)

func server(t *testing.T, rl rules.Rules) *httptest.Server {
	t.Helper()
	sol, err := solve.Game(context.Background(), rl, 2)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(Handler(sol))
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

// The API answers what solve --position --json prints (report.Position of
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
				want, _ := json.MarshalIndent(report.NewPosition(a), "", "  ")
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
		{"outside the app", free, "/nope", 404, "no such page"},
		{"outside the API", free, "/api/positions", 404, "no such page"},
		{"the page", free, "/", 200, "<title>tateti-lab explorer</title>"},
		{"the script", free, "/app.js", 200, "/api/position?board="},
		{"a move", free, "/api/position?board=.../.../...&move=4", 200, `"board": ".../.X./..."`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, body := get(t, tt.srv, tt.path)
			if code != tt.code || !strings.Contains(body, tt.want) {
				t.Fatalf("status %d, body %q; want %d and %q", code, body, tt.code, tt.want)
			}
			if code != 200 {
				var e struct{ Error string }
				if err := json.Unmarshal([]byte(body), &e); err != nil || e.Error == "" {
					t.Fatalf("body %q is not a JSON error: %v", body, err)
				}
			}
		})
	}
}
