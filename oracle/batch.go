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
// gave it, so neither do the analyses. Of boards that are images of each
// other under the rules' symmetries, only the first is asked where its
// answer says all of the others' (perfect.Analysis.Image: settled, and no
// best line); the others are its images. A position no oracle can answer
// fails the whole, naming it; one not settled within b's limit comes with
// its Proved. With a journal, the answers it holds of the same batch (the
// same game, engine, limit, phase, values alone or not, and boards) are
// taken from it, and each new one is added to it as it comes.
func All(ctx context.Context, ors []Oracle, rl rules.Rules, boards []game.Board, b Batch) ([]perfect.Analysis, error) {
	t := &tally{rl: rl, boards: boards, as: make([]perfect.Analysis, len(boards)), have: make([]bool, len(boards))}
	keep, done, err := resume(ors[0], rl, boards, b, t.as, t.have)
	if err != nil {
		return nil, err
	}
	defer done()
	t.keep, t.images = keep, imagesOf(rl, boards)
	var todo []int
	for i := range boards {
		switch {
		case t.images[i] == nil: // an image, answered with its first
		case t.have[i]: // a first answered before: its images now
			if _, err := t.imaged(i); err != nil {
				return nil, err
			}
		default:
			todo = append(todo, i)
		}
	}
	for _, pass := range []*[]int{&todo, &t.left} { // the images no first's answer says, last
		if err := each(ctx, ors, rl, boards, b, *pass, count(t.have), t.answer); err != nil {
			return nil, err
		}
	}
	return t.as, nil
}

// A tally keeps the answers of All as they come: as, and have to say which
// are in; each kept by keep as well, and with it the images (imagesOf) its
// answer says, those it does not left for asking.
type tally struct {
	rl     rules.Rules
	boards []game.Board
	as     []perfect.Analysis
	have   []bool
	keep   func(int, perfect.Analysis) error
	images [][]int
	left   []int
}

// answer takes a, board i's answer, and its images', and gives how many
// boards it answered.
func (t *tally) answer(i int, a perfect.Analysis) (int, error) {
	t.as[i], t.have[i] = a, true
	if err := t.keep(i, a); err != nil {
		return 1, err
	}
	n, err := t.imaged(i)
	return 1 + n, err
}

// imaged takes the answers of board i's images from its own, and gives how
// many it took.
func (t *tally) imaged(i int) (n int, err error) {
	for _, k := range t.images[i] {
		if t.have[k] {
			continue
		}
		img, ok := t.as[i].Image(t.rl, t.boards[k])
		if !ok {
			t.left = append(t.left, k)
			continue
		}
		t.as[k], t.have[k], n = img, true, n+1
		if err = t.keep(k, img); err != nil {
			return n, err
		}
	}
	return n, nil
}

// imagesOf gives, for the first board of each class of boards under rl's
// symmetries, the indices of the other boards of its class (an empty, not
// nil, slice when there are none), and nil for those others.
func imagesOf(rl rules.Rules, boards []game.Board) [][]int {
	images := make([][]int, len(boards))
	first := make(map[game.Board]int, len(boards))
	perms := rl.Symmetries()
	for i, b := range boards {
		least, _ := game.Least(b, perms)
		if f, ok := first[least]; ok {
			images[f] = append(images[f], i)
			continue
		}
		first[least], images[i] = i, []int{}
	}
	return images
}

// count gives how many of have are true.
func count(have []bool) int {
	n := 0
	for _, h := range have {
		if h {
			n++
		}
	}
	return n
}

// Each is All for many positions asked of one oracle, with no limit and no
// journal: it gives each analysis to use, in the order of boards, and
// keeps none; an error of use stops it.
func Each(ctx context.Context, o Oracle, rl rules.Rules, boards []game.Board, phase string, use func(i int, a perfect.Analysis) error) error {
	todo := make([]int, len(boards))
	for i := range todo {
		todo[i] = i
	}
	return each(ctx, []Oracle{o}, rl, boards, Batch{Phase: phase}, todo, 0, func(i int, a perfect.Analysis) (int, error) { return 1, use(i, a) })
}

// each asks the oracles ors for the boards of todo, each oracle one board
// at a time, telling progress: the position, the rate of this run and the
// time left, before what the engine tells; before of the boards were
// answered before it began. use is called once a board, one call at a time,
// in the order of todo when ors is one oracle, and says how many boards
// the answer answered (with its images).
func each(ctx context.Context, ors []Oracle, rl rules.Rules, boards []game.Board, b Batch, todo []int, before int, use func(int, perfect.Analysis) (int, error)) error {
	free := make(chan Oracle, len(ors))
	for _, o := range ors {
		free <- o
	}
	var mu sync.Mutex // over use and the count of answers
	done, pace := before, progress.NewWindow(time.Now(), int64(before))
	return par.Tasks(ctx, len(todo), len(ors), func(ctx context.Context, k int) error {
		i, o := todo[k], <-free
		defer func() { free <- o }()
		mu.Lock()
		now := time.Now()
		then, was := pace.Since(now, int64(done))
		head := batchHead(done, before, len(boards), done-int(was[0]), now.Sub(then))
		mu.Unlock()
		progress.Tell(ctx, b.Phase, head)
		ctx = progress.Under(ctx, b.Phase, head) // the engine's own lines after the head
		a, err := Within(ctx, o, boards[i], b.Limit)
		if err != nil {
			return fmt.Errorf("position %s: %w", rl.Spec().Format(boards[i]), err)
		}
		mu.Lock()
		defer mu.Unlock()
		n, err := use(i, a)
		done += n
		return err
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
// before of those by an earlier run, and its pace, ran answered in took
// (the last minutes', progress.Window): "position 13 of 200, 2.5 a
// second, about 1m15s left".
func batchHead(done, before, n, ran int, took time.Duration) string {
	head := fmt.Sprintf("position %d of %d", done+1, n)
	if before > 0 {
		head += fmt.Sprintf(" (%d answered before)", before)
	}
	if ran > 0 && took > 0 {
		rate := float64(ran) / took.Seconds()
		left := time.Duration(float64(n-done) / rate * float64(time.Second))
		head += fmt.Sprintf(", %s a second, about %s left", rateText(rate), left.Round(time.Second))
	}
	return head
}
