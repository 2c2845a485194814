// Package positions owns the chosen sets of positions that commands answer
// one at a time where a whole game is past exhausting: a reproducible sample
// drawn by random play, and a file of move sequences, one a line. A set is
// a list of distinct boards that can arise in play, in the order they were
// drawn or read.
package positions

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/interrupt"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Plies is a range of plies, both ends included.
type Plies struct{ Low, High int }

// String writes p as ParsePlies reads it.
func (p Plies) String() string {
	if p.Low == p.High {
		return strconv.Itoa(p.Low)
	}
	return fmt.Sprintf("%d-%d", p.Low, p.High)
}

// ParsePlies reads a ply ("8") or a range of plies ("10-14") of a board of
// cells cells.
func ParsePlies(text string, cells int) (Plies, error) {
	lo, hi, isRange := strings.Cut(text, "-")
	if !isRange {
		hi = lo
	}
	var p Plies
	var err1, err2 error
	p.Low, err1 = strconv.Atoi(lo)
	p.High, err2 = strconv.Atoi(hi)
	if err1 != nil || err2 != nil || p.Low < 0 || p.High < p.Low || p.High >= cells {
		return Plies{}, fmt.Errorf("plies %q are not a ply or a range of them, want a number such as 8 or a range such as 10-14, from 0 to %d", game.Echo(text), cells-1)
	}
	return p, nil
}

// Sample says how to draw positions by random play.
type Sample struct {
	N     int    `json:"n"`     // distinct positions wanted
	Seed  uint64 `json:"seed"`  // the seed of every choice
	Plies Plies  `json:"plies"` // the ply of each position, drawn uniformly from the range
	// Quiet keeps only quiet positions (rules.Quiet), one of each class of
	// boards equal up to the rules' symmetries, as UCI's Connect-4 data set
	// holds them.
	Quiet bool `json:"quiet"`
	// OnePerClass keeps one position of each class of boards equal up to
	// the rules' symmetries (under gravity, of each mirror pair): the first
	// the games reach. Quiet keeps one of each already.
	OnePerClass bool `json:"one_per_class,omitempty"`
	// Epsilon is the noise of the play that draws the positions
	// (perfect.Noisy): nil or 1 random play, each move uniform among the
	// legal ones; below 1 a best move with probability 1-E.
	Epsilon *float64 `json:"epsilon,omitempty"`
}

// WithEpsilon sets the sample's play to noisy perfect play of noise e,
// given by a user (--epsilon), once checked: a probability, -0 taken as 0,
// so that the manifest records what was asked and nothing else. A sample
// whose user gave no epsilon keeps it nil: random play, said as such.
func (s *Sample) WithEpsilon(e float64) error {
	if err := perfect.CheckEpsilon(e); err != nil {
		return err
	}
	e = max(e, 0) // -0 is 0
	s.Epsilon = &e
	return nil
}

// BestMove says whether the move at cell of b, a position in progress, is
// one of its best: what perfect play in a noisy draw asks, move by move
// (perfect.Noisy.Pick), of the engine that answers every position.
type BestMove func(ctx context.Context, b game.Board, cell int) (bool, error)

// Play gives the play s draws by: random play, or noisy perfect play.
func (s Sample) Play() perfect.Noisy {
	if s.Epsilon == nil {
		return perfect.Noisy{Epsilon: 1}
	}
	return perfect.Noisy{Epsilon: *s.Epsilon}
}

