package report

import (
	"fmt"
	"io"

	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/export"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Export writes what an export wrote into dir: each file with its rows,
// bytes and SHA-256, and the manifest; by says who answered.
func Export(w io.Writer, dir string, s rules.Spec, m *export.Manifest, by perfect.Answered) error {
	fmt.Fprintf(w, "wrote %s for %s, answered by %s\n", dir, s.Words(), by)
	t := newTable(w)
	fmt.Fprintln(t, "file\trows\tbytes\tsha256\t")
	for _, f := range m.Files {
		fmt.Fprintf(t, "%s\t%s\t%s\t%s\t\n", f.Name, enumerate.Commas(f.Rows), enumerate.Commas(f.Bytes), f.SHA256)
	}
	fmt.Fprintf(t, "%s\t\t\t\t\n", export.ManifestName)
	return t.Flush()
}
