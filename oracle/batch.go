package oracle

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/par"
	"github.com/tateti-lab/tateti-lab/internal/progress"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

// A Batch says how All answers many positions: the phase its progress
// names, the most each position is searched (0: no limit), and a journal,
// a file that keeps each answer as it comes, so that a stopped batch
// resumes from what it answered ("" for none). The caller removes the
// journal once it has used the answers.
type Batch struct {
	Phase   string
	Limit   time.Duration
	Journal string
	// ValueOnly says the oracle answers values alone (Options.ValueOnly):
	// a batch of its own, so that a journal of whole answers is not taken
	// for one of values, nor the other way.
	ValueOnly bool
	// NoDepths says the oracle answers without depths (Options.NoDepths),
	// a batch of its own likewise.
	NoDepths bool
}

// JournalBeside is where the answers of a batch whose results go to the
// file or folder out are kept as they come, so that a stopped run resumes
// from them: a hidden file beside out, ".OUT.answers", let go by Done once
// the results are whole.
func JournalBeside(out string) string {
	out = filepath.Clean(out)
	return filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".answers")
}

// Done lets the batch's journal go once its answers are used: nothing when
// it has none, and never a file that is no journal (RemoveJournal).
func (b Batch) Done() error {
	if b.Journal == "" {
		return nil
	}
	return RemoveJournal(b.Journal)
}

// All asks the oracles ors (one at least, the same engine opened once each)
// for each of boards, as b says, and gives their analyses in the order of
// boards. Each oracle answers one position at a time, the next one not yet
// taken, so that n oracles answer n positions at once, each keeping its
// tables from one position to the next; an answer does not depend on who
// gave it, so neither do the analyses. A position no oracle can answer
// fails the whole, naming it; one not settled within b's limit comes with
// its Proved. With a journal, the answers it holds of the same batch (the
// same game, engine, limit, phase, values alone or not, and boards) are
// taken from it, and each new one is added to it as it comes.
func All(ctx context.Context, ors []Oracle, rl rules.Rules, boards []game.Board, b Batch) ([]perfect.Analysis, error) {
	as := make([]perfect.Analysis, len(boards))
	have := make([]bool, len(boards))
	keep, done, err := resume(ors[0], rl, boards, b, as, have)
	if err != nil {
		return nil, err
	}
	defer done()
	err = each(ctx, ors, rl, boards, b, have, func(i int, a perfect.Analysis) error {
		as[i] = a
		return keep(i, a)
	})
	if err != nil {
		return nil, err
	}
	return as, nil
}

// Each is All for many positions asked of one oracle, with no limit and no
// journal: it gives each analysis to use, in the order of boards, and
// keeps none; an error of use stops it.
func Each(ctx context.Context, o Oracle, rl rules.Rules, boards []game.Board, phase string, use func(i int, a perfect.Analysis) error) error {
	return each(ctx, []Oracle{o}, rl, boards, Batch{Phase: phase}, make([]bool, len(boards)), use)
}

// each asks the oracles ors for the boards not in have, each oracle one
// board at a time, telling progress: the position, the rate of this run
// and the time left, before what the engine tells. use is called once a
// board, one call at a time, in the order of boards when ors is one oracle.
func each(ctx context.Context, ors []Oracle, rl rules.Rules, boards []game.Board, b Batch, have []bool, use func(int, perfect.Analysis) error) error {
	var todo []int
	for i, h := range have {
		if !h {
			todo = append(todo, i)
		}
	}
	free := make(chan Oracle, len(ors))
	for _, o := range ors {
		free <- o
	}
	var mu sync.Mutex // over use and the count of answers
	before, start := len(boards)-len(todo), time.Now()
	done := before
	return par.Tasks(ctx, len(todo), len(ors), func(ctx context.Context, k int) error {
		i, o := todo[k], <-free
		defer func() { free <- o }()
		mu.Lock()
		head := batchHead(done, before, len(boards), time.Since(start))
		mu.Unlock()
		progress.Tell(ctx, b.Phase, head)
		ctx = progress.Under(ctx, b.Phase, head) // the engine's own lines after the head
		a, err := Within(ctx, o, boards[i], b.Limit)
		if err != nil {
			return fmt.Errorf("position %s: %w", rl.Spec().Format(boards[i]), err)
		}
		mu.Lock()
		defer mu.Unlock()
		done++
		return use(i, a)
	})
}

// rateText writes a rate as a person reads it: three figures below 100
// ("2.5", "0.125"), whole numbers above ("24612").
func rateText(r float64) string {
	if r >= 100 {
		return fmt.Sprintf("%.0f", r)
	}
	return fmt.Sprintf("%.3g", r)
}

// batchHead says where a batch of n positions is, done of them answered,
// before of those by an earlier run, the rest in took: "position 13 of 200,
// 2.5 a second, about 1m15s left".
func batchHead(done, before, n int, took time.Duration) string {
	head := fmt.Sprintf("position %d of %d", done+1, n)
	if before > 0 {
		head += fmt.Sprintf(" (%d answered before)", before)
	}
	if ran := done - before; ran > 0 && took > 0 {
		rate := float64(ran) / took.Seconds()
		left := time.Duration(float64(n-done) / rate * float64(time.Second))
		head += fmt.Sprintf(", %s a second, about %s left", rateText(rate), left.Round(time.Second))
	}
	return head
}