// Read reads a file of positions of rl, one a line (rules.ParsePosition):
// the moves that reach it from the empty board (under gravity the columns
// in Connect-Four notation, "4453"; cell numbers joined by commas
// otherwise), or the board itself, its rows joined by slashes
// ("XO./.X./..O"). Anything after the position on a line, past a space or a tab, is
// ignored (Pons' benchmark sets give each position's score there), and so
// are blank lines and lines starting with #. A position that comes again
// is kept once. An error names the line.
func Read(rl rules.Rules, r io.Reader) ([]game.Board, []History, error) {
	seen := map[game.Board]bool{}
	var out []game.Board
	var hs []History
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), MaxLine)
	n := 1
	for ; sc.Scan(); n++ {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		b, cells, err := rules.ParseLine(rl, fields[0])
		if err != nil {
			return nil, nil, fmt.Errorf("line %d: %w", n, err)
		}
		if !seen[b] {
			seen[b] = true
			out, hs = append(out, b), append(hs, historyOf(cells))
		}
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, nil, fmt.Errorf("line %d is longer than %d bytes", n, MaxLine)
	} else if err != nil {
		return nil, nil, err
	}
	if len(out) == 0 {
		return nil, nil, fmt.Errorf("no positions: want one a line, a move sequence such as 4453 or a board such as 'XO./.X./..O'")
	}
	return out, hs, nil
}

// A History is the cells played from the empty board to a position, in
// order: the game a sample drew, a file's move sequence. It is nil where
// they are not known: a board given as such, every position up to a ply.
type History []int8

// historyOf gives the cells as a History; nil for nil.
func historyOf(cells []int) History {
	if cells == nil {
		return nil
	}
	h := make(History, len(cells))
	for i, c := range cells {
		h[i] = int8(c)
	}
	return h
}

// Known is what is known of a chosen set's positions beside their boards,
// an entry a position in the set's order: the paths that reach each where
// they were counted (-1 elsewhere), and its history where known (nil
// elsewhere; Histories nil where none is).
type Known struct {
	Paths     []int64
	Histories []History
}

// None gives what is known of n positions of which nothing is: no paths
// counted, no history (Histories nil).
func None(n int) Known {
	k := Known{Paths: make([]int64, n)}
	for i := range k.Paths {
		k.Paths[i] = -1
	}
	return k
}

// MarshalText writes p as ParsePlies reads it.
func (p Plies) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads p as MarshalText writes it, a range of plies of a
// board of up to 64 cells, so that a sample passes through JSON whole (a
// manifest, a pipeline's transform).
func (p *Plies) UnmarshalText(text []byte) (err error) {
	*p, err = ParsePlies(string(text), 65)
	return err
}

// A Source says where a chosen set's positions come from: the "from" of
// the record a dataset keeps (Choice).
type Source string

// The sources of positions: the three a user chooses, each with the field
// of Choice that says more, and a database's every position, which an
// export of a database records.
const (
	FromSample Source = "sample"  // drawn by play (Choice.Sample)
	FromFile   Source = "file"    // read from a file of move sequences (Choice.File)
	FromMaxPly Source = "max_ply" // every position up to a ply (Choice.MaxPly)
	FromDB     Source = "db"      // every position of a database, read ply by ply
)

// A Choice is one way to choose a set of positions, and, in JSON, the
// record of it that a dataset keeps: a sample by random play, a file of
// move sequences, or every position up to a ply.
type Choice struct {
	From   Source  `json:"from"`             // FromSample, FromFile or FromMaxPly (FromDB in a record)
	Sample *Sample `json:"sample,omitempty"` // from a sample
	File   string  `json:"file,omitempty"`   // from a file (see Open): its name as given
	SHA256 string  `json:"sha256,omitempty"` // and the SHA-256 of what was read
	MaxPly *int    `json:"max_ply,omitempty"`
	// Quiet, with MaxPly, keeps only the quiet positions (rules.Quiet) of
	// ply MaxPly, the least of each class of boards equal up to the rules'
	// symmetries (game.Least): at ply 8 of Connect Four, UCI's Connect-4
	// data set. A sample's own Quiet says the same of its draws.
	Quiet bool `json:"quiet,omitempty"`
	// OnePerClass, with a file or MaxPly, keeps one position of each class
	// of boards equal up to the rules' symmetries: a file's first, or
	// every position up to a ply's least (game.Least). A sample's own
	// OnePerClass says the same of its draws.
	OnePerClass bool `json:"one_per_class,omitempty"`
	// Games, for a sample, is the journal its draw keeps its games in
	// (Sample.DrawKept), "" for none: the run's, not the dataset's.
	Games string `json:"-"`

	read    []game.Board // the file's positions, read by Open
	history []History    // and their histories
}

