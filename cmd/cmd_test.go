package cmd

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// run runs the command line and returns its stdout, stderr and exit code.
func run(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (run go test ./cmd -update if the change is meant)\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

func TestGolden(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"enumerate.txt", []string{"enumerate"}},
		{"enumerate.json", []string{"enumerate", "--json"}},
		{"enumerate-3x4.txt", []string{"enumerate", "--size", "3x4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, "", tt.args...)
			if code != 0 {
				t.Fatalf("tateti-lab %s: exit %d, stderr %q", strings.Join(tt.args, " "), code, errOut)
			}
			golden(t, tt.name, out)
		})
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"size without x", []string{"enumerate", "--size", "3"}, `size "3" is not ROWSxCOLS`},
		{"empty side", []string{"enumerate", "--size", "0x3"}, "size 0x3 has an empty side"},
		{"too large to exhaust", []string{"enumerate", "--size", "5x5"}, "size 5x5 has 25 cells, too many to exhaust"},
		{"k too long", []string{"enumerate", "--k", "7"}, "k 7 does not fit a 3x3 board, want 1 to 3"},
		{"unknown flag", []string{"enumerate", "--sise", "3x3"}, "unknown flag: --sise"},
		{"stray argument", []string{"enumerate", "extra"}, `unknown command "extra"`},
		{"bad workers", []string{"enumerate", "--workers", "0"}, "--workers 0 is not a count"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, "", tt.args...)
			if code != exitUsage {
				t.Errorf("exit code = %d, want %d", code, exitUsage)
			}
			if !strings.Contains(errOut, tt.want) {
				t.Errorf("stderr = %q, want it to contain %q", errOut, tt.want)
			}
			if out != "" {
				t.Errorf("stdout = %q, want nothing on an error", out)
			}
		})
	}
}
