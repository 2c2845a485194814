package positions

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/par"
	"github.com/tateti-lab/tateti-lab/internal/progress"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

// maxStale bounds the games played in a row that find no new position: a
// range whose positions are nearly all drawn already, or over, ends there,
// not in a loop. So does one whose new positions have become too rare to
// wait for: each block of maxStale games (counted from the first) must
// find at least maxStale/minYield new ones. A sample asking for nearly
// every position play meets at its plies would otherwise go on for hours
// at a new position in thousands of games, its journal of games growing
// by every one (some 200 MB a minute from the book). Where the plies are
// few enough to count (countLimit), the keeper then takes the rest from
// every position there (Keeper.fill); elsewhere it is an error. Check
// refuses at once a sample larger than what exists, where it can count.
// A variable for the tests alone.
var maxStale = 1 << 20

// minYield is the most games a new position may take, on average over a
// block of maxStale games, before the draw stops (maxStale).
const minYield = 1 << 10

// maxRound bounds the games of a round: played side by side, their
// positions then kept in the games' order.
const maxRound = 4096

// Draw plays games from the empty board of rl, each move by the sample's
// play (random play, each move uniform among the legal ones, or noisy
// perfect play, whose best moves best tells), each game to a ply drawn
// uniformly from s.Plies, and keeps the positions reached whose game is not
// over, each once (and under Quiet only quiet ones, one of each class): the
// first s.N of them in the games' order. Game g makes its choices from a
// stream of its own, seeded by s.Seed and g (Player.Play), so that games
// are played side by side, one a player: len(best) players, player w
// asking best[w] alone (nil for random play; with no entry, one player).
// The same s gives the same positions, whoever gives the best moves and
// however many play, here or on a cluster.
func (s Sample) Draw(ctx context.Context, rl rules.Rules, best []BestMove) ([]game.Board, error) {
	bs, _, err := s.DrawKept(ctx, rl, best, "")
	return bs, err
}

// DrawKept is Draw, and gives each position's history (the game that kept
// it; nil for one taken from every position, Keeper.fill); each game's
// end kept as it is played in the journal of games at path
// (GamesBeside), and read back from it by a draw stopped before it ended:
// the same positions, played once. A draw by random play, whose games
// take microseconds, keeps none; nor does one whose path is "".
func (s Sample) DrawKept(ctx context.Context, rl rules.Rules, best []BestMove, path string) (_ []game.Board, _ []History, err error) {
	var j *gamesJournal
	if path != "" && s.Play().NeedsBest() {
		if j, err = openGames(path, gamesKey(s, rl)); err != nil {
			return nil, nil, err
		}
		defer func() { err = errors.Join(err, j.close()) }()
	}
	if len(best) == 0 {
		best = []BestMove{nil}
	}
	players, memo := make(chan *Player, len(best)), newMemo(rl)
	for _, bm := range best {
		p, err := s.player(rl, bm, memo)
		if err != nil {
			return nil, nil, err
		}
		players <- p
	}
	k := s.Keeper(rl)
	t := &drawn{n: s.N, start: time.Now()}
	for next := 0; !k.Full(); {
		// A round's size follows what is drawn, never the players.
		n := min(maxRound, max(s.N-len(k.out), k.stale, 16))
		games := make([]Drawn, n)
		err := par.Tasks(ctx, n, len(best), func(ctx context.Context, i int) (err error) {
			p := <-players
			defer func() { players <- p }()
			var back bool
			games[i], back, err = j.play(progress.Under(ctx, "draw", t.head()), p, next+i)
			t.played(ctx, back)
			return err
		})
		if err != nil {
			return nil, nil, err
		}
		next += n
		for _, d := range games {
			if err := k.Add(d); err != nil {
				return nil, nil, err
			}
		}
		t.kept(next, len(k.out))
	}
	return k.out, k.hist, nil
}

// drawn tallies a draw for its progress line: the games played or read
// back from the journal of a draw resumed (back of them), and, as of the
// last round, the games the keeper has seen and the positions it kept, of
// n. The rate is of the games played, not read back. The line is written
// anew at most every tellEvery, so that games of microseconds do not pay
// for it.
type drawn struct {
	mu                         sync.Mutex
	n, games, back, seen, have int
	start, told                time.Time
	line                       string
	pace                       *progress.Window // the games played, seen and the positions kept
}

// tellEvery is how often the draw's line is written anew; a variable for
// the tests alone.
var tellEvery = 200 * time.Millisecond

// played counts a game played, or read back, and tells ctx's reporter
// the line.
func (t *drawn) played(ctx context.Context, back bool) {
	t.mu.Lock()
	t.games++
	if back {
		t.back++
	} else if t.back > 0 && t.pace == nil {
		// A draw resumed: its pace starts once the first game is played,
		// not at the start, as that game also relearnt the games read
		// back (relearn), which may take minutes.
		t.pace = progress.NewWindow(time.Now(), 1, int64(t.seen), int64(t.have))
	}
	t.mu.Unlock()
	progress.Tell(ctx, "draw", t.head())
}

// kept notes that the keeper has seen games and kept have positions.
func (t *drawn) kept(games, have int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.seen, t.have = games, have
}

// head says where the draw is: "game 1,204, 310 of 2,000 positions kept,
// 12.5 games a second, about 9m2s left", the time left at the rate of
// games so far and the share of them that kept a position, and how many
// games a new position takes once they are many (rareKept).
func (t *drawn) head() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if now := time.Now(); now.Sub(t.told) >= tellEvery {
		t.line, t.told = t.text(now), now
	}
	return t.line
}

// text writes the line at now: the rate is of the games played (not
// read back) and the time left at the pace of the last minutes
// (progress.Window), the games a position takes among them too, which
// grows as the plies the draw fills first run out. The caller holds
// t.mu.
func (t *drawn) text(now time.Time) string {
	text := fmt.Sprintf("game %d, %d of %d positions kept", t.games, t.have, t.n)
	if t.back > 0 {
		text += fmt.Sprintf(" (%d games read back)", t.back)
	}
	// Nothing played yet: no pace to tell, and no window opened, which
	// played opens for a resumed draw at its first game played.
	if t.games == t.back {
		return text
	}
	if t.pace == nil {
		t.pace = progress.NewWindow(t.start, 0, 0, 0)
	}
	then, was := t.pace.Since(now, int64(t.games-t.back), int64(t.seen), int64(t.have))
	played, took := int64(t.games-t.back)-was[0], now.Sub(then).Seconds()
	if played <= 0 || took <= 0 {
		return text
	}
	rate := float64(played) / took
	text += fmt.Sprintf(", %.3g games a second", rate)
	perKept := float64(t.seen) / float64(max(t.have, 1))
	if seen, kept := int64(t.seen)-was[1], int64(t.have)-was[2]; seen > 0 && kept > 0 {
		perKept = float64(seen) / float64(kept)
	}
	if perKept >= rareKept { // the plies run out: the time left grows as play goes on
		text += fmt.Sprintf(", a new position every %.0f games", perKept)
	}
	if t.have > 0 && t.seen > 0 {
		games := float64(t.n-t.have) * perKept
		text += fmt.Sprintf(", about %s left", time.Duration(games/rate*float64(time.Second)).Round(time.Second))
	}
	return text
}

// rareKept is the games a new position takes, of late, from which the
// draw's line says so: a sample of nearly all the positions play meets at
// its plies, each new one rarer than the last, so that the time left the
// line gives (at the pace of the last minutes) is too little.
const rareKept = 10

// Drawn is where one game of a sample stopped, and whether the sample may
// keep it: in progress, and quiet where the sample asks.
type Drawn struct {
	Board   game.Board
	Kept    bool
	History History // the cells the game played, in order
}

// A Player plays a sample's games, one at a time: random or noisy perfect
// play, each move of a position asked about once whether it is best
// (games share their openings), and only for a move that is to be a best
// one.
type Player struct {
	s     Sample
	rl    rules.Rules
	noisy perfect.Noisy
	best  BestMove
	memo  *bestMemo // what the moves asked about are, for every player of the draw
}

// Player gives a player of s's games that asks best whether a move is a
// best one (nil for random play).
func (s Sample) Player(rl rules.Rules, best BestMove) (*Player, error) {
	return s.player(rl, best, newMemo(rl))
}

