// Package release owns the tool's version: the one figure that tateti-lab
// prints (version, --version) and every front stamps into what it writes
// (a dataset's manifest), the command line and the Beam pipeline alike.
package release

// Version is the release of tateti-lab.
const Version = "0.1.0"
