package positions

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/tateti-lab/tateti-lab/internal/crc32c"
	"github.com/tateti-lab/tateti-lab/internal/journal"
	"github.com/tateti-lab/tateti-lab/rules"
)

// A journal of games keeps where each game of a sample's draw ended as it
// is played, so that a draw stopped (an interrupt, a kill) resumes from
// the games it played: each game is its seed's and its number's alone
// (Player.Play), so a game read back is the game played again, and
// replaying it with its own moves as the answers recalls what it asked
// (Player.relearn). The file
// is a header, gamesMagic and the SHA-256 of what the games depend on
// (gamesKey: the game, the seed, the plies, quiet or not, the epsilon),
// then a record a game: its number, 8 bytes, a byte that says whether the
// sample may keep it, a byte n, the n cells it played, a byte each (the
// board is theirs), and the CRC-32C of all that, 4 bytes, little-endian.
// Records are written as games end
// and synced at most every gamesSync, so that a stop of the machine loses
// at most that much play, and a kill of the process none; a record cut
// short or failing its sum, and all after it, are dropped when the file
// is opened again.
type gamesJournal struct {
	f      *os.File
	mu     sync.Mutex
	synced time.Time
	have   map[int]Drawn
	// The games read back and not yet relearnt: relearnt only once a game
	// is to be played, so that a draw whose games are all read back (a run
	// resumed while labelling) relearns none. learning is held while they
	// are, so that no player asks meanwhile what they are about to teach.
	unlearnt []int
	learning sync.Mutex
}

const (
	gamesMagic = "TTGAMES3"
	gamesHead  = 8 + 1 + 1 // a record's bytes before its cells
	gamesSync  = time.Second
)

// gamesMagicsBefore began the journals of games of earlier versions: the
// first kept each game's end, not its moves; the second drew a best move
// as an index among all the best ones, where this one asks about the
// moves in a random order (perfect.Noisy.Pick), so that the same seed
// plays other games. Such a journal is refused with a word, never begun
// anew without one (OldGamesError).
var gamesMagicsBefore = []string{"TTGAMES1", "TTGAMES2"}

// OldGamesError refuses a journal of games an earlier version wrote: the
// draw it kept cannot go on with this version, which plays other games.
type OldGamesError struct{ Path string }

func (e *OldGamesError) Error() string {
	return fmt.Sprintf("%s holds the games of a draw by an earlier version of tateti-lab, which drew them otherwise: finish that draw with the version that began it, or remove the file to draw again", e.Path)
}

// GamesBeside is where the games of a sample drawn for the file or folder
// out are kept as they are played: a hidden file beside out,
// ".OUT.games", which RemoveGames lets go once the results are whole.
func GamesBeside(out string) string {
	out = filepath.Clean(out)
	return filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".games")
}

// gamesKey names the draw whose games a journal keeps: the SHA-256 of what
// a game depends on. Not N: a larger sample's games begin with a smaller
// one's.
func gamesKey(s Sample, rl rules.Rules) [32]byte {
	return sha256.Sum256(fmt.Appendf(nil, "%s\x00%d\x00%s\x00%t\x00%v", rl.Spec(), s.Seed, s.Plies, s.Quiet, s.Play().Epsilon))
}

// CheckGames refuses, before any work, what a draw would refuse of the
// journal of games at path: one of an earlier version (OldGamesError), or
// a file, folder or link that is no journal of games
// (journal.ForeignError). Nothing there, or a journal, passes.
func CheckGames(path string) error {
	if slices.Contains(gamesMagicsBefore, string(journal.Head(path, len(gamesMagic)))) {
		return &OldGamesError{Path: path}
	}
	return journal.Check(path, gamesMagic, "games")
}