// player is Player, the best moves kept in memo, which other players of
// the draw may share.
func (s Sample) player(rl rules.Rules, best BestMove, memo *bestMemo) (*Player, error) {
	p := &Player{s: s, rl: rl, noisy: s.Play(), best: best, memo: memo}
	if p.noisy.NeedsBest() && best == nil {
		return nil, errors.New("a sample drawn by noisy perfect play needs its best moves: a bug")
	}
	return p, nil
}

// Play plays game g of the sample from the empty board, to a ply drawn
// uniformly from the sample's range, its choices from the game's own
// stream: the same g gives the same game, whoever plays it.
func (p *Player) Play(ctx context.Context, g int) (Drawn, error) {
	return p.play(g, func(b game.Board, cell int) (bool, error) { return p.isBest(ctx, b, cell) })
}

// play is Play, each move it asks about at b answered by ask.
func (p *Player) play(g int, ask func(b game.Board, cell int) (bool, error)) (Drawn, error) {
	rng := rand.New(rand.NewPCG(p.s.Seed, stream(uint64(g))))
	ply := p.s.Plies.Low + rng.IntN(p.s.Plies.High-p.s.Plies.Low+1)
	var b game.Board
	h := make(History, 0, ply)
	for b.Ply() < ply {
		if over, _ := p.rl.Outcome(b); over {
			return Drawn{Board: b, History: h}, nil
		}
		c, err := p.noisy.Pick(rng, uint64(p.rl.Moves(b)), func(cell int) (bool, error) { return ask(b, cell) })
		if err != nil {
			return Drawn{}, err
		}
		b, h = b.Play(c, b.ToMove()), append(h, int8(c))
	}
	over, _ := p.rl.Outcome(b)
	return Drawn{Board: b, Kept: !over && (!p.s.Quiet || rules.Quiet(p.rl, b)), History: h}, nil
}

// relearn plays game g again, its end d read back from a journal of
// games, to keep in the memo what the game learnt when it was played: a
// best move is the first in Pick's order that is best, so each move Pick
// asks about before the one the game played is not, and that one, when
// asked, is. The answers being the game's, Pick draws the same order and
// asks the same moves, so a draw resumed asks no question its games read
// back asked (search, past the book) again. A game that does not end as d
// did is not this draw's: an error.
func (p *Player) relearn(g int, d Drawn) error {
	got, err := p.play(g, func(b game.Board, cell int) (bool, error) {
		if b.Ply() >= len(d.History) {
			return false, errors.New("this draw plays on past its end")
		}
		best := int(d.History[b.Ply()]) == cell
		p.memo.put(b, cell, best)
		return best, nil
	})
	switch {
	case err != nil:
		return fmt.Errorf("game %d read back is not the game this draw plays: %w", g, err)
	case got.Board != d.Board || got.Kept != d.Kept || !slices.Equal(got.History, d.History):
		return fmt.Errorf("game %d read back is not the game this draw plays: it ends elsewhere", g)
	}
	return nil
}

