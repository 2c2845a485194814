package report

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tateti-lab/tateti-lab/export"
	"github.com/tateti-lab/tateti-lab/internal/figure"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Exported is what export --json prints: what was written, and who
// answered.
type Exported struct {
	*export.Written
	perfect.Answered
}

// Dropped says, on w, which files of the earlier dataset in dir the new
// one lacks, which are gone; nothing when none are.
func Dropped(w io.Writer, dir string, names []string) {
	if len(names) > 0 {
		fmt.Fprintf(w, "tateti-lab: replaced the earlier dataset in %s; these files of it are gone: %s\n", dir, strings.Join(names, ", "))
	}
}

// Kept says, on w, that what a stopped run did so far (what: "the
// answers", "the games played") is kept in the journal at path, if there
// is one holding anything: the same command goes on from it.
func Kept(w io.Writer, what, path string) {
	if fi, err := os.Stat(path); path != "" && err == nil && fi.Size() > 0 {
		fmt.Fprintf(w, "tateti-lab: %s so far are kept in %s: the same command goes on from them\n", what, path)
	}
}

// ExportEstimate says, on w, what the dataset about to be written into dir
// will take, file by file, before any of it is written.
func ExportEstimate(w io.Writer, dir string, e export.Estimate) {
	var files []string
	for _, f := range e.Files {
		files = append(files, fmt.Sprintf("%s %s", f.Name, figure.Bytes(uint64(f.Bytes))))
	}
	fmt.Fprintf(w, "tateti-lab: writing about %s into %s (%s)\n", figure.Bytes(uint64(e.Bytes)), dir, strings.Join(files, ", "))
}

// Export writes what an export wrote into dir: each file with its rows,
// bytes and SHA-256, the manifest and the data card; by says who answered.
func Export(w io.Writer, dir string, s rules.Spec, m *export.Written, by perfect.Answered) error {
	fmt.Fprintf(w, "wrote %s for %s, answered by %s\n", dir, s.Words(), by)
	if m.Positions != nil && len(m.Positions.Unsettled) > 0 {
		fmt.Fprintf(w, "%d positions not settled within the time limit are left out of the tables; manifest.json names them\n", len(m.Positions.Unsettled))
	}
	t := newTable(w)
	fmt.Fprintln(t, "file\trows\tbytes\tsha256\t")
	for _, f := range m.Files {
		fmt.Fprintf(t, "%s\t%s\t%s\t%s\t\n", f.Name, figure.Commas(f.Rows), figure.Commas(f.Bytes), f.SHA256)
	}
	fmt.Fprintf(t, "%s\t\t\t\t\n", export.ManifestName)
	if m.Card != "" {
		fmt.Fprintf(t, "%s\t\t\t\t\n", m.Card)
	}
	return t.Flush()
}
