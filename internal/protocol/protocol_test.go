package protocol

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
)

func TestAppendLine(t *testing.T) {
	b, _ := game.Default.Parse("XO./.X./..O")
	got := string(CellTokens{"0", "1", "-1"}.AppendLine(nil, game.Default, b))
	if want := "0 1 -1 -1 0 -1 -1 -1 1\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestMoveFormats(t *testing.T) {
	free := rules.Classic(game.Default)
	grav := rules.New(rules.Spec{Spec: game.Default, Gravity: true})
	b, _ := game.Default.Parse(".../.../X..")
	tests := []struct {
		name   string
		rules  rules.Rules
		format string
		tok    string
		cell   int
		err    string
	}{
		{"cell", free, "cell", "4", 4, ""},
		{"row,col", free, "row,col", "1,2", 5, ""},
		{"row,col with a space", free, "row,col", "1, 2", 5, ""},
		{"column lands on the mark", grav, "column", "0", 3, ""},
		{"column on the floor", grav, "column", "2", 8, ""},
		{"not a cell", free, "cell", "9", 0, `"9" is not a cell, want 0 to 8`},
		{"not a row,col", free, "row,col", "3,0", 0, `"3,0" is not a row,col on 3x3`},
		{"column without gravity", free, "column", "0", 0, "move format column needs gravity"},
		{"unknown format", free, "san", "e4", 0, `move format "san" is unknown`},
		{"column-major: row 1, column 2", free, "column-major", "7", 5, ""},
		{"openspiel's tic_tac_toe is row-major", free, "openspiel", "5", 5, ""},
		{"pettingzoo's tictactoe_v3 is column-major", free, "pettingzoo", "7", 5, ""},
		{"openspiel's connect_four is a column from 0", grav, "openspiel", "2", 8, ""},
		{"pettingzoo's connect_four_v3 is a column from 0", grav, "pettingzoo", "0", 3, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := ParseMoveFormat(tt.format, tt.rules.Spec())
			var cell int
			if err == nil {
				cell, err = f.Parse(tt.rules, b, tt.tok)
			}
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || cell != tt.cell {
				t.Fatalf("Parse(%q) = %d, %v; want %d", tt.tok, cell, err, tt.cell)
			}
			if back := f.Format(game.Default, cell); f != Column && strings.ReplaceAll(tt.tok, " ", "") != back {
				t.Fatalf("Format(%d) = %q, want %q", cell, back, tt.tok)
			}
		})
	}
}

// Column-major numbers cells column by column: on 2 rows by 3 columns,
// action 1 is row 1 of column 0, and back.
func TestColumnMajor(t *testing.T) {
	s := game.Spec{Rows: 2, Cols: 3, K: 2}
	rl := rules.Classic(s)
	for action, cell := range []int{0, 3, 1, 4, 2, 5} {
		got, err := ColumnMajor.Parse(rl, game.Board{}, strconv.Itoa(action))
		if err != nil || got != cell {
			t.Fatalf("action %d: cell %d, %v; want %d", action, got, err, cell)
		}
		if back := ColumnMajor.Format(s, cell); back != strconv.Itoa(action) {
			t.Fatalf("Format(%d) = %s, want %d", cell, back, action)
		}
	}
}

func TestSample(t *testing.T) {
	a, b := Sample(1000, 50, 7), Sample(1000, 50, 7)
	if len(a) != 50 || !slices.Equal(a, b) || !slices.IsSorted(a) || len(slices.Compact(slices.Clone(a))) != 50 {
		t.Fatalf("Sample(1000, 50, 7) = %v and %v, want 50 sorted distinct indices, the same twice", a, b)
	}
	if c := Sample(1000, 50, 8); slices.Equal(a, c) {
		t.Fatal("seeds 7 and 8 give the same sample")
	}
	if all := Sample(5, 9, 1); !slices.Equal(all, []int{0, 1, 2, 3, 4}) {
		t.Fatalf("Sample(5, 9) = %v, want every index", all)
	}
	if got := len(slices.Compact(Sample(100, 99, 3))); got != 99 {
		t.Fatalf("Sample(100, 99) has %d distinct indices, want 99", got)
	}
}

func TestTokens(t *testing.T) {
	tests := []struct {
		in      string
		n       int
		wantErr string
	}{
		{"X,O,.", 3, ""},
		{"0,1,-1", 3, ""},
		{"X,O", 3, "has 2 tokens, want 3"},
		{"X,,.", 3, "has an empty token"},
		{"X,X,.", 3, `names "X" twice`},
		{"a b,c,d", 3, "one with a space"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := Tokens(tt.in, tt.n, "X, O, empty")
			if (tt.wantErr == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("Tokens(%q) error = %v, want %q", tt.in, err, tt.wantErr)
			}
		})
	}
}

func FuzzTokens(f *testing.F) {
	for _, s := range []string{"X,O,.", "0,1,-1", ",,", "a,a,b", "x y,z,w"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		toks, err := Tokens(s, 3, "X, O, empty")
		if err != nil {
			return
		}
		if len(toks) != 3 || strings.Join(toks, ",") != s {
			t.Fatalf("Tokens(%q) = %q, which does not join back", s, toks)
		}
	})
}

func TestEnvironment(t *testing.T) {
	tests := []struct {
		rules rules.Rules
		want  string
	}{
		{variant(3, 3, 3, false, false), "TATETI_ROWS=3 TATETI_COLS=3 TATETI_K=3"},
		{variant(4, 5, 4, true, false), "TATETI_ROWS=4 TATETI_COLS=5 TATETI_K=4 TATETI_GRAVITY=1"},
		{variant(3, 3, 3, false, true), "TATETI_ROWS=3 TATETI_COLS=3 TATETI_K=3 TATETI_MISERE=1"},
		{variant(3, 3, 3, true, true), "TATETI_ROWS=3 TATETI_COLS=3 TATETI_K=3 TATETI_GRAVITY=1 TATETI_MISERE=1"},
	}
	for _, tt := range tests {
		if got := strings.Join(Environment(tt.rules.Spec()), " "); got != tt.want {
			t.Errorf("Environment(%v) = %q, want %q", tt.rules.Spec(), got, tt.want)
		}
	}
}

func variant(rows, cols, k int, gravity, misere bool) rules.Rules {
	return rules.New(rules.Spec{Spec: game.Spec{Rows: rows, Cols: cols, K: k}, Gravity: gravity, Misere: misere})
}

// FuzzParse reads any token as a move in every format, on a free board and
// on a gravity one: a move read names a cell of the board, written back it
// reads the same (a column names the cell its mark lands on), and a token
// that is no move is an error, never a panic.
func FuzzParse(f *testing.F) {
	for _, tok := range []string{"4", "1,2", " 1 , 2", "0", "-1", "9", "3,", ",", "1e3", "007", "+2", "99999999999999999999"} {
		f.Add(tok)
	}
	free := rules.Classic(game.Spec{Rows: 3, Cols: 4, K: 3})
	grav := rules.New(rules.Spec{Spec: game.Spec{Rows: 6, Cols: 7, K: 4}, Gravity: true})
	// On the gravity board column 3 is full and column 0 holds one mark.
	gb, err := rules.Play(grav, game.Board{}, "4444441")
	if err != nil {
		f.Fatal(err)
	}
	boards := []struct {
		rl      rules.Rules
		b       game.Board
		formats []MoveFormat
	}{
		{free, game.Board{}, []MoveFormat{Cell, RowCol, ColumnMajor}},
		{grav, gb, []MoveFormat{Cell, RowCol, Column, ColumnMajor}},
	}
	f.Fuzz(func(t *testing.T, tok string) {
		for _, tb := range boards {
			s := tb.rl.Spec().Spec
			for _, mf := range tb.formats {
				cell, err := mf.Parse(tb.rl, tb.b, tok)
				if err != nil {
					continue
				}
				if cell < 0 || cell >= s.Cells() {
					t.Fatalf("%s: %q read as cell %d, off the %s board", mf, tok, cell, s.Size())
				}
				if mf == Column && tb.rl.Playable(tb.b)&(1<<cell) == 0 {
					t.Fatalf("column: %q read as cell %d, where no mark lands", tok, cell)
				}
				back, err := mf.Parse(tb.rl, tb.b, mf.Format(s, cell))
				if err != nil || back != cell {
					t.Fatalf("%s: %q read as cell %d, written %q, read back as %d, %v", mf, tok, cell, mf.Format(s, cell), back, err)
				}
			}
		}
	})
}
