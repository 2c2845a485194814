package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/tateti-lab/tateti-lab/internal/atomicfile"
	"github.com/tateti-lab/tateti-lab/internal/lazyregexp"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/view"
)

// pictureName matches the files WritePictures writes: the folder's other
// files are kept.
var pictureName = lazyregexp.New(`^position-[0-9]+\.svg$`)

// PictureName is the file name of the k-th (from 1) of n pictures:
// position-001.svg, numbered with as many digits as n has.
func PictureName(k, n int) string {
	return fmt.Sprintf("position-%0*d.svg", len(fmt.Sprint(n)), k)
}

// WritePicture draws p as SVG into the file path, which appears complete
// or not at all, or with path "-" onto out.
func WritePicture(path string, out io.Writer, p view.Position) error {
	var svg bytes.Buffer
	if err := SVG(&svg, p); err != nil {
		return err
	}
	if path == "-" {
		_, err := out.Write(svg.Bytes())
		return err
	}
	return atomicfile.Write(path, svg.Bytes())
}

// Positions gives the view of each of as (NewPosition), in order.
func Positions(as []perfect.Analysis) []view.Position {
	ps := make([]view.Position, len(as))
	for i, a := range as {
		ps[i] = view.NewPosition(a)
	}
	return ps
}

// WritePictures draws each of ps as SVG into the folder dir, named by
// PictureName in their order, as one unit (atomicfile.Dataset): the folder
// holds the earlier pictures or the new ones, never a mix, and its other
// files are kept. It gives the earlier pictures the new ones do not replace,
// which are gone.
func WritePictures(dir string, ps []view.Position) ([]string, error) {
	ds, err := atomicfile.NewDataset(dir, pictureName.MatchString)
	if err != nil {
		return nil, err
	}
	defer ds.Abort()
	for k, p := range ps {
		var svg bytes.Buffer
		if err := SVG(&svg, p); err != nil {
			return nil, err
		}
		f, err := ds.Create(PictureName(k+1, len(ps)), nil)
		if err != nil {
			return nil, err
		}
		_, err = f.Write(svg.Bytes())
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, err
		}
	}
	return ds.Commit()
}

// Pictures says what WritePictures wrote into dir: a line a picture, its
// file and its position, and the earlier pictures dropped.
func Pictures(w io.Writer, dir string, ps []view.Position, dropped []string, by perfect.Answered) {
	fmt.Fprintf(w, "wrote %d pictures into %s, answered by %s\n", len(ps), dir, by)
	for k, p := range ps {
		fmt.Fprintf(w, "  %s  %s  %s\n", PictureName(k+1, len(ps)), p.Board, p.Outcome)
	}
	if len(dropped) > 0 {
		fmt.Fprintf(w, "the earlier pictures %s are gone\n", strings.Join(dropped, ", "))
	}
}

// Rendered says on w that one position's picture went into file, and who
// answered it.
func Rendered(w io.Writer, file string, by perfect.Answered) {
	fmt.Fprintf(w, "wrote %s, answered by %s\n", file, by)
}
