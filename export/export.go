package export

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/solve"
)

// Formats lists the file formats Write can produce.
var Formats = []string{"parquet", "csv"}

// Meta names the game and the tool in the files and the manifest.
type Meta struct {
	Tool    string
	Version string
	Game    game.Spec
}

func (m Meta) gameJSON() string {
	b, _ := json.Marshal(m.Game)
	return string(b)
}

// Options say where and what Write writes.
type Options struct {
	Dir      string
	Formats  []string // a subset of Formats
	Meta     Meta
	Progress func(table string, done, total int) // called now and then; may be nil
}

// File describes one written file in the manifest.
type File struct {
	Name   string `json:"name"`
	Table  string `json:"table"`
	Format string `json:"format"`
	Rows   int64  `json:"rows"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// Manifest lists what an export wrote. It is written as manifest.json.
type Manifest struct {
	Tool    string    `json:"tool"`
	Version string    `json:"version"`
	Game    game.Spec `json:"game"`
	Files   []File    `json:"files"`
}

// ManifestName is the manifest's file name.
const ManifestName = "manifest.json"

// CheckDir makes sure dir is a folder that can be written, creating it if it
// is missing.
func CheckDir(dir string) error {
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return fmt.Errorf("--out %q is a file, want a folder (it is created if missing)", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--out %q cannot be made into a folder: %w", dir, err)
	}
	f, err := os.CreateTemp(dir, ".tateti-lab-probe-*")
	if err != nil {
		return fmt.Errorf("--out %q cannot be written: %w", dir, err)
	}
	f.Close()
	return os.Remove(f.Name())
}

// Write writes the states and moves tables of r in each of opts.Formats, then
// the manifest, into opts.Dir. Files appear under their final names only when
// they are complete. A write error sticks in a file's buffer and is returned
// when the file is committed.
func Write(ctx context.Context, r *solve.Result, opts Options) (*Manifest, error) {
	for _, f := range opts.Formats {
		if !slices.Contains(Formats, f) {
			return nil, fmt.Errorf("format %q is unknown, want parquet or csv", f)
		}
	}
	if err := CheckDir(opts.Dir); err != nil {
		return nil, err
	}
	parquet, csv := slices.Contains(opts.Formats, "parquet"), slices.Contains(opts.Formats, "csv")
	var files []*atomicFile
	defer func() {
		for _, f := range files {
			f.abort()
		}
	}()
	open := func(name string) (*atomicFile, error) {
		f, err := createAtomic(opts.Dir, name)
		if err == nil {
			files = append(files, f)
		}
		return f, err
	}
	m := &Manifest{Tool: opts.Meta.Tool, Version: opts.Meta.Version, Game: opts.Meta.Game}
	n := r.Enum.Len()
	progress := func(table string, i int) {
		if opts.Progress != nil && (i%(1<<16) == 0 || i == n) {
			opts.Progress(table, i, n)
		}
	}

	// The states table, one pass for both formats.
	var sp, sc *atomicFile
	var spw *stateWriter
	var err error
	if parquet {
		if sp, err = open("states.parquet"); err != nil {
			return nil, err
		}
		if spw, err = newStateWriter(sp, r.Enum.Game.Spec.Cells(), opts.Meta); err != nil {
			return nil, err
		}
	}
	if csv {
		if sc, err = open("states.csv"); err != nil {
			return nil, err
		}
		sc.Write(stateHeader(r.Enum.Game.Spec.Cells()))
	}
	var s State
	var line []byte
	for i := range n {
		if i%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		state(r, i, &s)
		if spw != nil {
			if err := spw.write(&s); err != nil {
				return nil, err
			}
		}
		if sc != nil {
			line = appendState(line[:0], &s)
			sc.Write(line)
		}
		progress("states", i+1)
	}
	if spw != nil {
		if err := spw.close(); err != nil {
			return nil, err
		}
	}

	// The moves table.
	var mp, mc *atomicFile
	var mpw *moveWriter
	if parquet {
		if mp, err = open("moves.parquet"); err != nil {
			return nil, err
		}
		mpw = newMoveWriter(mp, opts.Meta)
	}
	if csv {
		if mc, err = open("moves.csv"); err != nil {
			return nil, err
		}
		mc.Write([]byte(moveHeader))
	}
	var ms []Move
	var nmoves int64
	for i := range n {
		if i%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		ms = moves(r, i, ms[:0])
		nmoves += int64(len(ms))
		if mpw != nil && len(ms) > 0 {
			if err := mpw.write(ms); err != nil {
				return nil, err
			}
		}
		if mc != nil {
			line = line[:0]
			for j := range ms {
				line = appendMove(line, &ms[j])
			}
			mc.Write(line)
		}
		progress("moves", i+1)
	}
	if mpw != nil {
		if err := mpw.close(); err != nil {
			return nil, err
		}
	}

	rows := map[string]int64{"states": int64(n), "moves": nmoves}
	for _, f := range files {
		if err := f.commit(); err != nil {
			return nil, err
		}
		table, format, _ := strings.Cut(f.name, ".")
		m.Files = append(m.Files, File{Name: f.name, Table: table, Format: format,
			Rows: rows[table], Bytes: f.size, SHA256: f.sha256()})
	}
	slices.SortFunc(m.Files, func(a, b File) int { return strings.Compare(a.Name, b.Name) })
	mf, err := open(ManifestName)
	if err != nil {
		return nil, err
	}
	enc := json.NewEncoder(mf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		return nil, err
	}
	return m, mf.commit()
}
