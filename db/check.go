package db

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"path/filepath"
	"slices"

	"github.com/tateti-lab/tateti-lab/rules"
)

// A Rule is what a check holds a database's tiers to beyond their own sums
// and counts: the game's layout and rules, as package tier solves them.
type Rule interface {
	// Layout names how the tiers rank their positions (Manifest.Layout).
	Layout() string
	// Plies is the last ply of the game, or of an opening book.
	Plies() int
	// Size is the number of placements of ply p.
	Size(p int) int64
	// Count counts ply p's codes as a manifest's entry for the ply does.
	Count(p int, codes []byte) Ply
	// Disagrees gives the rank of the first reachable position of ply p
	// whose code in codes is not what the backward rule makes of next,
	// ply p+1's codes, and false when every one agrees; with next nil, it
	// checks the finished boards of ply p against the rules. Up to workers
	// goroutines; the error is ctx's.
	Disagrees(ctx context.Context, p int, codes, next []byte, workers int) (int64, bool, error)
	// DisagreesAt is Disagrees of the positions of ranks alone, those of
	// them in the ply, in their order: a sampled check.
	DisagreesAt(p int, codes, next []byte, ranks []int64) (int64, bool)
}

// RuleOf gives the Rule of a game, or of its opening book to maxPly (nil:
// the whole game), whose tiers are of the layout a manifest names.
type RuleOf func(spec rules.Spec, maxPly *int, layout string) (Rule, error)

// A TierCheck is what Check found of one tier file: OK, or the first
// thing wrong with it.
type TierCheck struct {
	Ply     int    `json:"ply"`
	File    string `json:"file"`
	OK      bool   `json:"ok"`
	Problem string `json:"problem,omitempty"`
}

// A Checked database is what Check found: every tier, and whether the
// manifest's totals and the empty board's value agree with the tiers.
type Checked struct {
	Dir    string      `json:"dir"`
	Game   rules.Spec  `json:"game"`
	MaxPly *int        `json:"max_ply,omitempty"` // an opening book's last ply
	Tiers  []TierCheck `json:"tiers"`
	// Problems are what is wrong beyond one tier: the manifest's total of
	// positions, or its value and depth of the empty board.
	Problems []string `json:"problems"`
	OK       bool     `json:"ok"`
	// Fix is the command that builds the database again (Rebuild), for
	// a damaged one to be replaced.
	Fix string `json:"fix"`
	// Sampled is the positions a ply held to the game's rules, drawn at
	// random (CheckSampled); 0 where every one was.
	Sampled int `json:"sampled,omitempty"`
}

// Damaged lists the tiers that failed, as "ply-07.tier".
func (c Checked) Damaged() []string {
	var out []string
	for _, t := range c.Tiers {
		if !t.OK {
			out = append(out, t.File)
		}
	}
	return out
}

// Check reads every tier of the finished database in dir whole and holds
// it to the manifest: the file's size and SHA-256, every block's checksum
// as it is inflated, and the ply's counts (placements, positions by value
// for the side to move, finished boards by status) counted again from its
// codes; then the manifest's total of positions and the empty board's
// value and depth; and the manifest's own checksum; and the game's rules
// (checkRule): each position's code is what the next ply's codes make of
// it, each finished board's what the rules say. A damaged database is a
// Checked that is not OK, naming what is wrong; the error is for a folder
// that holds no finished database, or an interruption. ruleOf gives the
// game's layout and rules (package tier's); up to workers goroutines
// inflate a tier.
func Check(ctx context.Context, dir string, ruleOf RuleOf, workers int) (Checked, error) {
	return CheckSampled(ctx, dir, ruleOf, workers, 0)
}

// CheckSampled is Check holding n positions of each ply, drawn at random
// from a stream of the ply's own, to the game's rules, not every one
// (n 0: every one): the sums and counts of every tier are checked still,
// and a tier of another game is found but for the rare one that agrees
// on every position drawn.
func CheckSampled(ctx context.Context, dir string, ruleOf RuleOf, workers, n int) (Checked, error) {
	m, unsound, err := ManifestAsIs(dir)
	if err != nil {
		return Checked{}, err
	}
	c := Checked{Dir: dir, Game: m.Game, MaxPly: m.MaxPly, OK: true, Problems: []string{}, Fix: Rebuild(m, dir), Sampled: n}
	job, err := ruleOf(m.Game, m.MaxPly, m.Layout)
	if err != nil && m.MaxPly != nil { // an unsound manifest's last ply
		c.problem(err.Error())
		job, err = ruleOf(m.Game, nil, m.Layout)
	}
	if err != nil {
		return Checked{}, err
	}
	if unsound != nil {
		c.problem(unsound.Error())
	}
	if len(m.Plies) != job.Plies()+1 {
		c.problem(fmt.Sprintf("the manifest lists %d plies, want %d", len(m.Plies), job.Plies()+1))
	}
	var total int64
	var root byte
	var prev []byte // the codes of ply p-1, when its tier checked out
	for p, want := range m.Plies {
		codes, problem, err := checkTier(ctx, dir, m, p, job, workers)
		if err != nil {
			return Checked{}, err
		}
		c.Tiers = append(c.Tiers, TierCheck{Ply: p, File: TierName(p), OK: problem == "", Problem: problem})
		c.OK = c.OK && problem == ""
		if problem == "" && p <= job.Plies() {
			if err := c.checkRule(ctx, job, p, prev, codes, workers); err != nil {
				return Checked{}, err
			}
		}
		total += want.Positions
		if p == 0 && problem == "" {
			root = codes[0]
			if Packed(m.Layout) { // win, draw or loss for X, who moves
				root = Pack(PackedValue(PackedAt(codes, 0)), 0)
			}
		}
		prev = codes
	}
	if total != m.Positions {
		c.problem(fmt.Sprintf("the manifest says %d positions, and its plies add up to %d", m.Positions, total))
	}
	if v, d, ok := Unpack(root); ok && (v != m.Value || d != m.Depth) {
		c.problem(fmt.Sprintf("the manifest gives the empty board value %d depth %d, and its tier %d and %d", m.Value, m.Depth, v, d))
	}
	return c, nil
}

