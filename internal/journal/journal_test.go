package journal

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// Open takes a new file, one of the same run (what follows its head), and
// begins anew one cut short or of another run; it refuses a file that is
// no journal, and a folder, and leaves them; Remove removes a journal, one
// cut short in its magic, and nothing else.
func TestOpenAndRemove(t *testing.T) {
	const magic = "TTTEST01"
	head := []byte(magic + "key-1")
	tests := []struct {
		name    string
		file    *string // the file's bytes before, nil for none
		body    *string // what Open gives to read after the head, nil for no reader (a journal begun anew)
		foreign bool
	}{
		{"none", nil, nil, false},
		{"the same run", ptr(magic + "key-1" + "records"), ptr("records"), false},
		{"the same run, no record yet", ptr(magic + "key-1"), ptr(""), false},
		{"another run", ptr(magic + "key-2" + "records"), nil, false},
		{"cut short in its key", ptr(magic + "key"), nil, false},
		{"cut short in its magic", ptr(magic[:3]), nil, false},
		{"no journal", ptr("my notes"), nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), ".out.test")
			if tt.file != nil {
				if err := os.WriteFile(path, []byte(*tt.file), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			f, body, err := Open(path, magic, "tests", head)
			if tt.foreign {
				if fe := (*ForeignError)(nil); !errors.As(err, &fe) {
					t.Fatalf("Open = %v, want a ForeignError", err)
				}
				if got, _ := os.ReadFile(path); string(got) != *tt.file {
					t.Errorf("the file holds %q after, want it left as %q", got, *tt.file)
				}
				if err := Remove(path, magic, "tests"); err == nil {
					t.Errorf("Remove of no journal: nil, want it refused")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case body == nil && tt.body != nil:
				t.Fatalf("Open gives no reader, want one of %q", *tt.body)
			case body != nil && tt.body == nil:
				t.Fatalf("Open gives a reader, want none")
			case body != nil:
				if got, _ := io.ReadAll(body); string(got) != *tt.body {
					t.Fatalf("Open gives %q to read, want %q", got, *tt.body)
				}
			}
			f.Close()
			if got, _ := os.ReadFile(path); string(got[:len(head)]) != string(head) {
				t.Errorf("the file begins %q, want the head %q", got, head)
			}
			if err := Remove(path, magic, "tests"); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(path); !os.IsNotExist(err) {
				t.Errorf("Remove left the journal: %v", err)
			}
		})
	}
	dir := t.TempDir()
	if _, _, err := Open(dir, magic, "tests", head); !errors.As(err, new(*ForeignError)) {
		t.Errorf("Open of a folder = %v, want a ForeignError", err)
	}
}

func ptr(s string) *string { return &s }

// Check refuses before any work what Open refuses, and passes what Open
// opens: nothing there, a journal, or one cut short inside its magic.
func TestCheck(t *testing.T) {
	const magic = "TTJOURNAL"
	tests := []struct {
		name    string
		make    func(path string) error
		foreign bool
	}{
		{"nothing there", func(string) error { return nil }, false},
		{"a journal", func(p string) error { return os.WriteFile(p, []byte(magic+"key and records"), 0o644) }, false},
		{"cut short in its magic", func(p string) error { return os.WriteFile(p, []byte(magic[:4]), 0o644) }, false},
		{"empty", func(p string) error { return os.WriteFile(p, nil, 0o644) }, false},
		{"someone else's bytes", func(p string) error { return os.WriteFile(p, []byte("#!/bin/sh\necho hi\n"), 0o644) }, true},
		{"a folder", func(p string) error { return os.Mkdir(p, 0o755) }, true},
		{"a link", func(p string) error { return os.Symlink("/etc/hostname", p) }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "j")
			if err := tt.make(path); err != nil {
				t.Fatal(err)
			}
			err := Check(path, magic, "answers")
			var fe *ForeignError
			if got := errors.As(err, &fe); got != tt.foreign || !got && err != nil {
				t.Fatalf("Check: %v; want foreign %v", err, tt.foreign)
			}
			f, _, openErr := Open(path, magic, "answers", []byte(magic+"key"))
			if f != nil {
				f.Close()
			}
			if got := errors.As(openErr, &fe); got != tt.foreign {
				t.Errorf("Open: %v; want foreign %v, as Check says", openErr, tt.foreign)
			}
		})
	}
}
