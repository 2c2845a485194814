package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// A dataset is written as a unit: every file of a new generation goes into a
// private staging folder beside the target folder, and the two folders are
// swapped in one atomic exchange (two renames where the system has no
// exchange), so that a reader sees the old dataset or the new one, never a
// mix. Files in the target that are not the tool's (a README, say) are carried
// over by hard links; a subfolder in the target is refused up front. A staging
// folder left by a run that was killed outright is removed by the next export
// beside the same target once its process is gone.

// StagingInfix marks a staging folder: .<target>.tateti-export-<pid>-<random>.
const StagingInfix = ".tateti-export-"

// CheckFolder makes sure dir can receive a dataset, before any work: it is
// a folder or does not exist yet, is not the current folder, nor a mount
// point, and can be changed; it holds regular files only (it is swapped
// whole, and only files are carried over: no subfolder, link or pipe); and
// its parent folder can be written.
func CheckFolder(dir string) error {
	abs, err := realFolder(dir)
	if err != nil {
		return fmt.Errorf("folder %q: %w", dir, err)
	}
	if wd, err := os.Getwd(); err == nil && wd == abs {
		return fmt.Errorf("folder %q is the current folder; name a folder for the dataset, such as data", dir)
	}
	entries, err := os.ReadDir(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		if fi, serr := os.Stat(abs); serr == nil && !fi.IsDir() {
			return fmt.Errorf("folder %q is a file; name a folder (it is created if missing)", dir)
		}
		return fmt.Errorf("folder %q cannot be made or read: %w", dir, err)
	}
	if err == nil {
		if err := checkEntries(dir, abs, entries); err != nil {
			return err
		}
	}
	parent := filepath.Dir(abs)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("folder %q cannot be made: %w", dir, err)
	}
	probe, err := os.MkdirTemp(parent, "."+filepath.Base(abs)+StagingInfix+"probe-")
	if err != nil {
		return fmt.Errorf("folder %q cannot be written beside: %w", dir, err)
	}
	return os.Remove(probe)
}

// checkEntries says why the folder dir (abs, whose entries these are)
// cannot be replaced whole, if it cannot.
func checkEntries(dir, abs string, entries []fs.DirEntry) error {
	if mountPoint(abs) {
		return fmt.Errorf("folder %q is a mount point, which a rename cannot replace; name a folder inside it", dir)
	}
	if !writable(abs) {
		return fmt.Errorf("folder %q cannot be changed by this user; make it writable (chmod u+w), or name another folder", dir)
	}
	for _, e := range entries {
		switch {
		case e.IsDir():
			return fmt.Errorf("folder %q holds the folder %q; a dataset folder is replaced whole, so name a folder that holds only files", dir, e.Name())
		case !e.Type().IsRegular():
			return fmt.Errorf("folder %q holds %q, which is not a regular file (a link, a pipe); a dataset folder is replaced whole and only files are carried over: move it out, or name another folder", dir, e.Name())
		}
	}
	return nil
}

// Dataset is a new generation of the dataset of target, being written.
type Dataset struct {
	target string // the dataset's folder, absolute
	dir    string // the staging folder beside it
	// ours reports whether a file of the target is the writer's: one the
	// new generation replaces (or drops), rather than carries over.
	ours func(name string) bool
}

// Create creates the file name in the new generation; wrap, if not nil,
// stands between the file's buffer and the file (tests inject failures).
func (s *Dataset) Create(name string, wrap func(name string, w io.Writer) io.Writer) (*File, error) {
	return create(s.dir, name, wrap)
}

// NewDataset removes the staging folders of dead runs beside target and
// makes a fresh one for a new generation of its dataset; ours names the
// files of the target that are the writer's (see Dataset).
func NewDataset(target string, ours func(name string) bool) (*Dataset, error) {
	abs, err := realFolder(target)
	if err != nil {
		return nil, err
	}
	parent, base := filepath.Dir(abs), filepath.Base(abs)
	removeStale(parent, base)
	dir, err := mkdirBeside(parent, "."+base+StagingInfix+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return nil, fmt.Errorf("cannot write beside folder %q: %w", target, err)
	}
	// The new generation keeps the folder's mode; a new folder has 0777
	// less the umask, as mkdir gives it.
	if fi, err := os.Stat(abs); err == nil {
		if err := os.Chmod(dir, fi.Mode().Perm()); err != nil {
			os.Remove(dir)
			return nil, err
		}
	}
	return &Dataset{target: abs, dir: dir, ours: ours}, nil
}

// realFolder gives the absolute path of the folder target names, through any
// symbolic links: the folder a dataset replaces is the one a link points to,
// and the link stays.
func realFolder(target string) (string, error) {
	abs, err := filepath.Abs(target)
	if err != nil {
		return "", err
	}
	if abs, err = resolve(abs); err != nil {
		return "", err
	}
	return filepath.Abs(abs)
}

// mkdirBeside makes a new folder in parent whose name starts with prefix,
// with mode 0777 less the umask.
func mkdirBeside(parent, prefix string) (string, error) {
	for {
		dir := filepath.Join(parent, prefix+strconv.FormatUint(rand.Uint64(), 36))
		err := os.Mkdir(dir, 0o777)
		if !errors.Is(err, fs.ErrExist) {
			return dir, err
		}
	}
}

// removeStale removes the staging folders of base in parent whose process
// has ended.
func removeStale(parent, base string) {
	entries, _ := os.ReadDir(parent)
	prefix := "." + base + StagingInfix
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || !e.IsDir() {
			continue
		}
		pidText, _, _ := strings.Cut(rest, "-")
		if pid, err := strconv.Atoi(pidText); err == nil && !processAlive(pid) {
			os.RemoveAll(filepath.Join(parent, e.Name()))
		}
	}
}

// Commit carries the target's other files over, swaps the staging folder in
// as the target, and removes the old generation. It gives the files of the
// earlier dataset that the new one does not have.
func (s *Dataset) Commit() (dropped []string, err error) {
	fresh, err := names(s.dir)
	if err != nil {
		return nil, err
	}
	old, err := os.ReadDir(s.target)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	for _, e := range old {
		name := e.Name()
		switch {
		case s.ours(name):
			if !strings.HasPrefix(name, ".") && !slices.Contains(fresh, name) {
				dropped = append(dropped, name)
			}
		case e.Type().IsRegular():
			if err := os.Link(filepath.Join(s.target, name), filepath.Join(s.dir, name)); err != nil {
				return nil, fmt.Errorf("cannot keep %s in the new dataset: %w", name, err)
			}
		default:
			return nil, fmt.Errorf("folder %q holds %q, which is not a file; a dataset folder is replaced whole", s.target, name)
		}
	}
	if err := syncDir(s.dir); err != nil {
		return nil, err
	}
	if err := swapIn(s.dir, s.target); err != nil {
		return nil, err
	}
	os.RemoveAll(s.dir) // the old generation, if there was one
	return dropped, syncDir(filepath.Dir(s.target))
}

// swapIn makes the folder staged the target: one atomic exchange where the
// system has it, else the target moved aside and the staged folder renamed
// in (a moment with no dataset, never a mixed one). The old generation, if
// any, ends up at staged.
func swapIn(staged, target string) error {
	if _, err := os.Lstat(target); errors.Is(err, fs.ErrNotExist) {
		return os.Rename(staged, target)
	}
	if err := exchange(staged, target); err == nil {
		return nil
	}
	aside := staged + ".old"
	if err := os.Rename(target, aside); err != nil {
		return fmt.Errorf("cannot replace folder %q: %w", target, err)
	}
	if err := os.Rename(staged, target); err != nil {
		os.Rename(aside, target)
		return fmt.Errorf("cannot replace folder %q: %w", target, err)
	}
	return os.Rename(aside, staged)
}

// Abort removes the staging folder; it is safe after commit.
func (s *Dataset) Abort() { os.RemoveAll(s.dir) }

func names(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	out := make([]string, 0, len(entries))
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out, err
}

func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}
