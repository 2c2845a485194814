package grade

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/extproc"
	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/positions"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Opponents are the sides an agent plays games against: perfect play (a
// best move, chosen at random among the best; with an epsilon, noisy
// perfect play) and random play (any legal move).
var Opponents = []string{"perfect", "random"}

// The results of a game, for the agent.
const (
	Win     = "win"
	Draw    = "draw"
	Loss    = "loss"    // lost on the board
	Forfeit = "forfeit" // lost by an illegal answer, or by silence, a crash or a limit
)

// Games says which games an agent plays: N from the empty board against
// each opponent with each colour, the opponents' choices drawn from Seed;
// the perfect opponent plays noisy perfect play with Epsilon (0: perfect).
type Games struct {
	N       int
	Seed    uint64
	Epsilon float64
	// Openings, when not empty, are the positions the games start from
	// (ReadOpenings): each played N times with each colour against each
	// opponent, as Kaggle's evaluation plays a list of openings. Empty:
	// every game from the empty board.
	Openings []Opening
}

// An Opening is a position games start from, and the moves that reach it.
type Opening struct {
	Board game.Board
	Cells []int // the moves, as cells
}

// ReadOpenings reads openings of rl's game, a move sequence a line, as
// --positions files give them (positions.Read): a board alone is refused,
// for its moves and so its colours are not known, and so is an opening
// whose game is over.
func ReadOpenings(rl rules.Rules, r io.Reader) ([]Opening, error) {
	bs, hs, err := positions.Read(rl, r)
	if err != nil {
		return nil, err
	}
	out := make([]Opening, len(bs))
	for i, b := range bs {
		if hs[i] == nil {
			return nil, fmt.Errorf("opening %d, %s, is a board: give the moves that reach it, such as 4453", i+1, rl.Spec().Format(b))
		}
		if over, _ := rl.Outcome(b); over {
			return nil, fmt.Errorf("opening %d, %s, ends the game: give one the game goes on from", i+1, rl.Spec().Format(b))
		}
		out[i] = Opening{Board: b, Cells: make([]int, len(hs[i]))}
		for k, c := range hs[i] {
			out[i].Cells[k] = int(c)
		}
	}
	return out, nil
}

// GameTally counts an agent's games against one opponent with one colour.
type GameTally struct {
	Opponent   string `json:"opponent"`    // perfect or random
	AgentPlays string `json:"agent_plays"` // X or O
	Games      int    `json:"games"`
	Wins       int    `json:"wins"`
	Draws      int    `json:"draws"`
	Losses     int    `json:"losses"`   // lost on the board
	Forfeits   int    `json:"forfeits"` // lost by the agent's fault: an illegal answer, silence, a crash, a limit
	Illegal    int    `json:"illegal"`  // the forfeits by an illegal answer
}

// GameRecord is one game an agent played, whole.
type GameRecord struct {
	Opponent   string `json:"opponent"`
	AgentPlays string `json:"agent_plays"`
	Result     string `json:"result"` // for the agent: win, draw, loss or forfeit
	// Opening is the moves of the opening the game started from, in the
	// numbering of Moves; absent for a game from the empty board.
	Opening []int `json:"opening,omitempty"`
	Length  int   `json:"length"` // the moves played, after the opening
	// Moves are the moves played, in the numbering the result names
	// (GamesResult.Numbering): actions, as the datasets number them.
	Moves []int `json:"moves"`
	// AgentSeconds is the time the agent took for each of its answers, in
	// seconds, in the order it gave them; a forfeit's last answer included.
	AgentSeconds []float64 `json:"agent_seconds"`
	// Answers are the agent's answers as it wrote them, in its own
	// numbering (--move-format), in the order it gave them.
	Answers []string `json:"answers"`
	// Why says how a forfeit came: the illegal answer quoted as the agent
	// wrote it, or what the program did; absent otherwise.
	Why string `json:"why,omitempty"`

	cells   []int // the moves as cells, for the report's boards
	opening []int // the opening's moves as cells
	illegal bool  // forfeited by an illegal answer
}

// OpeningCells gives the opening's moves as cells; none for a game from
// the empty board.
func (g *GameRecord) OpeningCells() []int { return g.opening }

// Cells gives the game's moves as cells.
func (g *GameRecord) Cells() []int { return g.cells }

