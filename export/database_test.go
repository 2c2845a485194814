package export

import (
	"context"
	"errors"
	"io/fs"
	"os"
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
	d := solvedDB(b, rules.New(rules.Spec{Spec: game.Spec{Rows: 4, Cols: 4, K: 4}}))
	out := b.TempDir()
	for b.Loop() {
		if _, err := Write(context.Background(), Database(context.Background(), d, 2), Options{Target: target(b, out, []string{"parquet"}), Meta: meta, Workers: 2}); err != nil {
			b.Fatal(err)
		}
	}
}

// A database is read under the run's context: once it ends, the export
// stops with its error, whatever ply it was reading, and leaves no dataset.
func TestDatabaseReadsStop(t *testing.T) {
	d := solvedDB(t, rules.Classic(game.Default))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out := filepath.Join(t.TempDir(), "out")
	_, err := Write(context.Background(), Database(ctx, d, 2), Options{Target: target(t, out, []string{"csv"}), Meta: meta, Workers: 2})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Write from a database whose reads were stopped: %v, want %v", err, context.Canceled)
	}
	if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the export left %s (%v), want nothing", out, err)
	}
}

// solvedDB solves rl's game tier by tier into a folder of the test's and
// opens its database, closed when the test ends.
func solvedDB(tb testing.TB, rl rules.Rules) *db.DB {
	tb.Helper()
	dir := filepath.Join(tb.TempDir(), "db")
	if _, err := tier.Solve(context.Background(), rl, dir, 2); err != nil {
		tb.Fatal(err)
	}
	d, err := db.Open(dir, rl)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { d.Close() })
	return d
}
