package oracle

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
	"sync"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/crc32c"
	"github.com/tateti-lab/tateti-lab/internal/journal"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

// ForeignJournalError refuses a file, folder or link at a journal's path
// that is no journal of ours: bad input, left as it is, which the user
// moves away.
type ForeignJournalError = journal.ForeignError

// A journal keeps the answers of a batch in a file as they come: a header,
// journalMagic, the version of its records (recordVersion) and the batch's
// key (batchKey), then a record an answer:
// the length of its payload and the payload's CRC-32C, 4 bytes each, little
// endian, and the payload, a journalRecord (appendRecord). Each record of an
// answer that took search is synced before the next answer is asked, with
// the records before it, so a stop loses at most the answer in progress
// and answers given at once (a book's, a database's), which cost nothing
// to ask again; a record cut short by the stop, and anything after it, is
// dropped when the journal is opened again.
type journalFile struct {
	f *os.File
}

// journalMagic begins every journal: a file at the journal's path that
// does not is no journal of ours, and is never written over.
const journalMagic = "TTJRNL02"

// journalMagicV1 began the journals of versions that wrote no version of
// their records: such a journal is refused with a word (OldJournalError).
const journalMagicV1 = "TTJRNL01"

// recordVersion names the shape of a journal's records: the SHA-256 of
// their layout's name (recordLayout) and of journalRecord's fields, their
// names and types, to the leaves, so that a field added to an answer
// (perfect.Analysis) makes another version, and so does another layout:
// records of an answer with fewer fields, or laid out otherwise, would
// read as answers served wrong. Its first 8 bytes follow the magic. It
// is worked out on first use, not at every start of the program.
var recordVersion = sync.OnceValue(func() [8]byte {
	sum := sha256.Sum256([]byte(recordLayout + shapeOf(reflect.TypeFor[journalRecord](), 0)))
	return [8]byte(sum[:8])
})

// recordLayout names the layout of a record's payload (appendRecord); the
// journals of earlier versions held gobs, and named none.
const recordLayout = "fields in order, varints\x00"

// shapeOf writes the type t as its fields' names and types, to the leaves.
func shapeOf(t reflect.Type, depth int) string {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return t.Kind().String() + " " + shapeOf(t.Elem(), depth)
	case reflect.Map:
		return "map " + shapeOf(t.Key(), depth) + " " + shapeOf(t.Elem(), depth)
	case reflect.Struct:
		if depth > 8 {
			return t.String()
		}
		out := "{"
		for f := range t.Fields() {
			if f.IsExported() {
				out += f.Name + " " + shapeOf(f.Type, depth+1) + ";"
			}
		}
		return out + "}"
	}
	return t.String()
}

// OldJournalError refuses a journal of answers an earlier version wrote,
// whose answers lack what this one's hold: they are not served.
type OldJournalError struct{ Path string }

func (e *OldJournalError) Error() string {
	return fmt.Sprintf("%s holds answers an earlier version of tateti-lab wrote, which lack what this one's hold: finish the run with the version that began it, or remove the file to answer again", e.Path)
}

// journalRecord is one answer: the index of its board in the batch.
type journalRecord struct {
	I int
	A perfect.Analysis
}

// resume reads back into as the answers the batch's journal holds, marks
// them in have, and gives keep, which adds an answer to the journal, and
// done, which closes it: both do nothing for a batch with no journal. An
// answer o gives at once (Instant) is kept unsynced, as it is asked again
// at once.
func resume(o Oracle, rl rules.Rules, boards []game.Board, b Batch, as []perfect.Analysis, have []bool) (keep func(int, perfect.Analysis) error, done func(), err error) {
	if b.Journal == "" {
		return func(int, perfect.Analysis) error { return nil }, func() {}, nil
	}
	key := batchKey(o, rl, boards, b)
	j, err := openJournal(b.Journal, key, func(i int, a perfect.Analysis) {
		if i < len(as) {
			as[i], have[i] = a, true
		}
	})
	if err != nil {
		return nil, nil, err
	}
	keep = func(i int, a perfect.Analysis) error { return j.add(i, a, !o.Instant(boards[i])) }
	return keep, func() { j.close() }, nil
}