// GamesResult is an agent's games: against each opponent, with each colour,
// every game kept.
type GamesResult struct {
	Game    rules.Spec `json:"game"`
	Program string     `json:"program"`
	Seed    uint64     `json:"seed"`
	Epsilon float64    `json:"epsilon"` // the perfect opponent's noise: 0 perfect play
	// Numbering says how the games' moves are numbered: actions, as
	// OpenSpiel, PettingZoo and the datasets number them.
	Numbering string       `json:"numbering"`
	Tallies   []GameTally  `json:"tallies"`
	Games     []GameRecord `json:"games"`
	// FirstLoss is the index in Games of the first game lost or forfeited;
	// null when the agent lost none.
	FirstLoss *int `json:"first_loss"`
	// StartSeconds are the agent's start-ups, one a start (the first, and
	// one after each forfeit its failure caused): the time from its start
	// to its answer to the empty board, asked first and not graded, so
	// that an interpreter's or a model's start-up is in no game's
	// agent_seconds.
	StartSeconds []float64 `json:"start_seconds"`
	// StartSkipped are the lines the agent printed at its starts before
	// its answer to the empty board, skipped (a library's banner, a debug
	// line); absent when none.
	StartSkipped     []string `json:"start_skipped,omitempty"`
	perfect.Answered          // who gave the perfect opponent's moves, set by the caller
}

// Misbehaved reports whether the agent did something wrong: an illegal
// answer, or a game forfeited.
func (r *GamesResult) Misbehaved() bool {
	for _, t := range r.Tallies {
		if t.Forfeits > 0 {
			return true
		}
	}
	return false
}

// Numbering says how the actions of a game of s are numbered.
func Numbering(s rules.Spec) string {
	if s.Gravity {
		return "action: the column from 0 at the left, as OpenSpiel, PettingZoo and Kaggle ConnectX number Connect Four's moves"
	}
	return "action: the cell, row-major from 0 at the top left"
}

// PlayGames plays the games g says of the agent, the perfect opponent's
// moves from o, an oracle of rl's game (the game solved once, a database,
// a book or search); the same seed plays the same games against the same
// agent, whoever answers. The agent is started once, asked the empty board
// first (its start-up, timed apart and not graded: StartSeconds), and then
// asked for a move in each of its positions, one request at a time. A game
// the agent forfeits
// by an illegal answer, silence, a crash or a limit is recorded, and the
// agent is started again for the next, so that a line too many (a debug
// line, say) costs one game, not the run; output left when the agent ends
// after its last game, or a failed exit, forfeits that game. Only an agent
// that cannot start is an error.
func (a *Agent) PlayGames(ctx context.Context, rl rules.Rules, o oracle.Oracle, g Games) (*GamesResult, error) {
	res := &GamesResult{Game: rl.Spec(), Program: strings.Join(a.Argv, " "), Seed: g.Seed, Epsilon: g.Epsilon, Numbering: Numbering(rl.Spec()), Games: []GameRecord{},
		StartSeconds: []float64{}}
	t, err := a.start(ctx, rl.Spec(), res)
	if err != nil {
		return nil, err
	}
	defer func() { t.close() }() // the last conversation, whichever it is
	rng := rand.New(rand.NewPCG(g.Seed, 0x6a6d6573))
	for _, name := range Opponents {
		noisy := perfect.Noisy{Epsilon: 1}
		if name == "perfect" {
			noisy.Epsilon = g.Epsilon
		}
		opp := opponent{rl: rl, isBest: oracle.BestMove(o), rng: rng, name: name, noisy: noisy}
		for _, side := range []game.Cell{game.X, game.O} {
			tally := GameTally{Opponent: name, AgentPlays: side.String()}
			for _, from := range g.starts() {
				if t, err = a.again(ctx, rl.Spec(), t, res); err != nil {
					return nil, err
				}
				rec, err := a.play(ctx, rl, t, opp, side, from)
				if err != nil {
					return nil, err
				}
				tally.add(rec)
				if rec.Result == Loss || rec.Result == Forfeit {
					if res.FirstLoss == nil {
						res.FirstLoss = new(len(res.Games))
					}
				}
				res.Games = append(res.Games, *rec)
			}
			res.Tallies = append(res.Tallies, tally)
		}
	}
	if t.failed { // its failure is the last game's forfeit
		return res, nil
	}
	var pe *extproc.ProgramError
	if err := t.close(); errors.As(err, &pe) {
		res.forfeitLast(fmt.Sprintf("after its last answer, %s", pe.What))
	} else if err != nil {
		return nil, err
	}
	return res, nil
}

// forfeitLast makes the last game played a forfeit, with why, where it
// was not one: the agent misbehaved as it ended.
func (r *GamesResult) forfeitLast(why string) {
	last := &r.Games[len(r.Games)-1]
	if last.Result == Forfeit {
		return
	}
	tally := &r.Tallies[len(r.Tallies)-1]
	switch last.Result {
	case Win:
		tally.Wins--
	case Draw:
		tally.Draws--
	case Loss:
		tally.Losses--
	}
	tally.Forfeits++
	last.Result, last.Why = Forfeit, why
	if r.FirstLoss == nil {
		r.FirstLoss = new(len(r.Games) - 1)
	}
}

