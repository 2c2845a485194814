package tier

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/crc32c"
	"github.com/tateti-lab/tateti-lab/internal/lazyregexp"
	"github.com/tateti-lab/tateti-lab/rules"
)

// SearchedName names the scratch file that keeps the codes a book's
// search has found at its last ply p, as it finds them: a task stopped
// halfway loses at most the position in progress, and a position whose
// mirror image was searched is not searched again.
func SearchedName(p int) string { return fmt.Sprintf("search-%02d.answers", p) }

// searchedName matches the names SearchedName gives.
var searchedName = lazyregexp.New(`^search-[0-9]{2}\.answers$`)

// searchedMagic begins a file of searched codes. Its header, searchedHead
// bytes, keys it to one build: the magic, then the game (rows, cols, k, and
// the switches, bit 0 gravity and bit 1 misère: the first four bytes of
// db.GameBytes), the ply searched and the codes' format version
// (scratchVersion), a byte each, two zero bytes, and the
// CRC-32C of those 16 bytes, 4 bytes little endian. Records follow, each
// searchedRecord bytes: the rank, 8 bytes little endian, the code, and the
// CRC-32C of those 9 bytes, 4 bytes little endian. A record cut short or
// failing its sum, and all after it, are dropped when the file is opened:
// a kill mid-write costs that one answer. A file cut short inside its
// header (a kill between making it and writing the header) holds no answer
// and is begun again.
const searchedMagic = "TTSRCH02"

const (
	searchedHead   = 20
	searchedRecord = 13
)

// searchedHeader gives the header of the file of the codes searched at ply p
// of the game of spec.
func searchedHeader(spec rules.Spec, p int) []byte {
	game := db.GameBytes(spec)
	head := append(append([]byte(searchedMagic), game[:4]...), byte(p), scratchVersion, 0, 0)
	return binary.LittleEndian.AppendUint32(head, crc32c.Checksum(head))
}

// searchedKey says the build a header is keyed to, for a refusal.
func searchedKey(head []byte) string {
	spec := rules.Spec{Spec: game.Spec{Rows: int(head[8]), Cols: int(head[9]), K: int(head[10])},
		Gravity: head[11]&1 != 0, Misere: head[11]&2 != 0}
	return fmt.Sprintf("ply %d of %s (format %d)", head[12], spec, head[13])
}

// searched is the codes found so far at a book's last ply, kept in memory
// and in their file, shared by the tasks of the ply. A nil searched keeps
// nothing: the Beam pipeline's tasks, which share no folder, search every
// position.
type searched struct {
	mu sync.Mutex
	f  *os.File
	// codes holds a byte for each rank of the ply, the code found there,
	// 0 (no reachable position's code) where none was: the ply's size in
	// bytes, where a map of the ranks searched took some 20 bytes a code
	// and grew for the whole build (Estimate counts it).
	codes []byte
	// done gives the code of a rank in the range of one of the ply's
	// finished tasks, false for any other: a position whose image a task
	// finished holds is not searched again, though the file that kept the
	// image's code be lost (a build folder moved without its scratch).
	// nil: none.
	done func(rank int64) (byte, bool)
}

// openSearched opens the file of the codes searched at ply p of spec's game
// in dir, a ply of size ranks, or makes it, and reads what it holds.
func openSearched(dir string, spec rules.Spec, p int, size int64) (*searched, error) {
	path := filepath.Join(dir, SearchedName(p))
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	s := &searched{f: f, codes: make([]byte, size)}
	if err := s.read(searchedHeader(spec, p)); err != nil {
		f.Close()
		return nil, &db.DamagedError{Path: path, What: err.Error(), Fix: "remove it to search its positions again"}
	}
	return s, nil
}

// checkHead says what is wrong with data, a file's bytes, as the file of
// searched codes whose header is head, if anything: its magic, or the build
// it is keyed to. A file shorter than a header holds no answer.
func checkHead(data, head []byte) error {
	switch {
	case len(data) < len(head):
		if !bytes.HasPrefix(head, data) && !bytes.HasPrefix(data, []byte(searchedMagic)) {
			return errors.New("it is no file of searched codes of this tool")
		}
		return nil
	case string(data[:len(searchedMagic)]) != searchedMagic,
		crc32c.Checksum(data[:searchedHead-4]) != binary.LittleEndian.Uint32(data[searchedHead-4:]):
		return errors.New("it is no file of searched codes of this tool")
	case !bytes.Equal(data[:searchedHead], head):
		return fmt.Errorf("it holds the codes searched at %s, not at %s", searchedKey(data), searchedKey(head))
	}
	return nil
}

