package report

import (
	"encoding/json"
	"fmt"
	"io"
)

// JSON writes v as every command's --json prints it: indented, with a
// final newline.
func JSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// Version is what version prints: the tool, its version, and the Go
// release it was built with.
type Version struct {
	Tool    string `json:"tool"`
	Version string `json:"version"`
	Go      string `json:"go"`
}

// Text writes v on a line: "tateti-lab 0.1.0 (go1.26.8)".
func (v Version) Text(w io.Writer) error {
	_, err := fmt.Fprintf(w, "%s %s (%s)\n", v.Tool, v.Version, v.Go)
	return err
}

// Failure is the JSON object a run that fails prints with --json: the
// message also on stderr, and the exit code.
type Failure struct {
	Error string `json:"error"`
	Exit  int    `json:"exit"`
}