// add counts the game rec.
func (t *GameTally) add(rec *GameRecord) {
	t.Games++
	switch rec.Result {
	case Win:
		t.Wins++
	case Draw:
		t.Draws++
	case Loss:
		t.Losses++
	default:
		t.Forfeits++
		if rec.illegal {
			t.Illegal++
		}
	}
}

// again gives the conversation for the next game: t itself, or after a
// forfeit by the program's failure (t stopped), the agent started anew.
func (a *Agent) again(ctx context.Context, rs rules.Spec, t *talk, res *GamesResult) (*talk, error) {
	if !t.failed {
		return t, nil
	}
	t.close()
	return a.start(ctx, rs, res)
}

// start starts the agent (talk), its start-up kept in res.
func (a *Agent) start(ctx context.Context, rs rules.Spec, res *GamesResult) (*talk, error) {
	t, err := a.talk(ctx, rs)
	if err != nil {
		return nil, err
	}
	res.StartSeconds, res.StartSkipped = append(res.StartSeconds, t.start), append(res.StartSkipped, t.skipped...)
	return t, nil
}

// starts gives the openings of the games against one opponent with one
// colour, in order: each opening N times, or N times the empty board.
func (g Games) starts() []Opening {
	from := g.Openings
	if len(from) == 0 {
		from = []Opening{{}}
	}
	var out []Opening
	for _, o := range from {
		for range g.N {
			out = append(out, o)
		}
	}
	return out
}

// play plays one game of the agent with side against opp from the
// opening from, and records it. A failure of the program forfeits the
// game (t is then failed); only an interruption, or the opponent's
// failure, is an error.
func (a *Agent) play(ctx context.Context, rl rules.Rules, t *talk, opp opponent, side game.Cell, from Opening) (*GameRecord, error) {
	s := rl.Spec()
	rec := &GameRecord{Opponent: opp.name, AgentPlays: side.String(), Moves: []int{}, AgentSeconds: []float64{}, Answers: []string{}, opening: from.Cells}
	for _, c := range from.Cells {
		rec.Opening = append(rec.Opening, s.Action(c))
	}
	b := from.Board
	for {
		if over, winner := rl.Outcome(b); over {
			rec.Result = map[perfect.Value]string{perfect.XWins: Win, perfect.Draw: Draw, perfect.OWins: Loss}[perfect.Of(winner).For(side)]
			return rec, nil
		}
		var cell int
		var err error
		if b.ToMove() == side {
			start := time.Now()
			var text string
			text, err = t.ask(s.Spec, b)
			rec.AgentSeconds = append(rec.AgentSeconds, time.Since(start).Seconds())
			var pe *extproc.ProgramError
			switch {
			case errors.As(err, &pe): // said as every mode says a program's failure
				rec.Result, rec.Why = Forfeit, fmt.Sprintf("%s program %q %s", pe.Role, pe.Program, pe.What)+pe.StderrEnd()
				return rec, nil
			case err != nil:
				return nil, err
			}
			rec.Answers = append(rec.Answers, game.Echo(text))
			if cell, err = a.Moves.Parse(rl, b, text); err == nil && rl.Moves(b)>>cell&1 == 0 {
				err = illegal(s.Gravity, a.Moves, b, cell)
			}
			if err != nil {
				rec.Result, rec.Why, rec.illegal = Forfeit, fmt.Sprintf("an illegal answer, %q: %v", game.Echo(text), err), true
				t.fail(rec.Why) // started again for the next game: its answers may be out of step
				return rec, nil
			}
		} else if cell, err = opp.choose(ctx, b); err != nil {
			return nil, err
		}
		b = b.Play(cell, b.ToMove())
		rec.cells = append(rec.cells, cell)
		rec.Moves = append(rec.Moves, s.Action(cell))
		rec.Length++
	}
}

// An opponent plays the other side by noisy perfect play: the perfect
// opponent with the run's epsilon, its best moves from an oracle
// (oracle.BestMove); the random one with epsilon 1, which asks no oracle.
type opponent struct {
	rl     rules.Rules
	isBest func(ctx context.Context, b game.Board, cell int) (bool, error)
	rng    *rand.Rand
	name   string // perfect or random
	noisy  perfect.Noisy
}

