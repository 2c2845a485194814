//go:build !unix

package atomicfile

import (
	"io/fs"
	"os"
)

// keepOwner has nothing to keep here.
func keepOwner(*os.File, fs.FileInfo) {}

// mountPoint cannot tell here, and says no.
func mountPoint(string) bool { return false }

// writable cannot tell here, and says yes.
func writable(string) bool { return true }
