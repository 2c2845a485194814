package atomicfile

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A staged file holds exactly what was written, and its sum, at every length
// around the block and buffer sizes, created as the export creates it
// (direct where the file system allows: the log says) and as a plain file:
// direct files write their last piece, shorter than a block, through the
// page cache.
func TestStagedFile(t *testing.T) {
	sizes := []int{0, 1, blockSize - 1, blockSize, blockSize + 1, bufferSize - 1, bufferSize, bufferSize + 1, 3*bufferSize + 777}
	dir := t.TempDir()
	for _, plain := range []bool{false, true} {
		for _, size := range sizes {
			want := make([]byte, size)
			rnd := rand.New(rand.NewPCG(uint64(size), 2))
			for i := range want {
				want[i] = byte(rnd.Uint32())
			}
			name := fmt.Sprintf("plain=%v,size=%d", plain, size)
			f, err := create(dir, name, nil)
			if plain {
				var file *os.File
				file, err = os.Create(filepath.Join(dir, name))
				f = newFile(name, file, false, nil)
			}
			if err != nil {
				t.Fatal(err)
			}
			for p := want; len(p) > 0; {
				k := min(len(p), 1+rnd.IntN(2*blockSize+bufferSize/3)) // pieces of odd sizes, some over a buffer
				if _, err := f.Write(p[:k]); err != nil {
					t.Fatal(err)
				}
				p = p[k:]
			}
			if size == 1 {
				t.Logf("%s: direct writes %v", name, f.direct)
			}
			if err := f.Close(); err != nil {
				t.Fatalf("%s (direct %v): %v", name, f.direct, err)
			}
			got, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(want)
			if !bytes.Equal(got, want) || f.size != int64(size) || f.SHA256() != hex.EncodeToString(sum[:]) {
				t.Errorf("%s (direct %v): read back %d bytes, size %d, sum %s; want %d bytes, the same, sum %x",
					name, f.direct, len(got), f.size, f.SHA256(), size, sum)
			}
		}
	}
}

// A write error of the file reaches the writer of the staged file: from a
// later Write, or at the latest from close.
func TestStagedFileError(t *testing.T) {
	for _, size := range []int{10, bufferSize + 10, 5 * bufferSize} {
		f, err := create(t.TempDir(), "f", func(_ string, w io.Writer) io.Writer {
			return fullDisk{}
		})
		if err != nil {
			t.Fatal(err)
		}
		_, werr := f.Write(make([]byte, size))
		cerr := f.Close()
		if cerr == nil || !strings.Contains(cerr.Error(), "no space left") {
			t.Errorf("%d bytes: Write gave %v, close %v; want close to say no space left", size, werr, cerr)
		}
		if size > 2*bufferSize && werr == nil {
			t.Errorf("%d bytes: Write gave no error after the writer failed", size)
		}
		if werr != nil && !strings.Contains(werr.Error(), "no space left") {
			t.Errorf("%d bytes: Write gave %v, want no space left", size, werr)
		}
	}
}

// einvalOnce refuses its first write as a file system that opens files for
// direct writes but does not do them.
type einvalOnce struct {
	w       io.Writer
	refused bool
}

func (e *einvalOnce) Write(p []byte) (int, error) {
	if !e.refused {
		e.refused = true
		return 0, &os.PathError{Op: "write", Path: "f", Err: syscall.EINVAL}
	}
	return e.w.Write(p)
}

// A direct file whose writes are refused goes on through the page cache,
// and holds every byte.
func TestStagedFileDirectRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	file, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f := newFile("f", file, true, func(_ string, w io.Writer) io.Writer { return &einvalOnce{w: w} })
	want := bytes.Repeat([]byte("tateti\n"), (2*bufferSize+5)/7)
	if _, err := f.Write(want); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatalf("close: %v, want the writes to go on without direct I/O", err)
	}
	if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("read back %d bytes (%v), want %d", len(got), err, len(want))
	}
}

// fullDisk refuses every write, as a full disk does.
type fullDisk struct{}

func (fullDisk) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }
