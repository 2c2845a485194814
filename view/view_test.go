package view

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
)

// Each move's result is for the side to move, from the solved position.
func TestMoveResults(t *testing.T) {
	tests := []struct {
		name, board, want string
	}{
		// O to move: blocking at 2 still loses, slower; the rest lose at once.
		{"O to move", "XX./O../...", "loss loss loss loss loss loss"},
		// X to move: 2 wins; 5 blocks O's threat and draws; the rest lose.
		{"X to move", "XX./OO./...", "win draw loss loss loss"},
		{"empty board", ".../.../...", "draw draw draw draw draw draw draw draw draw"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rl := rules.Classic(game.Default)
			b, err := rl.Spec().Parse(tt.board)
			if err != nil {
				t.Fatal(err)
			}
			a, err := solve.Analyze(context.Background(), rl, b, 2)
			if err != nil {
				t.Fatal(err)
			}
			p := NewPosition(a)
			var got []string
			for _, m := range p.Moves {
				got = append(got, m.Result)
			}
			if strings.Join(got, " ") != tt.want {
				t.Fatalf("results %v, want %s", got, tt.want)
			}
		})
	}
}

// The colours of the results meet WCAG AA's contrast of 4.5:1 for text on
// the backgrounds they are drawn on: the explorer's page and the SVG.
func TestColoursContrast(t *testing.T) {
	for result, c := range Colours {
		for _, bg := range []string{"#fafafa", "#ffffff"} {
			if r := contrast(c, bg); r < 4.5 {
				t.Errorf("%s %s on %s: contrast %.2f:1, want 4.5:1 or more", result, c, bg, r)
			}
		}
	}
}

// contrast gives WCAG 2's contrast ratio of two colours #rrggbb.
func contrast(a, b string) float64 {
	la, lb := luminance(a), luminance(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// luminance gives WCAG 2's relative luminance of #rrggbb.
func luminance(hex string) float64 {
	var rgb [3]float64
	for i := range rgb {
		v, _ := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		c := float64(v) / 255
		if c <= 0.03928 {
			rgb[i] = c / 12.92
		} else {
			rgb[i] = math.Pow((c+0.055)/1.055, 2.4)
		}
	}
	return 0.2126*rgb[0] + 0.7152*rgb[1] + 0.0722*rgb[2]
}

// A why line that stops short says where, as the ply of its last move,
// the one meaning line_end has, as best_line_end has for a position; a
// line to the end says nothing.
func TestWhyLineEnd(t *testing.T) {
	rl := rules.Classic(game.Default)
	var b game.Board
	for _, short := range []bool{false, true} {
		w := NewWhy(rl, b, perfectMove(4), perfectMove(4), "best", []int{4, 0, 8}, short)
		want := 0
		if short {
			want = 3
		}
		if w.LineEnd != want || w.End != 3 {
			t.Errorf("short %t: line_end %d, end %d; want %d and 3", short, w.LineEnd, w.End, want)
		}
	}
}

// perfectMove is a drawing move to cell c.
func perfectMove(c int) perfect.Move { return perfect.Move{Cell: c, Value: perfect.Draw} }

// Explain stitches a line across a book's edge: where a position's best
// line stops short (best_line_end), it goes on from the view of the
// position there, and gives the line a whole solve gives; a view not
// known yet gives no line and no error; a search not settled stops it
// short, saying where.
func TestExplain(t *testing.T) {
	rl := rules.Classic(game.Default)
	viewOf := func(b game.Board) *Position {
		a, err := solve.Analyze(context.Background(), rl, b, 1)
		if err != nil {
			t.Fatal(err)
		}
		p := NewPosition(a)
		return &p
	}
	b, _ := rules.Play(rl, game.Board{}, "0,4,8") // O to move: cell 2 loses
	whole := func(p game.Board) (*Position, error) { return viewOf(p), nil }
	edge := func(p game.Board) (*Position, error) { // a book of ply 5: its lines stop there
		v := viewOf(p)
		if cut := 5 - p.Ply(); cut > 0 && cut < len(v.BestLine) {
			v.BestLine, v.LineEnd = v.BestLine[:cut], 5
		}
		return v, nil
	}
	want, err := Explain(rl, viewOf(b), b, 2, whole)
	if err != nil || want == nil || want.Shows != "refutation" || want.LineEnd != 0 || want.Line[0] != 2 {
		t.Fatalf("the whole line: %+v, %v; want a refutation from cell 2 to the end", want, err)
	}
	got, err := Explain(rl, viewOf(b), b, 2, edge)
	if err != nil || got == nil || !slices.Equal(got.Line, want.Line) || got.LineEnd != 0 {
		t.Errorf("across the book's edge: %+v, %v; want the line %v to the end", got, err, want.Line)
	}
	asked := 0
	pending := func(p game.Board) (*Position, error) {
		if asked++; asked > 1 {
			return nil, nil // searched still
		}
		return edge(p)
	}
	if got, err := Explain(rl, viewOf(b), b, 2, pending); got != nil || err != nil {
		t.Errorf("a view not known yet: %+v, %v; want no line and no error", got, err)
	}
	unsettled := func(p game.Board) (*Position, error) {
		v := viewOf(p)
		v.Proved, v.BestLine = &Proved{}, nil
		return v, nil
	}
	got, err = Explain(rl, viewOf(b), b, 2, unsettled)
	if err != nil || got == nil || got.LineEnd != got.End || len(got.Line) != 1 {
		t.Errorf("a search not settled: %+v, %v; want the move alone, stopped there", got, err)
	}
}

// AppendJSON appends to what dst holds the JSON MarshalJSON gives, compact
// and without a newline, in each of its shapes: settled, values without
// depths (depths null), and cut short (the value null unless proved).
// Each call takes the scratch the one before gave back.
func TestAppendJSON(t *testing.T) {
	rl := rules.Classic(game.Default)
	b, err := rl.Spec().Parse("XX./O../...")
	if err != nil {
		t.Fatal(err)
	}
	a, err := solve.Analyze(context.Background(), rl, b, 1)
	if err != nil {
		t.Fatal(err)
	}
	noDepths, cut, proved := a, a, a
	noDepths.NoDepths = true
	cut.Proved = &perfect.Bounds{Low: perfect.OWins, High: perfect.XWins}
	proved.Proved = &perfect.Bounds{Low: perfect.XWins, High: perfect.XWins}
	tests := []struct {
		name string
		a    perfect.Analysis
		want []string // in the JSON
	}{
		{"settled", a, []string{`"value":1,`, `"depth":`}},
		{"values without depths", noDepths, []string{`"value":1,`, `"depth":null`}},
		{"cut short", cut, []string{`"value":null`, `"depth":null`}},
		{"cut short, the value proved", proved, []string{`"value":1,`, `"depth":null`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewPosition(tt.a)
			whole, err := p.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			got, err := p.AppendJSON([]byte("before "))
			if err != nil {
				t.Fatal(err)
			}
			if want := "before " + string(whole); string(got) != want {
				t.Errorf("AppendJSON after %q:\n got %s\nwant %s", "before ", got, want)
			}
			for _, w := range tt.want {
				if !strings.Contains(string(whole), w) {
					t.Errorf("JSON %s lacks %s", whole, w)
				}
			}
			var compact bytes.Buffer
			if err := json.Compact(&compact, whole); err != nil || compact.String() != string(whole) {
				t.Errorf("JSON %q is not one compact value (%v)", whole, err)
			}
		})
	}
}