// openGames opens the journal of games at path for the draw of key, and
// reads the games it holds: a new journal where there is none, or where
// it is another draw's. A file there that is no journal is refused
// (journal.ForeignError) and left as it is.
func openGames(path string, key [32]byte) (*gamesJournal, error) {
	if err := CheckGames(path); err != nil {
		return nil, err
	}
	head := append([]byte(gamesMagic), key[:]...)
	f, body, err := journal.Open(path, gamesMagic, "games", head)
	if err != nil {
		return nil, err
	}
	j := &gamesJournal{f: f, have: map[int]Drawn{}, synced: time.Now()}
	end := 0
	for body != nil {
		g, d, n := nextGame(body)
		if n == 0 {
			break
		}
		j.have[g] = d
		end += n
	}
	if body != nil {
		err = journal.Cut(f, int64(len(head)+end), nil)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return j, nil
}

// nextGame reads the record r is at, as readGame does, and moves r past
// it.
func nextGame(r *bufio.Reader) (int, Drawn, int) {
	h, _ := r.Peek(gamesHead)
	if len(h) < gamesHead {
		return 0, Drawn{}, 0
	}
	rec, _ := r.Peek(gamesHead + int(h[gamesHead-1]) + 4) // short at the end of the file: readGame refuses it
	g, d, n := readGame(rec)
	_, _ = r.Discard(n)
	return g, d, n
}

// readGame reads the record at the start of rec: the game's number, its
// end, and the record's length; 0 for a record cut short or failing its
// sum.
func readGame(rec []byte) (int, Drawn, int) {
	le := binary.LittleEndian
	if len(rec) < gamesHead {
		return 0, Drawn{}, 0
	}
	n := gamesHead + int(rec[gamesHead-1]) + 4
	if len(rec) < n || crc32c.Checksum(rec[:n-4]) != le.Uint32(rec[n-4:]) {
		return 0, Drawn{}, 0
	}
	d := Drawn{Kept: rec[8] == 1, History: make(History, n-4-gamesHead)}
	for i, c := range rec[gamesHead : n-4] {
		d.History[i] = int8(c)
		d.Board = d.Board.Play(int(c), d.Board.ToMove())
	}
	return int(le.Uint64(rec)), d, n
}

// play gives the end of game g of the draw, played by p, or read back
// from the journal (then back is true); a game played is kept in it, and
// before it is played p's memo is taught what the games read back learnt
// (relearn). A nil journal plays.
func (j *gamesJournal) play(ctx context.Context, p *Player, g int) (d Drawn, back bool, err error) {
	if j == nil {
		d, err = p.Play(ctx, g)
		return d, false, err
	}
	if d, ok := j.played(g); ok {
		return d, true, nil
	}
	if err := j.relearn(p); err != nil {
		return d, false, err
	}
	if d, err = p.Play(ctx, g); err != nil {
		return d, false, err
	}
	return d, false, j.add(g, d)
}

// played gives game g's end if the journal holds it, and notes it
// unlearnt.
func (j *gamesJournal) played(g int) (Drawn, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	d, ok := j.have[g]
	if ok {
		j.unlearnt = append(j.unlearnt, g)
	}
	return d, ok
}

// relearn teaches p's memo what the games read back and not yet relearnt
// learnt (Player.relearn).
func (j *gamesJournal) relearn(p *Player) error {
	j.learning.Lock()
	defer j.learning.Unlock()
	j.mu.Lock()
	gs := j.unlearnt
	j.unlearnt = nil
	j.mu.Unlock()
	for _, g := range gs {
		if err := p.relearn(g, j.have[g]); err != nil { // have is only read once opened
			return fmt.Errorf("the journal of games %s: %w; remove it to draw again", j.f.Name(), err)
		}
	}
	return nil
}

// add keeps game g's end d, synced with the records before it once
// gamesSync has passed since the last sync.
func (j *gamesJournal) add(g int, d Drawn) error {
	le := binary.LittleEndian
	rec := le.AppendUint64(nil, uint64(g))
	kept := byte(0)
	if d.Kept {
		kept = 1
	}
	rec = append(rec, kept, byte(len(d.History)))
	for _, c := range d.History {
		rec = append(rec, byte(c))
	}
	rec = le.AppendUint32(rec, crc32c.Checksum(rec))
	j.mu.Lock()
	defer j.mu.Unlock()
	if _, err := j.f.Write(rec); err != nil {
		return fmt.Errorf("the journal of games %s: %w", j.f.Name(), err)
	}
	if time.Since(j.synced) < gamesSync {
		return nil
	}
	j.synced = time.Now()
	return j.f.Sync()
}

// close syncs and closes the journal.
func (j *gamesJournal) close() error {
	return errors.Join(j.f.Sync(), j.f.Close())
}

// RemoveGames removes the journal of games at path, once the sample it
// drew is used: nothing when there is none, and never a file that is no
// such journal.
func RemoveGames(path string) error { return journal.Remove(path, gamesMagic, "games") }
