//go:build linux

package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// Write replaces only what it may: each kind of path ends as the table says.
func TestWrite(t *testing.T) {
	data := []byte("<svg/>\n")
	umask := syscall.Umask(0)
	syscall.Umask(umask)
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string) string // the path to write
		check func(t *testing.T, dir, path string)
	}{
		{"a new file gets 0666 less the umask", func(t *testing.T, dir string) string {
			return filepath.Join(dir, "new.svg")
		}, func(t *testing.T, dir, path string) {
			wantFile(t, path, data, fs.FileMode(0o666&^umask))
		}},
		{"a 0600 file stays 0600", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "private.svg")
			must(t, os.WriteFile(p, []byte("old"), 0o600))
			must(t, os.Chmod(p, 0o600))
			return p
		}, func(t *testing.T, dir, path string) {
			wantFile(t, path, data, 0o600)
		}},
		{"a symlink stays, its target is written", func(t *testing.T, dir string) string {
			target := filepath.Join(dir, "real.svg")
			must(t, os.WriteFile(target, []byte("old"), 0o640))
			must(t, os.Chmod(target, 0o640))
			link := filepath.Join(dir, "link.svg")
			must(t, os.Symlink("real.svg", link))
			return link
		}, func(t *testing.T, dir, path string) {
			if got, err := os.Readlink(path); err != nil || got != "real.svg" {
				t.Fatalf("the link reads %q, %v; want it to point to real.svg still", got, err)
			}
			wantFile(t, filepath.Join(dir, "real.svg"), data, 0o640)
		}},
		{"a dangling symlink makes its target", func(t *testing.T, dir string) string {
			link := filepath.Join(dir, "link.svg")
			must(t, os.Symlink("made.svg", link))
			return link
		}, func(t *testing.T, dir, path string) {
			wantFile(t, filepath.Join(dir, "made.svg"), data, fs.FileMode(0o666&^umask))
		}},
		{"a null device stays a device", nullDevice, func(t *testing.T, dir, path string) {
			fi, err := os.Stat(path)
			if err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
				t.Fatalf("%s is %v, %v after the write; want a character device", path, fi.Mode(), err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := tt.setup(t, dir)
			if err := Write(path, data); err != nil {
				t.Fatal(err)
			}
			tt.check(t, dir, path)
			if left := leftovers(t, dir); left != "" {
				t.Errorf("temporary files left: %s", left)
			}
		})
	}
}

// nullDevice gives a null device to write: as root, a new one in dir, so that
// a Write that replaced it could harm nothing else; otherwise /dev/null,
// which such a process could not replace.
func nullDevice(t *testing.T, dir string) string {
	if os.Geteuid() != 0 {
		return os.DevNull
	}
	path := filepath.Join(dir, "null")
	must(t, syscall.Mknod(path, syscall.S_IFCHR|0o666, int(unix.Mkdev(1, 3))))
	return path
}

// A FIFO is written in place: its reader gets the data, and it stays a FIFO.
func TestWriteFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pipe")
	must(t, syscall.Mkfifo(path, 0o600))
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(path)
		if err != nil {
			got <- err.Error()
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		got <- string(b)
	}()
	if err := Write(path, []byte("<svg/>\n")); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "<svg/>\n" {
		t.Fatalf("the reader got %q, want the data", s)
	}
	if fi, err := os.Lstat(path); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Fatalf("%s is %v, %v; want a FIFO still", path, fi.Mode(), err)
	}
}

// A folder is refused, with words that say so.
func TestWriteFolder(t *testing.T) {
	dir := t.TempDir()
	err := Write(dir, []byte("x"))
	if err == nil || !strings.Contains(err.Error(), "is a folder; name a file") {
		t.Fatalf("error %v, want one that says it is a folder", err)
	}
}

func wantFile(t *testing.T, path string, data []byte, mode fs.FileMode) {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if !fi.Mode().IsRegular() || fi.Mode().Perm() != mode {
		t.Errorf("%s has mode %v, want a regular file of %v", path, fi.Mode(), mode)
	}
	if got, _ := os.ReadFile(path); string(got) != string(data) {
		t.Errorf("%s holds %q, want %q", path, got, data)
	}
}

func leftovers(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	must(t, err)
	var left []string
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			left = append(left, e.Name())
		}
	}
	return strings.Join(left, ", ")
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// What fill writes replaces the file whole; a fill that fails part way
// leaves the file as it was, no temporary file, and its error.
func TestWriteFrom(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "tier")
	must(t, os.WriteFile(name, []byte("old"), 0o644))
	broken := errors.New("a part cannot be read")
	err := WriteFrom(name, func(w io.Writer) error {
		if _, err := w.Write([]byte("half of a new")); err != nil {
			return err
		}
		return broken
	})
	if !errors.Is(err, broken) {
		t.Errorf("got %v, want fill's error", err)
	}
	wantFile(t, name, []byte("old"), 0o644)
	if left := leftovers(t, dir); left != "" {
		t.Errorf("left %s", left)
	}
	must(t, WriteFrom(name, func(w io.Writer) error {
		_, err := io.WriteString(w, "new, whole")
		return err
	}))
	wantFile(t, name, []byte("new, whole"), 0o644)
}

// A mount point is a folder on another device than its parent's: /proc is
// one wherever Linux runs, a temporary folder is not.
func TestMountPoint(t *testing.T) {
	tests := []struct {
		dir  string
		want bool
	}{
		{"/proc", true}, // the file is built on Linux alone
		{t.TempDir(), false},
	}
	for _, tt := range tests {
		if got := mountPoint(tt.dir); got != tt.want {
			t.Errorf("mountPoint(%q) = %v, want %v", tt.dir, got, tt.want)
		}
	}
}

func TestCheckFile(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, path string
		want       string // the error's words; "" for none
	}{
		{"a new file", filepath.Join(dir, "x.svg"), ""},
		{"a folder", dir, "is a folder; name the file to write, such as " + filepath.Join(dir, "x.svg")},
		{"a missing folder", filepath.Join(dir, "no", "x.svg"), "the folder " + filepath.Join(dir, "no") + " is missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckFile(tt.path, "x.svg")
			if got := fmt.Sprint(err); (tt.want == "") != (err == nil) || !strings.Contains(got, tt.want) {
				t.Errorf("CheckFile(%q) = %v, want %q", tt.path, err, tt.want)
			}
		})
	}
}
