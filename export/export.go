package export

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/parquet-go/parquet-go"
	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/internal/atomicfile"
	"github.com/tateti-lab/tateti-lab/internal/gc"
	"github.com/tateti-lab/tateti-lab/internal/lazyregexp"
	"github.com/tateti-lab/tateti-lab/internal/par"
	"github.com/tateti-lab/tateti-lab/internal/progress"
	"github.com/tateti-lab/tateti-lab/rules"
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

// A Target is a folder checked to receive a dataset, and the file formats
// to write there. NewTarget is the one way to make one outside this
// package, so Write writes only where and as its checks allowed, and runs
// them no more.
type Target struct {
	dir     string
	formats []string
}

// NewTarget checks, before any work, that formats names at least one of
// Formats and none other, and that dir can receive a dataset: a folder a
// dataset can replace (atomicfile.CheckFolder), holding no database, and
// the files an export replaces or drops there (ours) an earlier
// dataset's, a manifest.json an export wrote, or none of them. A wrong
// format is a *FormatError.
func NewTarget(dir string, formats []string) (Target, error) {
	if err := checkFormats(formats); err != nil {
		return Target{}, err
	}
	if err := checkFolder(dir); err != nil {
		return Target{}, err
	}
	return Target{dir: dir, formats: slices.Clone(formats)}, nil
}

