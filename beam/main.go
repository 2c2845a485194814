// Command tateti-beam solves a whole game of tateti-lab tier by tier as an
// Apache Beam pipeline, into the same database `tateti-lab db build DIR`
// writes on one machine, byte for byte: the tier tasks of package tier run
// as the engine schedules them, locally on Prism, Beam's embedded runner,
// by default, or on any runner Beam's Go SDK reaches (--runner flink,
// spark, dataflow, universal). docs/beam.md says how.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/tateti-lab/tateti-lab/perfect"
)

func main() {
	registerFns()
	o := options{}
	o.bind(flag.CommandLine)
	flag.Parse()
	beam.Init() // on a cluster's worker, it runs the worker and does not return
	if err := o.check(); err != nil {
		fmt.Fprintln(os.Stderr, "tateti-beam:", err)
		os.Exit(2)
	}
	if err := run(context.Background(), o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "tateti-beam:", err)
		os.Exit(1)
	}
}

// finished writes what a finished database holds, in one line.
func finished(w io.Writer, store string, positions int64, value perfect.Value, depth perfect.Depth) {
	fmt.Fprintf(w, "%s: %d positions; the empty board's value %d for X, depth %d\n", store, positions, value, depth)
}