// choose gives the opponent's move on b, asking the oracle only for a
// move that is to be a best one.
func (p opponent) choose(ctx context.Context, b game.Board) (int, error) {
	return p.noisy.Pick(p.rng, uint64(p.rl.Moves(b)), func(cell int) (bool, error) {
		best, err := p.isBest(ctx, b, cell)
		if err != nil {
			return false, fmt.Errorf("the perfect opponent on %s: %w", p.rl.Spec().Format(b), err)
		}
		return best, nil
	})
}

// talk is a conversation with the agent: one request, then its answer.
type talk struct {
	a       *Agent
	p       *extproc.Proc
	reqs    chan []byte
	asked   int
	done    bool
	failed  bool     // the program failed (fail): stopped, and started anew for another game
	start   float64  // seconds from its start to its answer to the empty board
	skipped []string // the lines it printed at its start before that answer (warm)
}

func (a *Agent) talk(ctx context.Context, rs rules.Spec) (*talk, error) {
	t := &talk{a: a, reqs: make(chan []byte, 1)}
	cfg := a.Config(rs)
	p, err := extproc.Start(ctx, cfg, func(w io.Writer) error {
		flush := w.(interface{ Flush() error })
		for r := range t.reqs {
			if _, err := w.Write(r); err != nil {
				return err
			}
			if err := flush.Flush(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, t.fail(err.Error())
	}
	t.p = p
	begun := time.Now()
	if err := t.warm(rules.New(rs)); err != nil {
		return nil, err
	}
	t.start = time.Since(begun).Seconds()
	return t, nil
}

// maxStartLines bounds the lines an agent may print at its start before
// its answer to the empty board.
const maxStartLines = 100

// warm asks the agent the empty board of rl's game, its start-up, and
// reads its answer, the first line that is a legal move there: a line
// before it (a library's banner, a debug line) is skipped and kept in
// skipped, so that output at start-up puts no answer out of step. The
// first line is waited for within --start-timeout, the others within
// --timeout.
func (t *talk) warm(rl rules.Rules) error {
	for n := 0; ; n++ {
		var text string
		var err error
		if n == 0 {
			text, err = t.ask(rl.Spec().Spec, game.Board{})
		} else {
			text, err = t.line()
		}
		if err != nil {
			return err
		}
		if _, err := t.a.Moves.Parse(rl, game.Board{}, text); err == nil {
			return nil
		}
		if n == maxStartLines {
			return t.fail(fmt.Sprintf("printed %d lines at its start, none a move on the empty board (the first: %q)", n+1, game.Echo(t.skipped[0])))
		}
		t.skipped = append(t.skipped, game.Echo(text))
	}
}

// ask sends the board b and gives the answer line.
func (t *talk) ask(s game.Spec, b game.Board) (string, error) {
	t.reqs <- t.a.Cells.AppendLine(nil, s, b)
	t.asked++
	return t.line()
}

// line gives the agent's next line of output.
func (t *talk) line() (string, error) {
	line, err := t.p.Line()
	var pe *extproc.Error
	switch {
	case errors.Is(err, io.EOF):
		return "", t.fail("stopped early: " + exitWords(t.p.Exit()))
	case errors.As(err, &pe):
		return "", t.fail(pe.Error())
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return "", err // the context's: an interrupt blames nobody
	case err != nil:
		return "", t.fail(err.Error()) // what it printed cannot be read, as Exchange says
	}
	return strings.TrimSpace(line), nil
}

// close ends the conversation: stdin closes, and the agent must exit with
// status 0 and print nothing more.
func (t *talk) close() error {
	if t.done || t.p == nil {
		return nil
	}
	t.done = true
	close(t.reqs)
	defer t.p.Stop()
	if rest := t.p.Rest(); rest != "" {
		return t.fail(fmt.Sprintf("printed more answers than requests: %q", game.Echo(rest)))
	}
	if err := t.p.Exit(); err != nil {
		var pe *extproc.Error
		if errors.As(err, &pe) {
			return t.fail(pe.Error())
		}
		return t.fail("ended with " + err.Error())
	}
	return nil
}

func (t *talk) fail(what string) error {
	t.failed = true
	if t.p != nil {
		t.p.Stop()
	}
	pe := &extproc.ProgramError{Role: "agent", Program: strings.Join(t.a.Argv, " "), What: what, Answers: max(t.asked-1, 0), Requests: t.asked}
	if t.p != nil {
		pe.Stderr = t.p.Stderr()
	}
	return pe
}

// exitWords says how a program that stopped answering ended.
func exitWords(err error) string {
	if err == nil {
		return "it exited with status 0 before the game was over"
	}
	return err.Error()
}
