package rules

import (
	"fmt"
	"strings"

	"github.com/tateti-lab/tateti-lab/game"
)

// A NamedGame is a common game of the family under the name people and
// game libraries give it (OpenSpiel's, with hyphens).
type NamedGame struct {
	Name  string
	Title string // the name in prose: "Connect Four"
	Spec  Spec
}

// Games are the named games: tic-tac-toe, and Connect Four as OpenSpiel,
// PettingZoo and Kaggle ConnectX play it, 6 rows by 7 columns.
var Games = []NamedGame{
	{"tic-tac-toe", "tic-tac-toe", Spec{Spec: game.Spec{Rows: 3, Cols: 3, K: 3}}},
	{"connect-four", "Connect Four", Spec{Spec: game.Spec{Rows: 6, Cols: 7, K: 4}, Gravity: true}},
}

// Title names s in prose: a named game's title ("Connect Four", "misère
// tic-tac-toe"), else its Words.
func (s Spec) Title() string {
	for _, g := range Games {
		if g.Spec.Spec == s.Spec && g.Spec.Gravity == s.Gravity {
			if s.Misere {
				return "misère " + g.Title
			}
			return g.Title
		}
	}
	return s.Words()
}

// Named gives the game named name, hyphens or underscores alike
// ("connect_four" is OpenSpiel's spelling).
func Named(name string) (NamedGame, error) {
	key := strings.ReplaceAll(strings.ToLower(name), "_", "-")
	for _, g := range Games {
		if g.Name == key {
			return g, nil
		}
	}
	return NamedGame{}, fmt.Errorf("game %q is not one of %s; give it by its flags (--size, --k, --gravity) instead", game.Echo(name), strings.Join(GameNames(), ", "))
}

// GameNames gives the names of Games, in their order.
func GameNames() []string {
	names := make([]string, len(Games))
	for i, g := range Games {
		names[i] = g.Name
	}
	return names
}

// Flags gives the game flags that say s: "--gravity --size 6x7 --k 4".
func (s Spec) Flags() string {
	var b strings.Builder
	if s.Gravity {
		b.WriteString("--gravity ")
	}
	if s.Misere {
		b.WriteString("--misere ")
	}
	fmt.Fprintf(&b, "--size %dx%d --k %d", s.Rows, s.Cols, s.K)
	return b.String()
}

// Mistaken says whether a gravity board of rows by cols, its line k (0 for
// the shorter side), is one people take for Connect Four by mistake: 7x6,
// 7 rows by 6 columns, or 6x7 with six in a row. Tromp's 5x4 boards, taller
// than wide on purpose, are not.
func Mistaken(rows, cols, k int) bool {
	return (rows == 7 && cols == 6) || (rows == 6 && cols == 7 && k == 0)
}

// GameFlags are the game flags as a user gave them, on the command line or
// to the Beam pipeline: a named game (--game), or the board flags
// (--size, --k, --gravity), and --misere with either.
type GameFlags struct {
	Game    string
	Size    string
	K       int
	Gravity bool
	Misere  bool
	// Given says whether the user gave the flag of that name.
	Given func(name string) bool
}

// FlagSet is where Bind defines the game flags: the standard library's
// flag.FlagSet (the Beam pipeline) or pflag's (the command line).
type FlagSet interface {
	StringVar(p *string, name, value, usage string)
	IntVar(p *int, name string, value int, usage string)
	BoolVar(p *bool, name string, value bool, usage string)
}

// Bind defines the game flags on fs, into f, with their defaults (tic-tac-toe)
// and help; Given is the caller's to set.
func (f *GameFlags) Bind(fs FlagSet) {
	named := make([]string, len(Games))
	for i, g := range Games {
		named[i] = fmt.Sprintf("%s (%s)", g.Name, g.Spec.Flags())
	}
	fs.StringVar(&f.Game, "game", "", "a named game instead of the board flags: "+strings.Join(named, ", "))
	fs.StringVar(&f.Size, "size", "3x3", "board size as ROWSxCOLS")
	fs.IntVar(&f.K, "k", 0, "marks in a row to win (default: the shorter side)")
	fs.BoolVar(&f.Gravity, "gravity", false, "a mark drops to the lowest empty cell of its column, as in Connect Four")
	fs.BoolVar(&f.Misere, "misere", false, "misère: whoever completes k in a row loses")
}

// Spec gives the game the flags name. A named game with a board flag
// beside it, or --k 0 given, is an error that names the flags.
func (f GameFlags) Spec() (Spec, error) {
	if f.Given("game") {
		named, err := Named(f.Game)
		if err != nil {
			return Spec{}, err
		}
		for _, name := range []string{"size", "k", "gravity"} {
			if f.Given(name) {
				return Spec{}, fmt.Errorf("--game %s stands for %s; give --game or --%s, not both", named.Name, named.Spec.Flags(), name)
			}
		}
		named.Spec.Misere = f.Misere
		return named.Spec, nil
	}
	if f.K == 0 && f.Given("k") {
		return Spec{}, fmt.Errorf("--k 0 is not a line length, want 1 or more (or leave --k out for the shorter side)")
	}
	rows, cols, err := game.ParseSize(f.Size)
	if err != nil {
		return Spec{}, err
	}
	s, err := game.NewSpec(rows, cols, f.K)
	if err != nil {
		return Spec{}, err
	}
	return Spec{Spec: s, Gravity: f.Gravity, Misere: f.Misere}, nil
}
