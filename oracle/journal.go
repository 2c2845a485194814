package oracle

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

// ForeignJournalError refuses a file, folder or link at a journal's path
// that is no journal of ours: bad input, left as it is, which the user
// moves away.
type ForeignJournalError struct{ Path string }

func (e *ForeignJournalError) Error() string {
	return fmt.Sprintf("%s is no journal of answers of this tool: move it away, or name another --out", e.Path)
}

// A journal keeps the answers of a batch in a file as they come: a header,
// journalMagic and the batch's key (batchKey), then a record an answer:
// the length of its payload and the payload's CRC-32C, 4 bytes each, little
// endian, and the payload, the gob of a journalRecord. Each record of an
// answer that took search is synced before the next answer is asked, with
// the records before it, so a stop loses at most the answer in progress
// and answers given at once (a book's, a database's), which cost nothing
// to ask again; a record cut short by the stop, and anything after it, is
// dropped when the journal is opened again.
type journal struct {
	f *os.File
}

// journalMagic begins every journal: a file at the journal's path that
// does not is no journal of ours, and is never written over.
const journalMagic = "TTJRNL01"

// journalRecord is one answer: the index of its board in the batch.
type journalRecord struct {
	I int
	A perfect.Analysis
}

// batchKey names a batch: the SHA-256 of its game, engine, limit, phase,
// whether values alone, and boards, what its answers depend on.
func batchKey(o Oracle, rl rules.Rules, boards []game.Board, b Batch) [32]byte {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%d\x00%s\x00%d\x00", rl.Spec(), o.Name(), b.Limit, b.Phase, len(boards))
	if b.ValueOnly { // added only so, to keep the keys of whole answers
		fmt.Fprint(h, "values alone\x00")
	}
	for _, bd := range boards {
		_ = binary.Write(h, binary.LittleEndian, [2]uint64{uint64(bd.X), uint64(bd.O)})
	}
	return [32]byte(h.Sum(nil))
}

// openJournal opens the journal at path of the batch key, and gives the
// answers it holds: a new journal where there is none, or where the file is
// a journal of another batch (whose answers are of no use here). A file
// there that is no journal is refused, and left as it is.
func openJournal(path string, key [32]byte) (*journal, map[int]perfect.Analysis, error) {
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, nil, &ForeignJournalError{Path: path}
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("the journal of answers %s: %w", path, err)
	}
	j := &journal{f}
	kept, err := j.read(key)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return j, kept, nil
}

// read reads the journal's header and records, and leaves the file at the
// end of its last whole record, or rewritten with key's header when it held
// another batch or nothing.
func (j *journal) read(key [32]byte) (map[int]perfect.Analysis, error) {
	data, err := io.ReadAll(j.f)
	if err != nil {
		return nil, fmt.Errorf("the journal of answers %s: %w", j.f.Name(), err)
	}
	head := append([]byte(journalMagic), key[:]...)
	switch {
	case len(data) > 0 && !bytes.HasPrefix(data, []byte(journalMagic)):
		return nil, &ForeignJournalError{Path: j.f.Name()}
	case !bytes.HasPrefix(data, head): // new, or another batch's
		return map[int]perfect.Analysis{}, j.reset(head, 0)
	}
	kept := map[int]perfect.Analysis{}
	end := len(head)
	for rest := data[end:]; len(rest) >= 8; rest = rest[8+binary.LittleEndian.Uint32(rest):] {
		n, sum := binary.LittleEndian.Uint32(rest), binary.LittleEndian.Uint32(rest[4:])
		if uint64(len(rest)-8) < uint64(n) || crc32.Checksum(rest[8:8+n], db.Castagnoli) != sum {
			break
		}
		var r journalRecord
		if gob.NewDecoder(bytes.NewReader(rest[8:8+n])).Decode(&r) != nil || r.I < 0 {
			break
		}
		kept[r.I] = r.A
		end += 8 + int(n)
	}
	return kept, j.reset(nil, int64(end))
}

// reset cuts the journal to its first size bytes, writes head after them,
// and leaves the file at its end.
func (j *journal) reset(head []byte, size int64) error {
	if err := j.f.Truncate(size); err != nil {
		return err
	}
	if _, err := j.f.Seek(size, io.SeekStart); err != nil {
		return err
	}
	if _, err := j.f.Write(head); err != nil {
		return err
	}
	return j.f.Sync()
}

// add keeps the answer a of the batch's board i, synced with those before
// it when sync.
func (j *journal) add(i int, a perfect.Analysis, sync bool) error {
	var payload bytes.Buffer
	if err := gob.NewEncoder(&payload).Encode(journalRecord{i, a}); err != nil {
		return err
	}
	var rec [8]byte
	binary.LittleEndian.PutUint32(rec[:], uint32(payload.Len()))
	binary.LittleEndian.PutUint32(rec[4:], crc32.Checksum(payload.Bytes(), db.Castagnoli))
	if _, err := j.f.Write(append(rec[:], payload.Bytes()...)); err != nil {
		return fmt.Errorf("the journal of answers %s: %w", j.f.Name(), err)
	}
	if !sync {
		return nil
	}
	return j.f.Sync()
}

func (j *journal) close() error { return j.f.Close() }

// RemoveJournal removes the journal at path, once its answers are used:
// nothing when there is none, and never a file that is no journal.
func RemoveJournal(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	magic := make([]byte, len(journalMagic))
	_, err = io.ReadFull(f, magic)
	f.Close()
	if err != nil || string(magic) != journalMagic {
		return fmt.Errorf("%s is no journal of answers of this tool: left as it is", path)
	}
	return os.Remove(path)
}