// checkRule holds the codes of ply p to the game's rules: the codes of ply
// p-1 (prev, nil when that tier failed) to the backward rule from p's, and
// the finished boards of the last ply to what the rules say of them. A
// tier of another game, or of the same game under other rules, passes its
// own sums and counts but not this. The error is an interruption's alone.
func (c *Checked) checkRule(ctx context.Context, job Rule, p int, prev, codes []byte, workers int) error {
	disagrees := job.Disagrees
	if c.Sampled > 0 {
		disagrees = func(_ context.Context, p int, codes, next []byte, _ int) (int64, bool, error) {
			r, bad := job.DisagreesAt(p, codes, next, sample(p, job.Size(p), c.Sampled))
			return r, bad, ctx.Err()
		}
	}
	if p == job.Plies() {
		r, bad, err := disagrees(ctx, p, codes, nil, workers)
		if err != nil || !bad {
			return err
		}
		c.Tiers[p].OK, c.Tiers[p].Problem = false, fmt.Sprintf("the finished board of rank %d is not what the rules of %s say of it", r, c.Game)
		c.OK = false
	}
	if prev == nil {
		return nil
	}
	r, bad, err := disagrees(ctx, p-1, prev, codes, workers)
	if err != nil || !bad {
		return err
	}
	c.problem(fmt.Sprintf("the position of rank %d of ply %d is not what the rules of %s make of ply %d's codes: the two tiers are not of one game", r, p-1, c.Game, p))
	return nil
}

// sample gives n ranks of a ply of size positions, drawn uniformly from a
// stream seeded by the ply, in increasing order: the same for every run.
func sample(p int, size int64, n int) []int64 {
	if size == 0 {
		return nil
	}
	rng := rand.New(rand.NewPCG(uint64(p), uint64(size)))
	ranks := make([]int64, n)
	for i := range ranks {
		ranks[i] = rng.Int64N(size)
	}
	slices.Sort(ranks)
	return ranks
}

// problem records a problem beyond one tier.
func (c *Checked) problem(p string) {
	c.Problems = append(c.Problems, p)
	c.OK = false
}

// checkTier reads ply p's tier file in dir, unfolded, and holds it to its
// entry in m: it gives the codes and "" when all agree, else what is
// wrong. The error is an interruption's alone.
func checkTier(ctx context.Context, dir string, m Manifest, p int, job Rule, workers int) ([]byte, string, error) {
	want := m.Plies[p]
	if want.File != TierName(p) || want.Placements != job.Size(p) {
		return nil, fmt.Sprintf("the manifest lists it as %q of %d placements, want %q of %d", want.File, want.Placements, TierName(p), job.Size(p)), nil
	}
	name := filepath.Join(dir, want.File)
	size, sum, err := FileSum(ctx, name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, "the file is missing", nil
	case ctx.Err() != nil:
		return nil, "", ctx.Err()
	case err != nil:
		return nil, fmt.Sprintf("cannot be read: %v", err), nil
	case size != want.Bytes || sum != want.SHA256:
		return nil, fmt.Sprintf("%d bytes of SHA-256 %.12s…, the manifest says %d bytes of %.12s…", size, sum, want.Bytes, want.SHA256), nil
	}
	codes := make([]byte, CodeBytes(m.Layout, want.Placements))
	version, err := readTier(ctx, dir, m.Game, p, codes, workers)
	switch {
	case err != nil:
	case version != uint32(m.Version):
		return nil, fmt.Sprintf("format version %d, the manifest's %d", version, m.Version), nil
	default:
		err = m.unfold(ctx, p, codes, workers)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, "", ctx.Err()
		}
		return nil, err.Error(), nil
	}
	got := job.Count(p, codes)
	got.File, got.Bytes, got.SHA256 = want.File, want.Bytes, want.SHA256
	if got != want {
		return nil, fmt.Sprintf("its codes count %d positions (%d won, %d drawn, %d lost), the manifest %d (%d, %d, %d)",
			got.Positions, got.Won, got.Drawn, got.Lost, want.Positions, want.Won, want.Drawn, want.Lost), nil
	}
	return codes, "", nil
}