// Options say where and what Write writes.
type Options struct {
	Target  Target // from NewTarget
	Meta    Meta
	Workers int // goroutines building each table's chunks; GOMAXPROCS when 0
	// Committed, when not nil, is called once the dataset is committed:
	// a chosen set's batch lets its journal of answers go (oracle.Batch.Done).
	Committed func() error
	// Estimated, when not nil, has Write estimate the dataset's size first
	// (EstimateOf) and hand it over, to be said, then refuse to write what
	// the disk has no room for (Estimate.Check).
	Estimated func(Estimate)

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

// Format names a dataset's manifest's kind, whichever front wrote it: the
// export, or the Beam pipeline (Tool says which).
const Format = "tateti-lab dataset"

// Manifest lists what an export wrote. It is written as manifest.json.
type Manifest struct {
	Format  string     `json:"format"` // Format
	Tool    string     `json:"tool"`
	Version string     `json:"version"`
	Game    rules.Spec `json:"game"`
	// Positions, for a dataset of chosen positions, says which are in;
	// absent when the dataset holds every reachable position.
	Positions *Chosen `json:"positions,omitempty"`
	// Figures count the states table's rows by ply and value.
	Figures *Figures `json:"figures"`
	Files   []File   `json:"files"`
	Tables  []Table  `json:"tables"` // the schema of each table, with its keys
}

// Unsettled gives the number of chosen positions left out of the tables,
// not settled within the time limit: 0 for a whole game's dataset.
func (m *Manifest) Unsettled() int {
	if m.Positions == nil {
		return 0
	}
	return len(m.Positions.Unsettled)
}

// ManifestName is the manifest's file name.
const ManifestName = "manifest.json"

// ours matches the files a dataset of this tool holds, and the temporary
// names earlier versions of the tool wrote inside the target: the files a new
// export replaces or drops, where any other file is kept.
var ours = lazyregexp.New(`^((states|moves)\.(parquet|csv)|manifest\.json|\.(states|moves)\.(parquet|csv)\.tmp-.*|\.manifest\.json\.tmp-.*|\.tateti-lab-probe-.*)$`)

// checkFolder is NewTarget's check of the folder dir.
func checkFolder(dir string) error {
	if err := atomicfile.CheckFolder(dir); err != nil {
		return err
	}
	if db.IsDatabase(dir) {
		return fmt.Errorf("folder %q holds a database (db build writes one), whose manifest a dataset would replace; name another folder", dir)
	}
	data, err := os.ReadFile(filepath.Join(dir, ManifestName))
	if err == nil {
		if !isDataset(data) {
			return fmt.Errorf("folder %q holds a %s that no export of tateti-lab wrote, which a dataset would replace; move it, or name another folder", dir, ManifestName)
		}
		return nil
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if ours.MatchString(e.Name()) && !strings.HasPrefix(e.Name(), ".") {
			return fmt.Errorf("folder %q holds %s but no dataset's %s: it is not an export's, and a dataset would replace it; move it, or name another folder", dir, e.Name(), ManifestName)
		}
	}
	return nil
}

// isDataset reports whether data is a dataset's manifest, of any version:
// its format says so, or, written before manifests had one, its tool is
// one of tateti-lab's fronts; and it lists files and tables.
func isDataset(data []byte) bool {
	var m struct {
		Format, Tool  string
		Files, Tables []json.RawMessage
	}
	if json.Unmarshal(data, &m) != nil || len(m.Files) == 0 || len(m.Tables) == 0 {
		return false
	}
	return m.Format == Format || m.Format == "" && (m.Tool == "tateti-lab" || m.Tool == "tateti-beam")
}

// A FormatError says that the file formats NewTarget was given are
// none, or one it does not know.
type FormatError struct{ msg string }

func (e *FormatError) Error() string { return e.msg }

// checkFormats is NewTarget's check of the formats.
func checkFormats(formats []string) error {
	if len(formats) == 0 {
		return &FormatError{"no file format named, want parquet, csv or both (parquet,csv)"}
	}
	for _, f := range formats {
		if !slices.Contains(Formats, f) {
			return &FormatError{fmt.Sprintf("file format %q is unknown, want parquet, csv or both (parquet,csv)", f)}
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
	// Card names the data card written beside the tables (CardName), ""
	// where the folder keeps a README.md of its user's.
	Card string `json:"card,omitempty"`
}

// Policy is what the collector is asked for during an export: the export
// holds the solved game while it streams the tables, and a heap collected
// at half the live data again, not Go's default of twice, keeps the peak
// near the game's size (docs/performance.md).
var Policy = gc.Policy{Percent: 50}

// Write writes the states and moves tables of src in each of the
// target's formats, the manifest, and the data card (Card) unless the
// folder holds a README.md that no export wrote (a user's, kept), as one
// new generation of the dataset in the target's folder: the files are
// written into a staging folder beside it, which then replaces the folder
// whole (see staging). The two tables are written at once, each by its own
// goroutine. On an error or a cancelled ctx the earlier dataset stays as
// it was and nothing of the new one is left.
func Write(ctx context.Context, src Source, opts Options) (*Written, error) {
	if opts.Target.dir == "" {
		return nil, fmt.Errorf("no folder to write the dataset into: make its Target with NewTarget")
	}
	if opts.Estimated != nil {
		est, err := EstimateOf(ctx, src, opts.Target.formats, opts.Target.dir, opts.Workers)
		if err != nil {
			return nil, err
		}
		opts.Estimated(est)
		if err := est.Check(opts.Target.dir); err != nil {
			return nil, err
		}
	}
	return writeDataset(ctx, src, opts)
}

// writeDataset is Write of a checked folder and formats, its estimate done: the
// dataset itself.
func writeDataset(ctx context.Context, src Source, opts Options) (*Written, error) {
	card := ownCard(opts.Target.dir)
	st, err := atomicfile.NewDataset(opts.Target.dir, func(name string) bool { return ours.MatchString(name) || card && name == CardName })
	if err != nil {
		return nil, err
	}
	defer st.Abort()
	m, err := writeFiles(ctx, src, opts, st)
	if err != nil {
		return nil, err
	}
	if card {
		if err := writeCard(st, m, opts.wrap); err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	dropped, err := st.Commit()
	if err != nil {
		return nil, err
	}
	if opts.Committed != nil {
		if err := opts.Committed(); err != nil {
			return nil, err
		}
	}
	w := &Written{Manifest: m, Dropped: dropped}
	if card {
		w.Card = CardName
	}
	return w, nil
}

// writeCard writes the data card of m (Card) into the new generation st.
func writeCard(st *atomicfile.Dataset, m *Manifest, wrap func(string, io.Writer) io.Writer) error {
	f, err := st.Create(CardName, wrap)
	if err != nil {
		return err
	}
	_, err = f.Write(Card(m))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeFiles writes the tables and the manifest into the new generation st.
func writeFiles(ctx context.Context, src Source, opts Options, st *atomicfile.Dataset) (*Manifest, error) {
	var files []*atomicfile.File
	var out [2][2]*atomicfile.File // [states, moves][parquet, csv]
	for t, table := range []string{"states", "moves"} {
		for k, format := range Formats {
			if !slices.Contains(opts.Target.formats, format) {
				continue
			}
			f, err := st.Create(table+"."+format, opts.wrap)
			if err != nil {
				for _, f := range files {
					f.Abandon()
				}
				return nil, err
			}
			files, out[t][k] = append(files, f), f
		}
	}
	tw := tableWriter{src: src, meta: opts.Meta, done: map[string]int{}, rowGroup: cmp.Or(opts.rowGroup, RowGroupSize),
		workers: cmp.Or(opts.Workers, runtime.GOMAXPROCS(0)), sum: newSummer(src.shape().chosen)}
	var nStates, nMoves int64 // each written by its own goroutine
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) {
		nStates, err = tw.states(gctx, out[0][0], out[0][1])
		return err
	})
	g.Go(func() (err error) {
		nMoves, err = tw.moves(gctx, out[1][0], out[1][1])
		return err
	})
	err := g.Wait()
	rows := map[string]int64{"states": nStates, "moves": nMoves}
	for _, f := range files {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return nil, err
	}
	m := manifestOf(src, opts.Meta, tw.sum.figures(), files, rows)
	mf, err := st.Create(ManifestName, opts.wrap)
	if err != nil {
		return nil, err
	}
	enc := json.NewEncoder(mf)
	enc.SetIndent("", "  ")
	err = enc.Encode(m)
	if cerr := mf.Close(); err == nil {
		err = cerr
	}
	return m, err
}

// manifestOf gives the manifest of the dataset of src whose tables were
// written to files, rows a table.
func manifestOf(src Source, meta Meta, figures *Figures, files []*atomicfile.File, rows map[string]int64) *Manifest {
	sh := src.shape()
	m := &Manifest{Format: Format, Tool: meta.Tool, Version: meta.Version, Game: sh.game, Positions: src.chosen(),
		Figures: figures, Tables: sh.tables()}
	for _, f := range files {
		table, format, _ := strings.Cut(f.Name(), ".")
		m.Files = append(m.Files, File{Name: f.Name(), Table: table, Format: format,
			Rows: rows[table], Bytes: f.Size(), SHA256: f.SHA256()})
	}
	slices.SortFunc(m.Files, func(a, b File) int { return strings.Compare(a.Name, b.Name) })
	return m
}

// tableWriter writes one table to its Parquet and CSV files (either may be
// nil), chunk by chunk: chunks are built on up to workers goroutines and
// written in order.
type tableWriter struct {
	src      Source
	meta     Meta
	rowGroup int64
	workers  int
	mu       sync.Mutex     // guards done: both tables are written at once
	done     map[string]int // the positions each table has written
	sum      *summer        // the states table's figures, summed in order
}

// report tells the context's progress (internal/progress) that table has
// written the rows of its first done positions.
func (tw *tableWriter) report(ctx context.Context, table string, done int) {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	tw.done[table] = done
	total := tw.src.len()
	progress.Tell(ctx, "export", fmt.Sprintf("the states of %d of %d positions written, their moves of %d", tw.done["states"], total, tw.done["moves"]))
}

// table is what write needs to know of one table.
type table struct {
	name   string
	chunks []chunk
	header []byte
	// csvBytes sizes a chunk's CSV buffer once.
	csvBytes func(c chunk) int
	// filler gives a function that adds the rows of positions [lo, hi) to
	// the piece p: its CSV lines when it has a CSV buffer, its Parquet rows
	// when the table has a Parquet file, into a row group the filler begins
	// in p's Parquet buffer.
	// Each chunk gets its own, with its own scratch space.
	filler func(p *piece) func(lo, hi int) error
}

// write writes the chunks of t: each is built in batches of batchRows
// positions on up to workers goroutines, and written in order.
func (tw *tableWriter) write(ctx context.Context, t table, pq, csv *atomicfile.File) (int64, error) {
	var pw *parquet.GenericWriter[any]
	if pq != nil {
		pw = newParquet(pq, tw.src.shape(), tw.meta, t.name)
	}
	if csv != nil {
		csv.Write(t.header)
	}
	var rows int64
	spareCSV, spareParquet := make(spareBuffers, tw.workers+2), make(spareBuffers, tw.workers+2) // as many as can be in flight
	err := par.InOrder(ctx, len(t.chunks), tw.workers, func(ctx context.Context, k int) (*piece, error) {
		c, p := t.chunks[k], &piece{}
		if pw != nil {
			p.pq = spareParquet.get(0)
		}
		if csv != nil {
			p.csv = spareCSV.get(t.csvBytes(c))
		}
		fill := t.filler(p)
		for lo := c.lo; lo < c.hi; lo += batchRows {
			if err := fill(lo, min(lo+batchRows, c.hi)); err != nil {
				return nil, err
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if p.end != nil {
			var err error
			if p.pq, err = p.end(); err != nil {
				return nil, err
			}
		}
		return p, nil
	}, func(k int, p *piece) error {
		if pw != nil {
			if err := appendGroup(pw, p.pq); err != nil {
				return err
			}
			spareParquet.put(p.pq)
		}
		if csv != nil {
			csv.Write(p.csv)
			spareCSV.put(p.csv)
		}
		rows += p.rows
		if t.name == "states" {
			tw.sum.add(&p.tally)
		}
		tw.report(ctx, t.name, t.chunks[k].hi)
		return nil
	})
	if err != nil {
		return 0, err
	}
	if pw != nil {
		return rows, pw.Close()
	}
	return rows, nil
}

func (tw *tableWriter) states(ctx context.Context, pq, csv *atomicfile.File) (int64, error) {
	spec := tw.src.shape().game
	cols := stateCols(tw.src.shape())
	var groups *groupWriters[stateRecord]
	if pq != nil {
		groups = newGroupWriters[stateRecord](tw.src.shape(), tw.meta, "states", tw.workers)
	}
	return tw.write(ctx, table{
		name: "states", chunks: stateChunks(tw.src.len(), tw.rowGroup), header: csvHeader(cols),
		csvBytes: func(c chunk) int { return (c.hi - c.lo) * csvLineBytes(spec.Cells()) },
		filler: func(p *piece) func(lo, hi int) error {
			batch := make([]State, batchRows)
			sm := tw.src.rows()
			lines := &csvLines[State]{cols: cols}
			var g *group[stateRecord]
			var recs []stateRecord
			if groups != nil {
				g, recs = groups.begin(p.pq), make([]stateRecord, batchRows)
				p.end = g.end
			}
			return func(lo, hi int) error {
				ss := batch[:hi-lo]
				for k := range ss {
					sm.state(lo+k, &ss[k])
				}
				if err := sm.failed(); err != nil {
					return err // before a row that was not made is written
				}
				if p.csv != nil {
					for k := range ss {
						p.csv = lines.appendRow(p.csv, &ss[k])
					}
				}
				p.rows += int64(len(ss))
				for k := range ss {
					p.tally.count(&ss[k], tw.src.shape())
				}
				if g == nil {
					return nil
				}
				for k := range ss {
					recs[k].from(&ss[k])
				}
				return g.write(recs[:len(ss)])
			}
		},
	}, pq, csv)
}

func (tw *tableWriter) moves(ctx context.Context, pq, csv *atomicfile.File) (int64, error) {
	cols := moveCols(tw.src.shape())
	var groups *groupWriters[Move]
	if pq != nil {
		groups = newGroupWriters[Move](tw.src.shape(), tw.meta, "moves", tw.workers)
	}
	return tw.write(ctx, table{
		name: "moves", chunks: moveChunks(tw.src, tw.rowGroup), header: csvHeader(cols),
		csvBytes: func(chunk) int { return int(tw.rowGroup) * 32 }, // a line of moves.csv is 20 to 32 bytes
		filler: func(p *piece) func(lo, hi int) error {
			var ms []Move
			mm := tw.src.rows()
			lines := &csvLines[Move]{cols: cols}
			var g *group[Move]
			if groups != nil {
				g = groups.begin(p.pq)
				p.end = g.end
			}
			return func(lo, hi int) error {
				ms = ms[:0]
				for i := lo; i < hi; i++ {
					ms = mm.moves(i, ms)
				}
				if err := mm.failed(); err != nil {
					return err
				}
				if p.csv != nil {
					for j := range ms {
						p.csv = lines.appendRow(p.csv, &ms[j])
					}
				}
				p.rows += int64(len(ms))
				if g == nil {
					return nil
				}
				return g.write(ms)
			}
		},
	}, pq, csv)
}