// batchKey names a batch: the SHA-256 of its game, engine, limit, phase,
// whether values alone, whether without depths, and boards, what its answers depend on.
func batchKey(o Oracle, rl rules.Rules, boards []game.Board, b Batch) [32]byte {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%d\x00%s\x00%d\x00", rl.Spec(), o.Name(), b.Limit, b.Phase, len(boards))
	if b.ValueOnly { // added only so, to keep the keys of whole answers
		fmt.Fprint(h, "values alone\x00")
	}
	if b.NoDepths {
		fmt.Fprint(h, "without depths\x00")
	}
	for _, bd := range boards {
		_ = binary.Write(h, binary.LittleEndian, [2]uint64{uint64(bd.X), uint64(bd.O)})
	}
	return [32]byte(h.Sum(nil))
}

// CheckJournal refuses, before any work, what a batch would refuse of the
// journal of answers at path: one of an earlier version (OldJournalError),
// or a file, folder or link that is no journal of answers
// (ForeignJournalError). Nothing there, or a journal, passes.
func CheckJournal(path string) error {
	v1 := string(journal.Head(path, len(journalMagicV1))) == journalMagicV1
	if head := journal.Head(path, len(journalMagic)+len(recordVersion())); v1 ||
		head != nil && string(head[:len(journalMagic)]) == journalMagic && [8]byte(head[len(journalMagic):]) != recordVersion() {
		return &OldJournalError{Path: path}
	}
	return journal.Check(path, journalMagic, "answers")
}

// openJournal opens the journal at path of the batch key, and gives put
// the answers it holds, a record at a time, as they are read: a new
// journal where there is none, or where the file is a journal of another
// batch (whose answers are of no use here). A file there that is no
// journal is refused, and left as it is.
func openJournal(path string, key [32]byte, put func(i int, a perfect.Analysis)) (*journalFile, error) {
	if err := CheckJournal(path); err != nil {
		return nil, err
	}
	v := recordVersion()
	head := append(append([]byte(journalMagic), v[:]...), key[:]...)
	f, body, err := journal.Open(path, journalMagic, "answers", head)
	if err != nil {
		return nil, err
	}
	end, payload := 0, []byte(nil)
	for body != nil {
		var r journalRecord
		var n int
		if n, payload = nextRecord(body, payload, &r); n == 0 {
			break
		}
		put(r.I, r.A)
		end += n
	}
	if body != nil {
		err = journal.Cut(f, int64(len(head)+end), nil)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return &journalFile{f}, nil
}

// nextRecord reads the record body is at into r, its payload read into
// buf (grown as needed, and given back for the next), and gives the
// record's length: 0 for a record cut short, failing its sum or not an
// answer, which ends what the journal holds.
func nextRecord(body *bufio.Reader, buf []byte, r *journalRecord) (int, []byte) {
	var h [8]byte
	if _, err := io.ReadFull(body, h[:]); err != nil {
		return 0, buf
	}
	n, sum := binary.LittleEndian.Uint32(h[:]), binary.LittleEndian.Uint32(h[4:])
	if n > maxRecord {
		return 0, buf
	}
	buf = slices.Grow(buf[:0], int(n))[:n]
	if _, err := io.ReadFull(body, buf); err != nil || crc32c.Checksum(buf) != sum {
		return 0, buf
	}
	if readRecord(buf, r) != nil || r.I < 0 {
		return 0, buf
	}
	return 8 + int(n), buf
}

// maxRecord bounds a record's payload: an answer takes a few hundred
// bytes (64 moves and a line of 64 cells at the most), and a length past
// this is damage, not an answer to read.
const maxRecord = 1 << 20

// add keeps the answer a of the batch's board i, synced with those before
// it when sync.
func (j *journalFile) add(i int, a perfect.Analysis, sync bool) error {
	rec, err := appendRecord(make([]byte, 8, 256), &journalRecord{i, a})
	if err != nil {
		return err
	}
	binary.LittleEndian.PutUint32(rec, uint32(len(rec)-8))
	binary.LittleEndian.PutUint32(rec[4:], crc32c.Checksum(rec[8:]))
	if _, err := j.f.Write(rec); err != nil {
		return fmt.Errorf("the journal of answers %s: %w", j.f.Name(), err)
	}
	if !sync {
		return nil
	}
	return j.f.Sync()
}

func (j *journalFile) close() error { return j.f.Close() }

// RemoveJournal removes the journal at path, once its answers are used:
// nothing when there is none, and never a file that is no journal.
func RemoveJournal(path string) error { return journal.Remove(path, journalMagic, "answers") }
