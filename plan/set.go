package plan

import (
	"cmp"
	"context"
	"errors"

	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/positions"
)

// Set is a chosen set of positions and who answers them: the positions a
// Choice gives of the plan's game, each answered by the plan's engine as
// the batch says. A nil Choice chooses none: the command takes the whole
// game.
type Set struct {
	Choice *positions.Choice
	Plan   Plan
	Batch  oracle.Batch // each position's time limit, and the journal of answers
	// ValueOnly asks each position's value and depth alone.
	ValueOnly bool
	// NoDepths asks values without depths (oracle.Options.NoDepths).
	NoDepths bool
}

// Answer chooses the set's positions (Positions, with the request's
// workers and memory) and answers them (AnswerAll), telling
// progress as phase, with a best line each when lines is set. It gives
// their analyses and what else is known of them (paths, histories).
func (s Set) Answer(ctx context.Context, phase string, lines bool) ([]perfect.Analysis, positions.Known, error) {
	bs, known, err := s.Plan.Positions(ctx, s.Choice, s.Plan.req.Workers, s.Plan.req.Memory)
	if err != nil {
		return nil, positions.Known{}, err
	}
	b := s.Batch
	b.Phase = phase
	as, err := s.Plan.AnswerAll(ctx, bs, b, oracle.Options{NoLines: !lines, ValueOnly: s.ValueOnly, NoDepths: s.NoDepths})
	return as, known, err
}

// JournalsBeside are where a chosen set whose results go to the file or
// folder out keeps its work as it is done, so that a stopped run goes on
// from it: the answers (oracle.JournalBeside) and a sample's games
// (positions.GamesBeside).
func JournalsBeside(out string) (answers, games string) {
	return oracle.JournalBeside(out), positions.GamesBeside(out)
}

// CheckJournalsBeside refuses, before any work, what a chosen set would
// refuse of the journals beside out: files that are no journals of ours,
// or a journal of games an earlier version drew.
func CheckJournalsBeside(out string) error {
	answers, games := JournalsBeside(out)
	return cmp.Or(oracle.CheckJournal(answers), positions.CheckGames(games))
}

// KeepBeside makes a chosen set keep its work in the journals beside out
// as it is done (JournalsBeside); Done lets them go. The whole game (a nil
// Choice) keeps none.
func (s *Set) KeepBeside(out string) {
	if s.Choice != nil {
		s.Batch.Journal, s.Choice.Games = JournalsBeside(out)
	}
}

// Done lets the set's journals go once the results they led to are whole:
// nothing where it kept none.
func (s Set) Done() error {
	err := s.Batch.Done()
	if s.Choice != nil && s.Choice.Games != "" {
		err = errors.Join(err, positions.RemoveGames(s.Choice.Games))
	}
	return err
}
