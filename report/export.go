package report

import (
	"fmt"
	"io"
	"sync"

	"github.com/tateti-lab/tateti-lab/export"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Export writes what an export wrote into dir: each file with its rows,
// bytes and SHA-256, and the manifest.
func Export(w io.Writer, dir string, s rules.Spec, m *export.Manifest) error {
	fmt.Fprintf(w, "wrote %s for %s\n", dir, s.Words())
	t := newTable(w)
	fmt.Fprintln(t, "file\trows\tbytes\tsha256\t")
	for _, f := range m.Files {
		fmt.Fprintf(t, "%s\t%s\t%s\t%s\t\n", f.Name, Commas(f.Rows), Commas(f.Bytes), f.SHA256)
	}
	fmt.Fprintf(t, "%s\t\t\t\t\n", export.ManifestName)
	return t.Flush()
}

// ExportProgress gives a progress callback for export.Options that keeps the
// last count of each table and writes them on one line of w, a terminal.
func ExportProgress(w io.Writer) func(table string, done, total int) {
	var mu sync.Mutex
	done := map[string]int{}
	return func(table string, n, total int) {
		mu.Lock()
		defer mu.Unlock()
		done[table] = n
		fmt.Fprintf(w, "\rexport: states %s, moves from %s of %s positions", Commas(int64(done["states"])), Commas(int64(done["moves"])), Commas(int64(total)))
		if done["states"] == total && done["moves"] == total {
			fmt.Fprintln(w)
		}
	}
}
