package cmd

import "github.com/tateti-lab/tateti-lab/internal/atomicfile"

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