// stream gives game g's stream of choices its own seed: SplitMix64's
// finaliser of g, so that neighbouring games' streams share nothing visible.
func stream(g uint64) uint64 {
	z := g + 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// isBest says whether the move at cell of b is best, asked once.
func (p *Player) isBest(ctx context.Context, b game.Board, cell int) (bool, error) {
	if best, ok := p.memo.get(b, cell); ok {
		return best, nil
	}
	best, err := p.best(ctx, b, cell)
	if err != nil {
		return false, fmt.Errorf("whether %s is a best move of %s: %w", p.rl.Spec().FormatMoves([]int{cell}), p.rl.Spec().Format(b), err)
	}
	p.memo.put(b, cell, best)
	return best, nil
}

// A Keeper keeps a sample's positions as its games are added in their
// order: each kept one once (one of each class under Quiet), until it has
// the sample's N.
type Keeper struct {
	s     Sample
	rl    rules.Rules
	seen  map[game.Board]bool
	out   []game.Board
	hist  []History // out's histories
	stale int       // games added since the last new position
	games int       // games added in all
	found int       // new positions kept in the block of maxStale games this one is in
}

// Keeper gives an empty keeper of s's positions.
func (s Sample) Keeper(rl rules.Rules) *Keeper {
	return &Keeper{s: s, rl: rl, seen: make(map[game.Board]bool, s.N)}
}

// Add adds the next game's end. Once maxStale games in a row have found
// no new position, or a block of them too few (minYield), the rest are
// taken from every position at the sample's plies, where they are few
// enough to count (fill), and it fails elsewhere: the rarest positions of
// a sample of nearly all there are would keep play waiting for ever.
func (k *Keeper) Add(d Drawn) error {
	if k.Full() {
		return nil
	}
	if k.games > 0 && k.games%maxStale == 0 { // a block ends
		if k.found < maxStale/minYield {
			return k.exhausted(fmt.Sprintf("then only %d new in its last %d games", k.found, maxStale))
		}
		k.found = 0
	}
	if k.stale >= maxStale {
		return k.exhausted(fmt.Sprintf("then none new in %d games", k.stale))
	}
	k.stale++
	k.games++
	if d.Kept {
		h := d.History
		if h == nil { // a game is played from the empty board: its history is known, if empty (a coder may give nil)
			h = History{}
		}
		k.keep(d.Board, h)
	}
	return nil
}

// keep keeps b unless it, or under Quiet or OnePerClass its class, is
// kept already.
func (k *Keeper) keep(b game.Board, h History) {
	key := b
	if k.s.Quiet || k.s.OnePerClass {
		key, _ = game.Least(b, k.rl.Symmetries())
	}
	if !k.seen[key] {
		k.seen[key] = true
		k.out, k.hist = append(k.out, b), append(k.hist, h)
		k.stale = 0
		k.found++
	}
}

// exhausted ends a draw whose play finds too few new positions (then
// says how few): the rest from every position at the sample's plies,
// where they are few enough to count (fill), else an error that says what
// to ask for instead.
func (k *Keeper) exhausted(then string) error {
	if placements(k.rl, 0, k.s.Plies.High) <= countLimit {
		if k.fill(); !k.Full() {
			return fmt.Errorf("plies %s hold %d positions, fewer than the %d asked for; ask for at most %d", k.s.Plies, len(k.out), k.s.N, len(k.out))
		}
		return nil
	}
	play := "random play"
	if k.s.Play().NeedsBest() {
		play = "noisy perfect play"
	}
	return fmt.Errorf("%s found %d of %d positions at plies %s, %s; ask for fewer, or for other plies", play, len(k.out), k.s.N, k.s.Plies, then)
}

// fill keeps, until the keeper is full, the positions at the sample's
// plies that play has not drawn, in order of ply and then of board (X's
// cells, then O's, as bit sets): every position in progress there (under
// Quiet, each quiet one, a class once), ply by ply from the empty board.
// What play drew stays first, so a smaller sample is still a prefix.
func (k *Keeper) fill() {
	layer := []game.Board{{}}
	for p := 0; p <= k.s.Plies.High && !k.Full(); p++ {
		next := map[game.Board]bool{}
		for _, b := range layer {
			if over, _ := k.rl.Outcome(b); over {
				continue
			}
			if p >= k.s.Plies.Low && !k.Full() && (!k.s.Quiet || rules.Quiet(k.rl, b)) {
				k.keep(b, nil)
			}
			for m := uint64(k.rl.Moves(b)); m != 0; m &= m - 1 {
				next[b.Play(bits.TrailingZeros64(m), b.ToMove())] = true
			}
		}
		layer = slices.SortedFunc(maps.Keys(next), func(a, b game.Board) int {
			return cmp.Or(cmp.Compare(a.X, b.X), cmp.Compare(a.O, b.O))
		})
	}
}

// Full reports whether the keeper has the sample's N positions.
func (k *Keeper) Full() bool { return len(k.out) >= k.s.N }

// Boards gives the positions kept, in the games' order.
func (k *Keeper) Boards() []game.Board { return k.out }

// Histories gives the histories of Boards, in their order: the game that
// kept each, nil for one taken from every position (fill).
func (k *Keeper) Histories() []History { return k.hist }
