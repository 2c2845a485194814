package journal

import (
	"errors"
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
		body    string  // what Open gives after the head
		foreign bool
	}{
		{"none", nil, "", false},
		{"the same run", ptr(magic + "key-1" + "records"), "records", false},
		{"another run", ptr(magic + "key-2" + "records"), "", false},
		{"cut short in its magic", ptr(magic[:3]), "", false},
		{"no journal", ptr("my notes"), "", true},
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
			if err != nil || string(body) != tt.body {
				t.Fatalf("Open = %q, %v; want %q", body, err, tt.body)
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
