// Package interrupt owns how a run hears SIGINT, SIGTERM and SIGHUP (its
// terminal gone): as the cancellation of its context, whose cause says
// which signal, so that the work stops, cleans up after itself, and the
// command exits 130.
package interrupt

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
)

// Signal is the cause of a context cancelled by a signal.
type Signal struct{ Sig os.Signal }

// Error says which signal: "interrupted by SIGINT".
func (s Signal) Error() string {
	name := s.Sig.String()
	switch s.Sig {
	case os.Interrupt:
		name = "SIGINT"
	case syscall.SIGTERM:
		name = "SIGTERM"
	case syscall.SIGHUP:
		name = "SIGHUP"
	}
	return "interrupted by " + name
}

// Context gives a context cancelled, with a Signal cause, by the first
// SIGINT, SIGTERM or SIGHUP; stop lets the signals go and cancels it.
func Context(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sigs:
			cancel(Signal{s})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel(nil)
	}
}

// By reports whether a signal cancelled ctx.
func By(ctx context.Context) bool {
	var s Signal
	return errors.As(context.Cause(ctx), &s)
}

// Open opens the file name for reading as os.Open does, in a way that the
// cancellation of ctx stops: opening a FIFO with no writer waits in the
// system until one comes, and a read from a pipe whose writer is silent
// waits for it. Open gives ctx's cause when ctx is done first; the file it
// gives is closed when ctx is done, so that a read waiting then returns an
// error at once. The caller still closes it.
func Open(ctx context.Context, name string) (*os.File, error) {
	type opened struct {
		f   *os.File
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		f, err := os.Open(name)
		ch <- opened{f, err}
	}()
	select {
	case o := <-ch:
		if o.err != nil {
			return nil, o.err
		}
		context.AfterFunc(ctx, func() { o.f.Close() })
		return o.f, nil
	case <-ctx.Done():
		go func() { // the open may still end: its file is not leaked
			if o := <-ch; o.f != nil {
				o.f.Close()
			}
		}()
		return nil, context.Cause(ctx)
	}
}
