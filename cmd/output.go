package cmd

import (
	"encoding/json"
	"io"

	"github.com/tateti-lab/tateti-lab/internal/atomicfile"
)

// writeJSON prints v as indented JSON with a final newline.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// checkOutFile makes sure --out names a file that can be written, or -
// for stdout; example names such a file.
func checkOutFile(out, example string) error {
	if out == "-" {
		return nil
	}
	if err := atomicfile.CheckFile(out, example); err != nil {
		return flagErrorf("--out %w", err)
	}
	return nil
}
