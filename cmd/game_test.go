package cmd

import (
	"slices"
	"strings"
	"testing"
)

// --game names a game the board flags also give, and every command answers
// the two spellings alike: the same output, errors and exit code.
func TestGameNames(t *testing.T) {
	c4 := []string{"--gravity", "--size", "6x7", "--k", "4"}
	ttt := []string{"--size", "3x3", "--k", "3"}
	tests := []struct {
		name  string
		flags []string // what --game stands for
		game  string
		args  []string
	}{
		{"enumerate", c4, "connect-four", []string{"enumerate", "--max-ply", "4", "--json"}},
		{"solve a position", c4, "connect_four", []string{"solve", "--moves", "444444333333", "--json"}},
		{"solve its value alone", c4, "connect-four", []string{"solve", "--moves", "4444443333332222", "--value-only"}},
		{"verify, refused", c4, "connect-four", []string{"verify"}},
		{"misère", c4, "connect-four", []string{"enumerate", "--max-ply", "3", "--misere"}},
		{"tic-tac-toe solved", ttt, "tic-tac-toe", []string{"solve", "--json"}},
		{"tic-tac-toe enumerated", ttt, "tic-tac-toe", []string{"enumerate"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, "", slices.Concat(tt.args, tt.flags)...)
			named, namedErr, namedCode := run(t, "", slices.Concat(tt.args, []string{"--game", tt.game})...)
			if named != out || namedErr != errOut || namedCode != code {
				t.Errorf("--game %s: exit %d\n%s%s\nwant, as %s: exit %d\n%s%s", tt.game, namedCode, named, namedErr, strings.Join(tt.flags, " "), code, out, errOut)
			}
		})
	}
}

// --game goes with --misere but not with the board flags it stands for, and
// a game it does not know is refused with the names it knows; the boards
// taken for Connect Four by mistake get a note.
func TestNamedGameFlags(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"with --size", []string{"enumerate", "--game", "connect-four", "--size", "6x7", "--max-ply", "1"}, exitUsage, "--game connect-four stands for --gravity --size 6x7 --k 4; give --game or --size, not both"},
		{"with --k", []string{"enumerate", "--game", "tic-tac-toe", "--k", "3"}, exitUsage, "--game tic-tac-toe stands for --size 3x3 --k 3; give --game or --k, not both"},
		{"unknown", []string{"enumerate", "--game", "gomoku"}, exitUsage, `game "gomoku" is not one of tic-tac-toe, connect-four`},
		{"7 rows by 6 columns", []string{"enumerate", "--gravity", "--size", "7x6", "--k", "4", "--max-ply", "1"}, exitOK, "note: this is 7x6 board, 4 in a row, gravity, X first; Connect Four is --game connect-four"},
		{"six in a row", []string{"enumerate", "--gravity", "--size", "6x7", "--max-ply", "1"}, exitOK, "note: this is 6x7 board, 6 in a row, gravity, X first"},
		{"a database names its game", []string{"db", "info", "--game", "connect-four", t.TempDir()}, exitUsage, "--game does not go with tateti-lab db info"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := run(t, "", tt.args...)
			if code != tt.code || !strings.Contains(errOut, tt.stderr) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errOut, tt.code, tt.stderr)
			}
		})
	}
}
