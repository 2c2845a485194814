package tier

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sync"

	"github.com/tateti-lab/tateti-lab/game"
)

// SearchedName names the scratch file that keeps the codes a book's
// search has found at its last ply p, as it finds them: a task stopped
// halfway loses at most the position in progress, and a position whose
// mirror image was searched is not searched again.
func SearchedName(p int) string { return fmt.Sprintf("search-%02d.answers", p) }

// searchedName matches the names SearchedName gives.
var searchedName = regexp.MustCompile(`^search-[0-9]{2}\.answers$`)

// searchedMagic begins a file of searched codes; records follow, each
// searchedRecord bytes: the rank, 8 bytes little endian, the code, and the
// CRC-32C of those 9 bytes, 4 bytes little endian. A record cut short or
// failing its sum, and all after it, are dropped when the file is opened:
// a kill mid-write costs that one answer.
const searchedMagic = "TTSRCH01"

const searchedRecord = 13

// searched is the codes found so far at a book's last ply, by rank, kept
// in memory and in their file, shared by the tasks of the ply. A nil
// searched keeps nothing: the Beam pipeline's tasks, which share no
// folder, search every position.
type searched struct {
	mu    sync.Mutex
	f     *os.File
	codes map[int64]byte
}

// openSearched opens the file of the codes searched at ply p in dir, or
// makes it, and reads what it holds.
func openSearched(dir string, p int) (*searched, error) {
	path := filepath.Join(dir, SearchedName(p))
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	s := &searched{f: f, codes: map[int64]byte{}}
	if err := s.read(); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w; remove it to search its positions again", path, err)
	}
	return s, nil
}

// read loads the file's whole records and cuts it after the last one.
func (s *searched) read() error {
	data, err := io.ReadAll(s.f)
	if err != nil {
		return err
	}
	if len(data) > 0 && (len(data) < len(searchedMagic) || string(data[:len(searchedMagic)]) != searchedMagic) {
		return errors.New("it is no file of searched codes")
	}
	end := len(searchedMagic)
	if len(data) >= end {
		for rest := data[end:]; len(rest) >= searchedRecord; rest = rest[searchedRecord:] {
			if crc32.Checksum(rest[:9], castagnoli) != binary.LittleEndian.Uint32(rest[9:]) {
				break
			}
			s.codes[int64(binary.LittleEndian.Uint64(rest))] = rest[8]
			end += searchedRecord
		}
	}
	if err := s.f.Truncate(int64(min(end, len(data)))); err != nil {
		return err
	}
	if _, err := s.f.Seek(0, io.SeekEnd); err != nil {
		return err
	}
	if len(data) < len(searchedMagic) {
		_, err = s.f.Write([]byte(searchedMagic))
	}
	return err
}

// lookup gives the code of b, of rank r at ply p, when it or an image of
// it by one of syms (the rules' symmetries, the identity first) was
// searched: an image has the same value and depth.
func (s *searched) lookup(l interface{ Rank(game.Board) int64 }, syms [][]int, r int64, b game.Board) (byte, bool) {
	if s == nil {
		return 0, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.codes[r]; ok {
		return c, true
	}
	for _, perm := range syms[1:] {
		if c, ok := s.codes[l.Rank(game.Transform(b, perm))]; ok {
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
	binary.LittleEndian.PutUint32(rec[9:], crc32.Checksum(rec[:9], castagnoli))
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
// searched codes does.
func isSearched(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	magic := make([]byte, len(searchedMagic))
	_, err = io.ReadFull(f, magic)
	return err == nil && string(magic) == searchedMagic
}