// quiet says whether b is in progress and quiet (rules.Quiet).
func quiet(rl rules.Rules, b game.Board) bool {
	over, _ := rl.Outcome(b)
	return !over && rules.Quiet(rl, b)
}

// least says whether b is the least of its class under syms (game.Least).
func least(b game.Board, syms [][]int) bool {
	l, _ := game.Least(b, syms)
	return l == b
}

// firstOfClass gives the boards of bs and their histories hs, in order,
// less those of a class under syms (game.Least) that an earlier one is of.
func firstOfClass(bs []game.Board, hs []History, syms [][]int) ([]game.Board, []History) {
	seen := make(map[game.Board]bool, len(bs))
	var out []game.Board
	var outH []History
	for i, b := range bs {
		if l, _ := game.Least(b, syms); !seen[l] {
			seen[l] = true
			out, outH = append(out, b), append(outH, hs[i])
		}
	}
	return out, outH
}

// MaxLine is the longest line Read takes, in bytes: a move sequence of 64
// cells is at most 191, and what follows it on a line is ignored.
const MaxLine = 64 << 10

// Open reads the file of positions of rl named name (see Read) as a stream,
// summing it as it goes, and gives the choice of them, so that a bad file
// is found before any work; only the positions are held. The cancellation
// of ctx stops it, even on a FIFO with no writer (interrupt.Open).
func Open(ctx context.Context, rl rules.Rules, name string) (*Choice, error) {
	f, err := interrupt.Open(ctx, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sum := sha256.New()
	bs, hs, err := Read(rl, io.TeeReader(f, sum))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &Choice{From: FromFile, File: name, SHA256: hex.EncodeToString(sum.Sum(nil)), read: bs, history: hs}, nil
}

// Boards gives the positions c chooses of rl's game, and what is known of
// them: the paths that reach each where they were counted (every position
// up to a ply), its history where known (a sample's, a file's move
// sequences). Workers and memory bound the enumeration up to a ply, and
// the games a sample by random play plays side by side; best gives the
// best moves a sample drawn by noisy perfect play takes, a function a
// player (Sample.Draw; nil where no sample does).
func (c *Choice) Boards(ctx context.Context, rl rules.Rules, workers int, memory uint64, best []BestMove) ([]game.Board, Known, error) {
	var bs []game.Board
	var known Known
	var err error
	switch c.From {
	case FromSample:
		if best == nil {
			best = make([]BestMove, max(workers, 1))
		}
		bs, known.Histories, err = c.Sample.DrawKept(ctx, rl, best, c.Games)
	case FromFile:
		if c.read == nil {
			err = fmt.Errorf("positions from the file %q were not read: Open makes a choice of a file", c.File)
		}
		bs, known.Histories = c.read, slices.Clone(c.history)
		for len(known.Histories) < len(bs) {
			known.Histories = append(known.Histories, nil)
		}
		if c.OnePerClass {
			bs, known.Histories = firstOfClass(bs, known.Histories, rl.Symmetries())
		}
	case FromMaxPly:
		syms := rl.Symmetries()
		_, err = enumerate.ShallowEach(ctx, rl, *c.MaxPly, workers, memory, func(b game.Board, n int64) {
			if c.OnePerClass && !least(b, syms) {
				return
			}
			if !c.Quiet || b.Ply() == *c.MaxPly && quiet(rl, b) && least(b, syms) {
				bs, known.Paths = append(bs, b), append(known.Paths, n)
			}
		})
	default:
		err = fmt.Errorf("positions from %q: want sample, file or max_ply", c.From)
	}
	if err != nil {
		return nil, Known{}, err
	}
	for len(known.Paths) < len(bs) {
		known.Paths = append(known.Paths, -1)
	}
	for len(known.Histories) < len(bs) {
		known.Histories = append(known.Histories, nil)
	}
	return bs, known, nil
}
