package external

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/extproc"
	"github.com/tateti-lab/tateti-lab/internal/fakeprog"
	"github.com/tateti-lab/tateti-lab/internal/protocol"
	"github.com/tateti-lab/tateti-lab/rules"
)

func TestMain(m *testing.M) { os.Exit(fakeprog.TestMain(m)) }

// enumerated gives every reachable position of 3x3.
func enumerated(t *testing.T) *enumerate.Result {
	t.Helper()
	e, err := enumerate.Game(context.Background(), rules.Classic(game.Default), 2)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func fake(mode string, timeout time.Duration, cells [3]string, results [4]string) *Checker {
	os.Setenv(fakeprog.Env, mode)
	return &Checker{Program: protocol.Program{Argv: []string{os.Args[0]}, Cells: cells, Timeout: timeout}, Results: results}
}

var (
	seed000 = [2]any{[3]string{"0", "1", "-1"}, [4]string{"0", "1", "2", "3"}}
	seed002 = [2]any{[3]string{"1", "2", "0"}, [4]string{"1", "2", "0", "-1"}}
)

func TestExternal(t *testing.T) {
	boards := PositionBoards(enumerated(t))
	tests := []struct {
		name     string
		mode     string
		conv     [2]any
		agree    int64
		disagree bool
		err      string
	}{
		{"the prime-product article convention", "seed000", seed000, 5478, false, ""},
		{"the Codewars product kata convention", "seed002", seed002, 5478, false, ""},
		{"wrong: forgets anti-diagonals", "noanti", seed000, 0, true, ""},
		{"crashes", "crash", seed000, 0, false, "stopped early: exit status 3 (10 of 5478 answers read); the end of its stderr:\nfakeprog: index out of range"},
		{"hangs", "hang", seed000, 0, false, "gave no answer for 2s"},
		{"prints garbage", "garbage", seed000, 0, false, `answered "maybe" to request 4, want one of 0, 1, 2, 3 (3 of 5478 answers read)`},
		{"answers too much", "extra", seed000, 0, false, `printed more answers than requests: line 5479 is "0"`},
		{"stops short", "short", seed000, 0, false, "exited with status 0 before answering every request (5 of 5478 answers read)"},
		{"wrong convention", "seed002", seed000, 0, false, `answered "-1" to request 1`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := fake(tt.mode, 2*time.Second, tt.conv[0].([3]string), tt.conv[1].([4]string))
			start := time.Now()
			rep, err := x.Run(context.Background(), rules.Spec{Spec: game.Default}, boards)
			if tt.err != "" {
				var xe *extproc.ProgramError
				if !errors.As(err, &xe) || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error = %v, want a ProgramError containing %q", err, tt.err)
				}
				if time.Since(start) > 10*time.Second {
					t.Fatalf("took %v: the program was not stopped", time.Since(start))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.disagree != (rep.Disagree > 0) || (tt.agree > 0 && rep.Agree != tt.agree) {
				t.Fatalf("agree %d disagree %d (first %v); want agree %d, disagreements %v", rep.Agree, rep.Disagree, rep.First, tt.agree, tt.disagree)
			}
		})
	}
}

func TestExternalCannotStart(t *testing.T) {
	x := &Checker{Program: protocol.Program{Argv: []string{"/nonexistent/checker"}, Cells: protocol.CellTokens{"X", "O", "."}, Timeout: time.Second}, Results: [4]string{"X", "O", "draw", "open"}}
	_, err := x.Run(context.Background(), rules.Spec{Spec: game.Default}, PositionBoards(enumerated(t)))
	if err == nil || !strings.Contains(err.Error(), "cannot start") {
		t.Fatalf("error = %v, want one that says it cannot start", err)
	}
}

func TestExternalAllBoards(t *testing.T) {
	x := fake("seed000", 30*time.Second, seed000[0].([3]string), seed000[1].([4]string))
	rep, err := x.Run(context.Background(), rules.Spec{Spec: game.Default}, RawBoards(rules.Classic(game.Default)))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Agree != 5478 || rep.Disagree != 0 || rep.UnreachableBoards != 19683-5478 {
		t.Fatalf("all boards: agree %d, disagree %d, unreachable %d; want 5478, 0, %d", rep.Agree, rep.Disagree, rep.UnreachableBoards, 19683-5478)
	}
}
