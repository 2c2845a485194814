// Command tateti-beam solves a whole game of tateti-lab tier by tier as an
// Apache Beam pipeline, into the same database `tateti-lab db build DIR`
// writes on one machine, byte for byte: the tier tasks of package tier run
// as the engine schedules them, locally on Prism, Beam's embedded runner,
// by default, or on any runner Beam's Go SDK reaches (--runner flink,
// spark, dataflow, universal). With --positions FILE it labels a positions
// file instead, each position a task, into the dataset `tateti-lab export
// --positions FILE` writes; with --sample N it draws the positions first,
// games side by side, into the dataset `tateti-lab export --sample N`
// writes. docs/beam.md says how.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := runPrivate(ctx, o, os.Stdout)
	interrupted := ctx.Err() != nil
	stop()
	switch {
	case interrupted:
		fmt.Fprintln(os.Stderr, "tateti-beam: interrupted; run it again to resume")
		os.Exit(130)
	case err != nil:
		fmt.Fprintln(os.Stderr, "tateti-beam:", err)
		os.Exit(1)
	}
}

// runPrivate is run with a temporary folder of the run's own, removed
// after it (privateTemp).
func runPrivate(ctx context.Context, o options, w io.Writer) error {
	cleanup, err := privateTemp()
	if err != nil {
		return err
	}
	defer cleanup()
	if o.labels != nil {
		return runLabel(ctx, *o.labels, w)
	}
	return run(ctx, o, w)
}

// privateTemp points the process's temporary folder (TMPDIR) at a new one
// of its own and gives the function that removes it and points TMPDIR
// back: Beam's Go SDK leaves an empty file in the temporary folder on
// every run in loopback mode, as on Prism (apache/beam issue 27569).
func privateTemp() (func(), error) {
	dir, err := os.MkdirTemp("", "tateti-beam-")
	if err != nil {
		return nil, fmt.Errorf("a temporary folder for the run: %w", err)
	}
	old, had := os.LookupEnv("TMPDIR")
	os.Setenv("TMPDIR", dir)
	return func() {
		if had {
			os.Setenv("TMPDIR", old)
		} else {
			os.Unsetenv("TMPDIR")
		}
		os.RemoveAll(dir)
	}, nil
}

// finished writes what a finished database holds, in one line.
func finished(w io.Writer, store string, positions int64, value perfect.Value, depth perfect.Depth) {
	fmt.Fprintf(w, "%s: %d positions; the empty board's value %d for X, depth %d\n", store, positions, value, depth)
}
