package export

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
	"golang.org/x/sync/errgroup"
)

// Formats lists the file formats Write can produce.
var Formats = []string{"parquet", "csv"}

// Meta names the tool in the files and the manifest; the game and its rules
// come from the solved result.
type Meta struct {
	Tool    string
	Version string
}

func gameJSON(s rules.Spec) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Options say where and what Write writes.
type Options struct {
	Dir      string
	Formats  []string // a subset of Formats
	Meta     Meta
	Progress func(table string, done, total int) // called now and then, from both tables' goroutines at once; may be nil

	rowGroup int64 // rows per Parquet row group; RowGroupSize when 0 (tests make it small)
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
	Tool    string     `json:"tool"`
	Version string     `json:"version"`
	Game    rules.Spec `json:"game"`
	Files   []File     `json:"files"`
}

// ManifestName is the manifest's file name.
const ManifestName = "manifest.json"

// CheckFormats makes sure every format is one of Formats.
func CheckFormats(formats []string) error {
	for _, f := range formats {
		if !slices.Contains(Formats, f) {
			return fmt.Errorf("--format %q is unknown, want parquet, csv or parquet,csv", f)
		}
	}
	return nil
}

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
// the manifest, into opts.Dir. The two tables are written at once, each by its
// own goroutine. Files appear under their final names only when every table is
// complete. A write error sticks in a file's buffer and is returned when the
// file is committed.
func Write(ctx context.Context, r *solve.Result, opts Options) (*Manifest, error) {
	if err := CheckFormats(opts.Formats); err != nil {
		return nil, err
	}
	if err := CheckDir(opts.Dir); err != nil {
		return nil, err
	}
	var files []*atomicFile
	defer func() {
		for _, f := range files {
			f.abort()
		}
	}()
	open := func(table, format string) (*atomicFile, error) {
		if !slices.Contains(opts.Formats, format) {
			return nil, nil
		}
		f, err := createAtomic(opts.Dir, table+"."+format)
		if err == nil {
			files = append(files, f)
		}
		return f, err
	}
	var out [2][2]*atomicFile // [states, moves][parquet, csv]
	for t, table := range []string{"states", "moves"} {
		for k, format := range Formats {
			f, err := open(table, format)
			if err != nil {
				return nil, err
			}
			out[t][k] = f
		}
	}
	tw := tableWriter{r: r, meta: opts.Meta, progress: opts.Progress, rowGroup: cmp.Or(opts.rowGroup, RowGroupSize)}
	rows := map[string]int64{"states": int64(r.Enum.Len())}
	var nmoves int64
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { return tw.states(gctx, out[0][0], out[0][1]) })
	g.Go(func() (err error) {
		nmoves, err = tw.moves(gctx, out[1][0], out[1][1])
		return err
	})
	if err := g.Wait(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rows["moves"] = nmoves

	m := &Manifest{Tool: opts.Meta.Tool, Version: opts.Meta.Version, Game: r.Enum.Rules.Spec()}
	for _, f := range files {
		if err := f.commit(); err != nil {
			return nil, err
		}
		table, format, _ := strings.Cut(f.name, ".")
		m.Files = append(m.Files, File{Name: f.name, Table: table, Format: format,
			Rows: rows[table], Bytes: f.size, SHA256: f.sha256()})
	}
	slices.SortFunc(m.Files, func(a, b File) int { return strings.Compare(a.Name, b.Name) })
	mf, err := createAtomic(opts.Dir, ManifestName)
	if err != nil {
		return nil, err
	}
	files = append(files, mf)
	enc := json.NewEncoder(mf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		return nil, err
	}
	return m, mf.commit()
}

// tableWriter writes one table to its Parquet and CSV files (either may be nil).
type tableWriter struct {
	r        *solve.Result
	meta     Meta
	progress func(table string, done, total int)
	rowGroup int64
}

func (tw *tableWriter) report(table string, done int) {
	if n := tw.r.Enum.Len(); tw.progress != nil && (done%(1<<16) == 0 || done == n) {
		tw.progress(table, done, n)
	}
}

func (tw *tableWriter) states(ctx context.Context, pq, csv *atomicFile) error {
	var pw *stateWriter
	if pq != nil {
		var err error
		if pw, err = newStateWriter(pq, tw.r.Enum.Rules.Spec(), tw.meta, tw.rowGroup); err != nil {
			return err
		}
	}
	if csv != nil {
		csv.Write(stateHeader(tw.r.Enum.Rules.Spec().Cells()))
	}
	var s State
	var line []byte
	for i := range tw.r.Enum.Len() {
		if i%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		state(tw.r, i, &s)
		if pw != nil {
			if err := pw.write(&s); err != nil {
				return err
			}
		}
		if csv != nil {
			line = appendState(line[:0], &s)
			csv.Write(line)
		}
		tw.report("states", i+1)
	}
	if pw != nil {
		return pw.close()
	}
	return nil
}

func (tw *tableWriter) moves(ctx context.Context, pq, csv *atomicFile) (int64, error) {
	spec := tw.r.Enum.Rules.Spec()
	var pw moveWriter
	if pq != nil {
		pw = newMoveWriter(pq, spec, tw.meta, tw.rowGroup)
	}
	gravity := spec.Gravity
	if csv != nil {
		csv.Write(moveHeader(gravity))
	}
	var ms []Move
	var buf []solve.Move
	var line []byte
	var n int64
	for i := range tw.r.Enum.Len() {
		if i%4096 == 0 && ctx.Err() != nil {
			return 0, ctx.Err()
		}
		ms, buf = moves(tw.r, i, ms[:0], buf)
		n += int64(len(ms))
		if pw != nil {
			if err := pw.write(ms); err != nil {
				return 0, err
			}
		}
		if csv != nil {
			line = line[:0]
			for j := range ms {
				line = appendMove(line, &ms[j], gravity)
			}
			csv.Write(line)
		}
		tw.report("moves", i+1)
	}
	if pw != nil {
		return n, pw.close()
	}
	return n, nil
}
