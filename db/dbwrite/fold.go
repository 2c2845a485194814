package dbwrite

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Fold writes the finished database in src, of rl's game and of any
// format version, folded (see db.Folded) into the new folder dst, which
// appears complete or not at all: the same manifest, its version, sizes
// and sums those of the folded files. Every tier is read whole, checked block by block; up to workers
// goroutines inflate one. The opening books built into tateti-lab are
// folded so.
func Fold(ctx context.Context, src, dst string, rl rules.Rules, workers int) error {
	d, err := db.Open(src, rl)
	if err != nil {
		return err
	}
	defer d.Close()
	if _, err := os.Lstat(dst); err == nil {
		return fmt.Errorf("%s exists: name a new folder to fold %s into", dst, src)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".tmp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp) // gone once renamed
	m := d.Manifest
	m.Version, m.BlockLen = db.Folded, db.FoldedBlockLen
	for p := range m.Plies {
		codes, err := d.Codes(ctx, p, workers)
		if err != nil {
			return err
		}
		ply := &m.Plies[p]
		ply.Bytes, ply.SHA256, err = writeUnit(filepath.Join(tmp, ply.File), db.TierPieces(m.Game, p, ply.Placements, db.FoldCodes(codes, d.Layout(), rl.Symmetries(), p), db.Folded))
		if err != nil {
			return err
		}
	}
	if err := WriteManifest(tmp, m); err != nil {
		return err
	}
	return os.Rename(tmp, dst)
}
