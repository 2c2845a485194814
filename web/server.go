package web

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/tateti-lab/tateti-lab/game"
)

// The server's limits: how long a client may take to send a request and to
// read the answer, how long an idle keep-alive connection is kept, and the
// most header bytes read.
const (
	readTimeout    = 10 * time.Second
	writeTimeout   = 60 * time.Second
	idleTimeout    = 60 * time.Second
	maxHeaderBytes = 16 << 10
	shutdownWait   = 5 * time.Second // for the requests in flight once told to stop
)

// NewServer gives the server of the explorer x on ln: the Handler
// behind security headers and a check of the Host a request names, with
// timeouts on reading, writing and idle connections.
func NewServer(x *Explorer, ln net.Listener) *http.Server {
	return &http.Server{
		Handler:           guard(Handler(x), Hosts(ln.Addr())),
		ReadHeaderTimeout: readTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
	}
}

// Serve serves srv on ln until ctx is done, then shuts it down, the
// requests in flight given shutdownWait to end: a server's normal end,
// nil. An error of serving or of the shutdown comes back.
func Serve(ctx context.Context, srv *http.Server, ln net.Listener) error {
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), shutdownWait)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Loopback reports whether addr is on the loopback network only, where no
// other machine reaches it.
func Loopback(addr net.Addr) bool {
	tcp, ok := addr.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}

// Hosts gives the host names a request to a server at addr may name: on
// loopback, localhost and the loopback addresses; on one address, that one
// too; on every interface (0.0.0.0, ::), nil, for any name.
func Hosts(addr net.Addr) []string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok || tcp.IP.IsUnspecified() {
		return nil
	}
	return []string{"localhost", "127.0.0.1", "::1", tcp.IP.String()}
}

// guard sets the security headers on every answer and refuses, with a 421,
// a request whose Host is not one of hosts (nil: any). Checking the Host
// keeps a page of another site from reaching a loopback server through a
// name it rebinds to 127.0.0.1.
func guard(h http.Handler, hosts []string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("Referrer-Policy", "no-referrer")
		hd.Set("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
		if hosts != nil && !allowed(r.Host, hosts) {
			writeError(w, http.StatusMisdirectedRequest, fmt.Errorf("host %q is not this server's; open it at %s", game.Echo(r.Host), hosts[0]))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// allowed reports whether the Host header host, with or without its port,
// names one of hosts.
func allowed(host string, hosts []string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.Trim(strings.ToLower(host), "[]")
	for _, a := range hosts {
		if host == a {
			return true
		}
	}
	return false
}
