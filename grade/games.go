package grade

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/extproc"
	"github.com/tateti-lab/tateti-lab/internal/protocol"
	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Opponents are the sides an agent plays games against: perfect play (a
// best move, chosen at random among the best) and random play (any legal
// move).
var Opponents = []string{"perfect", "random"}

// GameTally counts an agent's games against one opponent with one colour.
type GameTally struct {
	Opponent   string `json:"opponent"`    // perfect or random
	AgentPlays string `json:"agent_plays"` // X or O
	Games      int    `json:"games"`
	Wins       int    `json:"wins"`
	Draws      int    `json:"draws"`
	Losses     int    `json:"losses"`  // illegal answers among them
	Illegal    int    `json:"illegal"` // games lost by an illegal answer
}

// LostGame is a game the agent lost, move by move.
type LostGame struct {
	Opponent   string   `json:"opponent"`
	AgentPlays string   `json:"agent_plays"`
	Moves      []string `json:"moves"`  // each as --moves takes it (rules.Spec.MoveNumber); an illegal answer as the agent wrote it
	Boards     []string `json:"boards"` // the board after each move
	Why        string   `json:"why"`    // how it was lost
}

// GamesResult is an agent's games: against each opponent, with each colour.
type GamesResult struct {
	Game             rules.Spec  `json:"game"`
	Program          string      `json:"program"`
	Seed             uint64      `json:"seed"`
	Tallies          []GameTally `json:"tallies"`
	FirstLoss        *LostGame   `json:"first_loss"` // null when it lost none
	perfect.Answered             // who gave the perfect opponent's moves, set by the caller
}

// PlayGames plays n games of the agent against each opponent with each
// colour, from the empty board, the perfect opponent's moves from o, an
// oracle of rl's game (the game solved once, a database, a book or
// search); the opponents' choices come from seed, so the same seed plays
// the same games against the same agent, whoever answers. The agent is
// started once and asked for a move in each of its positions, one request
// at a time.
func (a *Agent) PlayGames(ctx context.Context, rl rules.Rules, o oracle.Oracle, n int, seed uint64) (*GamesResult, error) {
	t, err := a.talk(ctx, rl.Spec())
	if err != nil {
		return nil, err
	}
	defer t.close()
	res := &GamesResult{Game: rl.Spec(), Program: strings.Join(a.Argv, " "), Seed: seed}
	rng := rand.New(rand.NewPCG(seed, 0x6a6d6573))
	opp := opponent{ctx: ctx, rl: rl, o: o, rng: rng}
	for _, name := range Opponents {
		for _, side := range []game.Cell{game.X, game.O} {
			tally := GameTally{Opponent: name, AgentPlays: side.String()}
			opp.name = name
			for range n {
				lost, err := a.play(rl, t, opp, side, &tally)
				if err != nil {
					return nil, err
				}
				if lost != nil && res.FirstLoss == nil {
					res.FirstLoss = lost
				}
			}
			res.Tallies = append(res.Tallies, tally)
		}
	}
	return res, t.close()
}

// play plays one game of the agent with side against opp, and gives it when
// the agent lost.
func (a *Agent) play(rl rules.Rules, t *talk, opp opponent, side game.Cell, tally *GameTally) (*LostGame, error) {
	s := rl.Spec().Spec
	record := &LostGame{Opponent: opp.name, AgentPlays: side.String()}
	var b game.Board
	tally.Games++
	for {
		over, winner := rl.Outcome(b)
		if over {
			switch perfect.Of(winner).For(side) {
			case perfect.XWins:
				tally.Wins++
			case perfect.Draw:
				tally.Draws++
			default:
				tally.Losses++
				record.Why = fmt.Sprintf("%s won", side.Other())
				return record, nil
			}
			return nil, nil
		}
		var cell int
		var err error
		if b.ToMove() == side {
			var text string
			if text, err = t.ask(s, b); err != nil {
				return nil, err
			}
			if cell, err = a.Moves.Parse(rl, b, text); err == nil && rl.Moves(b)>>cell&1 == 0 {
				err = illegal(rl.Spec().Gravity, b, cell)
			}
			if err != nil {
				tally.Losses++
				tally.Illegal++
				record.Moves = append(record.Moves, game.Echo(text))
				record.Why = "an illegal answer: " + err.Error()
				return record, nil
			}
		} else if cell, err = opp.choose(b); err != nil {
			return nil, err
		}
		b = b.Play(cell, b.ToMove())
		record.Moves = append(record.Moves, strconv.Itoa(rl.Spec().MoveNumber(cell)))
		record.Boards = append(record.Boards, s.Format(b))
	}
}

// An opponent plays the other side: perfectly, its moves from an oracle,
// or at random.
type opponent struct {
	ctx  context.Context
	rl   rules.Rules
	o    oracle.Oracle
	rng  *rand.Rand
	name string // perfect or random
}

// choose gives the opponent's move on b: a best move, or any legal move,
// at random, in cell order.
func (p opponent) choose(b game.Board) (int, error) {
	moves := uint64(p.rl.Moves(b))
	if p.name == "perfect" {
		an, err := p.o.Analyze(p.ctx, b)
		if err != nil {
			return 0, fmt.Errorf("the perfect opponent on %s: %w", p.rl.Spec().Format(b), err)
		}
		moves = 0
		for _, m := range an.Moves {
			if m.Best {
				moves |= 1 << m.Cell
			}
		}
	}
	k := p.rng.IntN(bits.OnesCount64(moves))
	for ; k > 0; k-- {
		moves &= moves - 1
	}
	return bits.TrailingZeros64(moves), nil
}

// talk is a conversation with the agent: one request, then its answer.
type talk struct {
	a     *Agent
	p     *extproc.Proc
	reqs  chan []byte
	asked int
	done  bool
}

func (a *Agent) talk(ctx context.Context, rs rules.Spec) (*talk, error) {
	t := &talk{a: a, reqs: make(chan []byte, 1)}
	cfg := extproc.Config{Argv: a.Argv, Env: protocol.Environment(rs), Silence: a.Timeout, Total: a.Total, Memory: a.Memory}
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
	return t, nil
}

// ask sends the board b and gives the answer line.
func (t *talk) ask(s game.Spec, b game.Board) (string, error) {
	t.reqs <- t.a.Cells.AppendLine(nil, s, b)
	t.asked++
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
