package tier

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/db/dbwrite"
	"github.com/tateti-lab/tateti-lab/rules"
)

// A folded database answers every position as the database it was folded
// from: each probe, each ply's codes whole, and db check, on games with
// eight symmetries, with two and under gravity, a whole game and a book;
// and its files are smaller.
func TestFold(t *testing.T) {
	tests := []struct {
		name   string
		sp     rules.Spec
		maxPly int // an opening book's last ply; 0 for the whole game
	}{
		{"tic-tac-toe, eight symmetries", spec(3, 3, 3, false, false), 0},
		{"3x4 misère, four", spec(3, 4, 3, false, true), 0},
		{"gravity 4x5, a book to ply 8", spec(4, 5, 4, true, false), 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			rl := rules.New(tt.sp)
			src, dst := filepath.Join(t.TempDir(), "db"), filepath.Join(t.TempDir(), "folded")
			var err error
			if tt.maxPly > 0 {
				_, err = SolveBook(ctx, rl, tt.maxPly, src, 2)
			} else {
				_, err = Solve(ctx, rl, src, 2)
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := dbwrite.Fold(ctx, src, dst, rl, 2); err != nil {
				t.Fatal(err)
			}
			sameAnswers(t, src, dst, rl)
			c, err := db.Check(ctx, dst, Rule, 2)
			if err != nil || !c.OK {
				t.Errorf("db check of the folded database: %v, %+v", err, c)
			}
			if got, want := folderBytes(t, dst), folderBytes(t, src); got >= want {
				t.Errorf("folded: %d bytes, want fewer than the %d of the database", got, want)
			}
			if err := dbwrite.Fold(ctx, src, dst, rl, 2); err == nil {
				t.Errorf("folding into %s again: no error, want one for a folder that exists", dst)
			}
		})
	}
}

// sameAnswers fails unless the databases in a and b give the same codes
// for every ply, whole and probed position by position.
func sameAnswers(t *testing.T, a, b string, rl rules.Rules) {
	t.Helper()
	da, err := db.Open(a, rl)
	if err != nil {
		t.Fatal(err)
	}
	defer da.Close()
	dbb, err := db.Open(b, rl)
	if err != nil {
		t.Fatal(err)
	}
	defer dbb.Close()
	layout := da.Layout()
	for p := range da.Manifest.Plies {
		want, err := da.Codes(context.Background(), p, 1)
		if err != nil {
			t.Fatal(err)
		}
		got, err := dbb.Codes(context.Background(), p, 2)
		if err != nil {
			t.Fatal(err)
		}
		for r := range want {
			if got[r] != want[r] {
				t.Fatalf("ply %d rank %d: code %d folded, want %d", p, r, got[r], want[r])
			}
			o, ok, err := dbb.Probe(layout.Unrank(p, int64(r)))
			if wo, wok, _ := da.Probe(layout.Unrank(p, int64(r))); err != nil || o != wo || ok != wok {
				t.Fatalf("ply %d rank %d: probe %v %t %v folded, want %v %t", p, r, o, ok, err, wo, wok)
			}
		}
	}
}

// folderBytes gives the bytes of the files in dir.
func folderBytes(t *testing.T, dir string) int64 {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, e := range es {
		info, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		n += info.Size()
	}
	return n
}
