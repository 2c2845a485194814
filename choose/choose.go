// Package choose owns the rules of the flags that choose a set of
// positions and who answers it, worded once for every front that takes
// them: the command line (package cmd) and the Beam pipeline (beam/). A
// front binds the flags its own way and hands their values here, with
// which of them the user gave; what is refused, and the words that say
// why and how to mend it, are the same on both.
package choose

import (
	"fmt"
	"strings"
	"time"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/positions"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Given reports whether the user gave the flag of a name (without its
// dashes).
type Given func(name string) bool

// Choosers are the flags that choose positions, each alone, where a front
// takes them all: a file, a sample, every position up to a ply.
var Choosers = []string{"positions", "sample", "max-ply"}

// Flags are what the flags that choose a set of positions say, as typed.
type Flags struct {
	Positions string  // --positions FILE
	Sample    int     // --sample N
	Plies     string  // --plies RANGE
	Seed      uint64  // --seed S
	Epsilon   float64 // --epsilon E, where the set owns it
	Quiet     bool    // --quiet-positions
	// OnePerClass keeps one position of each symmetry class
	// (--one-per-class).
	OnePerClass bool
	MaxPly      int // --max-ply N
}

// Chooser gives the flag given, of those a front offers (Choosers or
// some of them), that chooses the positions ("positions", "sample" or
// "max-ply"), "" when none is; it refuses two, and the flags that go with
// a sample or a ply without one. ownEpsilon says that --epsilon is the
// set's (grade's is its opponent's); whole, that --seed seeds other draws
// of the whole game too.
func Chooser(given Given, offered []string, ownEpsilon, whole bool) (string, error) {
	var from, keeps []string
	for _, name := range offered {
		if given(name) {
			from = append(from, name)
		}
		if name != "positions" {
			keeps = append(keeps, "--"+name+" N")
		}
	}
	if len(from) > 1 {
		return "", fmt.Errorf("--%s and --%s each choose the positions; give one of them", from[0], from[1])
	}
	if given("quiet-positions") && (len(from) == 0 || from[0] == "positions") {
		verb := "choose"
		if len(keeps) == 1 {
			verb = "chooses"
		}
		return "", fmt.Errorf("--quiet-positions goes with %s, which %s the positions it keeps the quiet of", strings.Join(keeps, " or "), verb)
	}
	if given("one-per-class") && len(from) == 0 {
		return "", fmt.Errorf("--one-per-class goes with %s, which %s the positions it keeps one of each symmetry class of", hint(offered), choosesVerb(offered))
	}
	if ownEpsilon && given("epsilon") && !given("sample") {
		return "", fmt.Errorf("--epsilon goes with --sample N, whose play it makes noisy perfect play")
	}
	for _, name := range []string{"seed", "plies"} {
		if given(name) && !given("sample") && !(whole && name == "seed") {
			return "", fmt.Errorf("--%s goes with --sample N, which draws positions by random play", name)
		}
	}
	if len(from) == 0 {
		return "", nil
	}
	return from[0], nil
}

// SampleOf gives the sample f asks for of rl's game: --sample, --plies,
// --seed, --quiet-positions, --one-per-class and, where the user gave it (noisy), --epsilon,
// which the manifest then records.
func SampleOf(f Flags, rl rules.Rules, plies, noisy bool) (*positions.Sample, error) {
	if err := Count(f.Sample); err != nil {
		return nil, err
	}
	if !plies {
		return nil, fmt.Errorf("--sample goes with --plies, the plies play stops at, such as --plies 8 or --plies 10-14")
	}
	p, err := positions.ParsePlies(f.Plies, rl.Spec().Cells())
	if err != nil {
		return nil, fmt.Errorf("--plies: %w", err)
	}
	s := &positions.Sample{N: f.Sample, Seed: f.Seed, Plies: p, Quiet: f.Quiet, OnePerClass: f.OnePerClass}
	if noisy {
		if err := s.WithEpsilon(f.Epsilon); err != nil {
			return nil, fmt.Errorf("--epsilon %w", err)
		}
	}
	return s, nil
}

// Count refuses --sample n unless a count of positions.
func Count(n int) error {
	if n < 1 {
		return fmt.Errorf("--sample %d is not a count of positions, want 1 or more", n)
	}
	return nil
}

// MaxPly refuses --max-ply n on a board of cells cells, unless a ply of it.
func MaxPly(n, cells int) error {
	if n < 0 || n > cells {
		return fmt.Errorf("--max-ply %d is not a ply of a %d-cell board, want 0 to %d", n, cells, cells)
	}
	return nil
}

// Who refuses --engine named beside --db: each chooses who answers.
func Who(named, db string) error {
	if db != "" && named != "" && named != "auto" {
		return fmt.Errorf("--engine %s and --db each choose who answers; give one of them", game.Echo(named))
	}
	return nil
}

// TimeLimit refuses a negative --time-limit.
func TimeLimit(d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("--time-limit %s is negative: give a duration such as 30s, or 0 for no limit", d)
	}
	return nil
}

// WithSet refuses the flags of names given without a chosen set (set),
// which they bound or shape the answers of (--time-limit, --value-only),
// naming the flags of offered (Choosers or some of them) that choose one.
func WithSet(given Given, set bool, offered []string, names ...string) error {
	for _, name := range names {
		if !set && given(name) {
			return fmt.Errorf("--%s goes with a chosen set: give %s", name, hint(offered))
		}
	}
	return nil
}

// choosesVerb gives "choose", or "chooses" where offered holds one flag.
func choosesVerb(offered []string) string {
	if len(offered) == 1 {
		return "chooses"
	}
	return "choose"
}

// hint names the flags of offered that choose a set, with their values.
func hint(offered []string) string {
	var h []string
	for _, name := range offered {
		h = append(h, "--"+name+map[string]string{"positions": " FILE"}[name])
		if name != "positions" {
			h[len(h)-1] += " N"
		}
	}
	if len(h) <= 2 {
		return strings.Join(h, " or ")
	}
	return strings.Join(h[:len(h)-1], ", ") + " or " + h[len(h)-1]
}

// Unsettled is the error of a set whose n positions were not settled
// within --time-limit limit, and are left out of the dataset's tables;
// nil when n is 0.
func Unsettled(n int, limit time.Duration) error {
	if n == 0 {
		return nil
	}
	return fmt.Errorf("%d of the chosen positions were not settled within --time-limit %s and are left out of the tables (manifest.json names them); raise --time-limit, or leave it out to search to the end", n, limit)
}
