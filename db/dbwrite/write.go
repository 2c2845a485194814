// Package dbwrite owns the writing of a database, apart from its reading
// (package db): a build's scratch, the part files of its tasks, and the
// tier files assembled from them whole or streamed; a finished database
// folded by the game's symmetries; and the manifest, the last file
// written. Package db owns the format both sides share and everything a
// prober needs, and imports nothing of this.
package dbwrite

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/internal/atomicfile"
)

// WriteManifest writes m as dir's manifest, as a unit: the last file of a
// database.
func WriteManifest(dir string, m db.Manifest) error {
	data, err := db.ManifestBytes(m)
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, db.ManifestName), data)
}

// writeUnit writes parts to name as a unit (atomicfile), and gives
// their size and SHA-256, summed from memory rather than read back.
func writeUnit(name string, parts [][]byte) (int64, string, error) {
	if err := atomicfile.WriteParts(name, parts...); err != nil {
		return 0, "", err
	}
	size, sum := Sum(parts)
	return size, sum, nil
}

// Sum gives the size and SHA-256 of a file's pieces one after another, as
// a manifest records them.
func Sum(pieces [][]byte) (int64, string) {
	sum := sha256.New()
	var size int64
	for _, b := range pieces {
		sum.Write(b)
		size += int64(len(b))
	}
	return size, hex.EncodeToString(sum.Sum(nil))
}