// read checks the file against head, loads its whole records and cuts it
// after the last one. A record of a rank past the ply is damage, as one
// failing its sum is.
func (s *searched) read(head []byte) error {
	r := bufio.NewReaderSize(s.f, 1<<20)
	got := make([]byte, searchedHead)
	n, err := io.ReadFull(r, got)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return err
	}
	if err := checkHead(got[:n], head); err != nil {
		return err
	}
	end := int64(0) // a header cut short is begun again
	if n == searchedHead {
		if end, err = s.records(r); err != nil {
			return err
		}
	}
	if err := s.f.Truncate(end); err != nil {
		return err
	}
	if _, err := s.f.Seek(0, io.SeekEnd); err != nil {
		return err
	}
	if end == 0 {
		_, err = s.f.Write(head)
	}
	return err
}

// records loads the records r holds after the header, up to the first
// cut short, failing its sum or of a rank past the ply, and gives the
// file's length up to there.
func (s *searched) records(r io.Reader) (int64, error) {
	end := int64(searchedHead)
	for rec := make([]byte, searchedRecord); ; end += searchedRecord {
		if _, err := io.ReadFull(r, rec); err == io.EOF || err == io.ErrUnexpectedEOF {
			return end, nil
		} else if err != nil {
			return 0, err
		}
		rank := binary.LittleEndian.Uint64(rec)
		if crc32c.Checksum(rec[:9]) != binary.LittleEndian.Uint32(rec[9:]) || rank >= uint64(len(s.codes)) {
			return end, nil
		}
		s.codes[rank] = rec[8]
	}
}

// lookup gives the code of b, of rank r at ply p, when it or an image of
// it by one of syms (the rules' symmetries, the identity first) was
// searched, or an image is in a finished task's range (done): an image
// has the same value and depth.
func (s *searched) lookup(l interface{ Rank(game.Board) int64 }, syms [][]int, r int64, b game.Board) (byte, bool) {
	if s == nil {
		return 0, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.codes[r]; c != 0 {
		return c, true
	}
	for _, perm := range syms[1:] {
		ir := l.Rank(game.Transform(b, perm))
		if c := s.codes[ir]; c != 0 {
			return c, true
		}
		if s.done == nil {
			continue
		}
		if c, ok := s.done(ir); ok {
			return c, true
		}
	}
	return 0, false
}

// add keeps the code c of rank r. The record is written, not synced: a
// killed process loses nothing written, and a record a crash cuts short
// fails its sum.
func (s *searched) add(r int64, c byte) error {
	if s == nil {
		return nil
	}
	var rec [searchedRecord]byte
	binary.LittleEndian.PutUint64(rec[:], uint64(r))
	rec[8] = c
	binary.LittleEndian.PutUint32(rec[9:], crc32c.Checksum(rec[:9]))
	s.mu.Lock()
	defer s.mu.Unlock()
	s.codes[r] = c
	_, err := s.f.Write(rec[:])
	return err
}

// close closes the file, synced.
func (s *searched) close() error {
	err := s.f.Sync()
	return errors.Join(err, s.f.Close())
}

// removeSearched removes the file of ply p's searched codes in dir, once
// its tier is written.
func removeSearched(dir string, p int) error {
	err := os.Remove(filepath.Join(dir, SearchedName(p)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// isSearched reports whether the file at path begins as a file of
// searched codes of any version does ("TTSRCH"), or is one cut short
// inside that (a kill before the header was written): the build that opens
// it checks the rest, and says why it refuses one.
func isSearched(path string) bool {
	f, err := db.OpenRegular(path)
	if err != nil {
		return false
	}
	defer f.Close()
	family := searchedMagic[:6]
	magic := make([]byte, len(family))
	n, _ := io.ReadFull(f, magic)
	return strings.HasPrefix(family, string(magic[:n]))
}
