package cmd

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
)

// writeJSON prints v as indented JSON with a final newline.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// checkOutFile makes sure --out names a file that can be written: - for
// stdout, or a path whose folder exists and that is not a folder itself;
// example names such a file.
func checkOutFile(out, example string) error {
	if out == "-" {
		return nil
	}
	if fi, err := os.Stat(out); err == nil && fi.IsDir() {
		return flagErrorf("--out %q is a folder; name the file to write, such as --out %s", out, filepath.Join(out, example))
	}
	if fi, err := os.Stat(filepath.Dir(out)); err != nil || !fi.IsDir() {
		return flagErrorf("--out %q: the folder %s is missing; create it or name another", out, filepath.Dir(out))
	}
	return nil
}
