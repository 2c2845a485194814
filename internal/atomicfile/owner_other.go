//go:build !unix

package atomicfile

import (
	"io/fs"
	"os"
)

// keepOwner has nothing to keep here.
func keepOwner(*os.File, fs.FileInfo) {}
