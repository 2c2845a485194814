package export

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/tier"
)

// BenchmarkExportDatabase4x4 writes free 4x4's tables from its database,
// where BenchmarkExport4x4Formats writes them from the game in memory.
func BenchmarkExportDatabase4x4(b *testing.B) {
	rl := rules.New(rules.Spec{Spec: game.Spec{Rows: 4, Cols: 4, K: 4}})
	dir := filepath.Join(b.TempDir(), "db")
	if _, err := tier.Solve(context.Background(), rl, dir, 2); err != nil {
		b.Fatal(err)
	}
	d, err := db.Open(dir, rl)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	out := b.TempDir()
	for b.Loop() {
		if _, err := Write(context.Background(), Database(d, 2), Options{Dir: out, Formats: []string{"parquet"}, Meta: meta, Workers: 2}); err != nil {
			b.Fatal(err)
		}
	}
}
