package export

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
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

	rowGroup int64                                    // rows per Parquet row group; RowGroupSize when 0 (tests make it small)
	wrap     func(name string, w io.Writer) io.Writer // stands between each file and its buffer (tests inject failures)
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
	Tables  []Table    `json:"tables"` // the schema of each table, with its keys
}

// ManifestName is the manifest's file name.
const ManifestName = "manifest.json"

// CheckFormats makes sure formats names at least one format, each one of
// Formats.
func CheckFormats(formats []string) error {
	if len(formats) == 0 {
		return fmt.Errorf("no file format named, want parquet, csv or both (parquet,csv)")
	}
	for _, f := range formats {
		if !slices.Contains(Formats, f) {
			return fmt.Errorf("file format %q is unknown, want parquet, csv or both (parquet,csv)", f)
		}
	}
	return nil
}

// Written is what Write did: the manifest of the new dataset, and the files
// of the earlier dataset in the folder that the new one does not have (they
// are gone with it).
type Written struct {
	*Manifest
	Dropped []string `json:"dropped,omitempty"`
}

// Write writes the states and moves tables of r in each of opts.Formats, and
// the manifest, as one new generation of the dataset in opts.Dir: the files
// are written into a staging folder beside it, which then replaces the folder
// whole (see staging). The two tables are written at once, each by its own
// goroutine. On an error or a cancelled ctx the earlier dataset stays as it
// was and nothing of the new one is left.
func Write(ctx context.Context, r *solve.Result, opts Options) (*Written, error) {
	if err := CheckFormats(opts.Formats); err != nil {
		return nil, err
	}
	if err := CheckTarget(opts.Dir); err != nil {
		return nil, err
	}
	st, err := newStaging(opts.Dir)
	if err != nil {
		return nil, err
	}
	defer st.abort()
	m, err := writeFiles(ctx, r, opts, st.dir)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	dropped, err := st.commit()
	if err != nil {
		return nil, err
	}
	return &Written{Manifest: m, Dropped: dropped}, nil
}

// writeFiles writes the tables and the manifest into dir.
func writeFiles(ctx context.Context, r *solve.Result, opts Options, dir string) (*Manifest, error) {
	var files []*stagedFile
	var out [2][2]*stagedFile // [states, moves][parquet, csv]
	for t, table := range []string{"states", "moves"} {
		for k, format := range Formats {
			if !slices.Contains(opts.Formats, format) {
				continue
			}
			f, err := createStaged(dir, table+"."+format, opts.wrap)
			if err != nil {
				return nil, err
			}
			files, out[t][k] = append(files, f), f
		}
	}
	tw := tableWriter{r: r, meta: opts.Meta, progress: opts.Progress, rowGroup: cmp.Or(opts.rowGroup, RowGroupSize)}
	rows := map[string]int64{"states": int64(r.Enum.Len())}
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { return tw.states(gctx, out[0][0], out[0][1]) })
	g.Go(func() (err error) {
		rows["moves"], err = tw.moves(gctx, out[1][0], out[1][1])
		return err
	})
	err := g.Wait()
	for _, f := range files {
		if cerr := f.close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return nil, err
	}
	m := &Manifest{Tool: opts.Meta.Tool, Version: opts.Meta.Version, Game: r.Enum.Rules.Spec(), Tables: Schema(r.Enum.Rules.Spec())}
	for _, f := range files {
		table, format, _ := strings.Cut(f.name, ".")
		m.Files = append(m.Files, File{Name: f.name, Table: table, Format: format,
			Rows: rows[table], Bytes: f.size, SHA256: f.sha256()})
	}
	slices.SortFunc(m.Files, func(a, b File) int { return strings.Compare(a.Name, b.Name) })
	mf, err := createStaged(dir, ManifestName, opts.wrap)
	if err != nil {
		return nil, err
	}
	enc := json.NewEncoder(mf)
	enc.SetIndent("", "  ")
	err = enc.Encode(m)
	if cerr := mf.close(); err == nil {
		err = cerr
	}
	return m, err
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

func (tw *tableWriter) states(ctx context.Context, pq, csv *stagedFile) error {
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

func (tw *tableWriter) moves(ctx context.Context, pq, csv *stagedFile) (int64, error) {
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
