// Package web owns the local explorer's HTTP side: the JSON API over an
// oracle of perfect play (a game solved once, where every request is a
// lookup, or search, each position searched once and kept), the page
// embedded in the binary, and answers to bad requests as a 400 with a JSON
// error, never a panic.
package web

import (
	"cmp"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/view"
)

//go:embed static
var static embed.FS

// Handler serves the explorer x:
//
//	GET /                          the page
//	GET /colours.css               the results' colours, view.Colours
//	GET /favicon.svg, /favicon.ico the page's icon: discs in a frame
//	GET /api/position?board=B      the position's view, as solve --position --json;
//	                               an empty B is the empty board
//	GET /api/position?board=B&move=M   the view after the move M (a cell; under
//	                               gravity a column from 1, Connect-Four notation),
//	                               or after the moves M, as solve --moves reads them
//
// A position whose answer does not come within Wait gets a 202 with a
// Solving, and asking again later gets the answer; past the search queue's
// bounds (oracle.MaxQueued, and oracle.MaxShare a client) a 429 with Retry-After.
// Asking again with &poll=1 (GET /api/position?board=B&poll=1, B the
// Solving's board) queues no search: a position no longer searched gets a
// 410, and is asked for again without poll.
//
//	GET /api/why?board=B&move=M    why M is worse than the best (view.Why):
//	                               M, then perfect play of both sides after it
//	                               to the end; for a slower win, a best move's
//	                               line; for a best move, its own. A 202 while
//	                               a position along it is searched: ask again.
//	                               A position whose moves have no values: a 422.
//	GET /api/check?board=B&move=M  whether B, and the moves M after it, as
//	                               solve --moves reads them, make a position:
//	                               {"ok": true, "board": ...} or {"ok": false,
//	                               "error": ...}, naming the move that fails;
//	                               always a 200 (but for a query it cannot
//	                               read), so that the page asks the position
//	                               itself only of a board it can show
//	DELETE /api/position?board=B   stops B's search, or takes it off the
//	                               queue: {"cancelled": true}, false when none was
//
// A client is the request's address and its TabHeader (oracle.Client).
// Anything else is a 404; another method than GET, HEAD or that DELETE a
// 405; a query it cannot read, a missing board, a bad board or move, or a
// TabHeader that is no token a 400; each with {"error": ...}; a damaged
// database a 503; an oracle that fails otherwise a 500.
func Handler(x *Explorer) http.Handler {
	mux := http.NewServeMux()
	page, _ := fs.Sub(static, "static")
	mux.Handle("GET /{$}", http.FileServerFS(page))
	mux.Handle("GET /app.js", http.FileServerFS(page))
	mux.Handle("GET /favicon.svg", http.FileServerFS(page))
	mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) { // asked by clients that read no <link rel="icon">
		http.ServeFileFS(w, r, page, "favicon.svg")
	})
	mux.HandleFunc("GET /colours.css", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
		_, _ = io.WriteString(w, coloursCSS)
	})
	mux.HandleFunc("GET /api/position", func(w http.ResponseWriter, r *http.Request) {
		q, err := readQuery(r.URL.RawQuery)
		if err != nil {
			writeError(w, http.StatusBadRequest, err)
			return
		}
		b, err := read(x.rl, q["board"], q["move"])
		who, werr := client(r)
		if err = cmp.Or(err, werr); err != nil {
			writeError(w, http.StatusBadRequest, err)
			return
		}
		v, solving, err := x.view(r.Context(), b, who, q["poll"] == "1")
		respond(w, v, solving, err)
	})
	mux.HandleFunc("GET /api/why", x.serveWhy)
	mux.HandleFunc("GET /api/check", x.serveCheck)
	mux.HandleFunc("DELETE /api/position", func(w http.ResponseWriter, r *http.Request) {
		q, err := readQuery(r.URL.RawQuery)
		if err == nil && q["move"] != "" {
			err = fmt.Errorf("DELETE takes the board alone, the position whose search to stop")
		}
		b := game.Board{}
		if err == nil {
			b, err = read(x.rl, q["board"], "")
		}
		who, werr := client(r)
		if err = cmp.Or(err, werr); err != nil {
			writeError(w, http.StatusBadRequest, err)
			return
		}
		writeJSON(w, http.StatusOK, map[string]bool{"cancelled": x.Cancel(b, who)})
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, fmt.Errorf("no such page %q; the explorer is at /, the API at /api/position?board=B and /api/why?board=B&move=M, B a board and M a move", game.Echo(r.URL.Path)))
	})
	return onlyGET(mux)
}

// serveCheck answers GET /api/check: whether the board and the moves make
// a position, a 200 either way, but for a query it cannot read (a 400).
func (x *Explorer) serveCheck(w http.ResponseWriter, r *http.Request) {
	q, err := readQuery(r.URL.RawQuery)
	if err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	b, err := read(x.rl, q["board"], q["move"])
	if err != nil {
		writeJSON(w, http.StatusOK, map[string]any{"ok": false, "error": err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"ok": true, "board": x.rl.Spec().Format(b)})
}

// serveWhy answers GET /api/why: the board and one move checked, a 400
// when they are bad, then the line (Explorer.why).
func (x *Explorer) serveWhy(w http.ResponseWriter, r *http.Request) {
	q, err := readQuery(r.URL.RawQuery)
	switch {
	case err != nil:
	case q["move"] == "":
		err = fmt.Errorf("move is missing: give &move=M, the move to show the line after (a cell; under gravity a column from 1)")
	case q["poll"] != "":
		err = fmt.Errorf("poll is /api/position's; ask /api/why again without it")
	}
	b := game.Board{}
	if err == nil {
		b, err = read(x.rl, q["board"], "")
	}
	if err == nil {
		err = oneMove(x.rl, b, q["move"])
	}
	who, werr := client(r)
	if err = cmp.Or(err, werr); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	v, solving, err := x.why(r.Context(), b, q["move"], who)
	respond(w, v, solving, err)
}

// oneMove checks that move plays one legal move on b: /api/why explains
// one move at a time.
func oneMove(rl rules.Rules, b game.Board, move string) error {
	child, err := rules.Play(rl, b, move)
	if err != nil {
		return err
	}
	if n := child.Ply() - b.Ply(); n != 1 {
		return fmt.Errorf("move=%q plays %d moves; /api/why takes one, such as move=4", game.Echo(move), n)
	}
	return nil
}

// respond writes the answer v, or solving (a 202), or err as its status:
// ErrGone a 410, ErrBusy a 429 with Retry-After, errNoMoves a 422, a
// damaged database (db.DamagedError: its file and the command that builds
// it again) a 503, any other a 500.
func respond[V any](w http.ResponseWriter, v *V, solving *Solving, err error) {
	switch {
	case errors.Is(err, oracle.ErrGone):
		writeError(w, http.StatusGone, err)
	case errors.Is(err, oracle.ErrBusy):
		w.Header().Set("Retry-After", strconv.Itoa(RetryAfter))
		writeError(w, http.StatusTooManyRequests, err)
	case errors.Is(err, errNoMoves):
		writeError(w, http.StatusUnprocessableEntity, err)
	case errors.As(err, new(*db.DamagedError)):
		writeError(w, http.StatusServiceUnavailable, err)
	case err != nil:
		writeError(w, http.StatusInternalServerError, err)
	case solving != nil:
		writeJSON(w, http.StatusAccepted, solving)
	default:
		writeJSON(w, http.StatusOK, v)
	}
}

// TabHeader is the request header by which a page (or a program) tells
// itself apart from the others of its address: a token it keeps, up to 64
// letters, digits, '-' and '_'. The explorer's page makes one when it
// loads, so that two tabs are two clients of the search queue.
const TabHeader = "Tateti-Tab"

// client names who sent r, for its share of the search queue and what it
// may cancel: its address without the port, and its TabHeader; an error
// for a token that is not one.
func client(r *http.Request) (oracle.Client, error) {
	c := oracle.Client{Addr: r.RemoteAddr, Tab: r.Header.Get(TabHeader)}
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		c.Addr = host
	}
	if len(c.Tab) > 64 || strings.IndexFunc(c.Tab, func(ch rune) bool {
		return !(ch == '-' || ch == '_' || ch >= '0' && ch <= '9' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z')
	}) >= 0 {
		return c, fmt.Errorf("the %s header is %q; give up to 64 letters, digits, '-' and '_', or none", TabHeader, game.Echo(c.Tab))
	}
	return c, nil
}

// maxParams is the most parameters a query may hold: the API takes three.
const maxParams = 8

// params names the API's parameters, as its errors say them.
const params = "board, move and poll"

// readQuery reads the API's query: board, required (empty for the empty
// board), and move, optional, each at most once. A query that cannot be
// read, or that holds any other parameter, is an error.
func readQuery(raw string) (map[string]string, error) {
	if strings.Count(raw, "&")+1 > maxParams {
		return nil, fmt.Errorf("the query has more than %d parameters; the API takes %s", maxParams, params)
	}
	vals, err := url.ParseQuery(raw)
	if err != nil {
		return nil, fmt.Errorf("the query cannot be read (%v); give board=BOARD and, if you like, move=MOVE, separated by &", err)
	}
	q := map[string]string{}
	for k, v := range vals {
		if k != "board" && k != "move" && k != "poll" {
			return nil, fmt.Errorf("the query names %q; the API takes %s", game.Echo(k), params)
		}
		if len(v) > 1 {
			return nil, fmt.Errorf("the query gives %s %d times; give it once", k, len(v))
		}
		if k == "poll" && v[0] != "1" {
			return nil, fmt.Errorf("poll=%q; give poll=1 to ask again about a position being searched, or leave it out", game.Echo(v[0]))
		}
		q[k] = v[0]
	}
	if _, ok := q["board"]; !ok {
		return nil, fmt.Errorf("board is missing: give ?board=BOARD, such as ?board=XO./.X./..O (empty for the empty board)")
	}
	return q, nil
}

// onlyGET answers any method but GET and HEAD, and DELETE of the API's
// position, with a 405 that names those.
func onlyGET(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cancel := r.Method == http.MethodDelete && r.URL.Path == "/api/position"
		if r.Method != http.MethodGet && r.Method != http.MethodHead && !cancel {
			w.Header().Set("Allow", "GET, HEAD")
			writeError(w, http.StatusMethodNotAllowed, fmt.Errorf("method %s is not served; the explorer and its API answer GET (and DELETE /api/position to stop a search)", game.Echo(r.Method)))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// read reads the board text (empty for the empty board), which must be
// able to arise under rl, and plays the move after it, if any.
func read(rl rules.Rules, text, move string) (game.Board, error) {
	s := rl.Spec()
	if text == "" {
		text = strings.Repeat(".", s.Cells())
	}
	b, err := s.Spec.Parse(text)
	if err != nil {
		return b, err
	}
	if err := rules.CheckReachable(rl, b); err != nil {
		return b, err
	}
	if move == "" {
		return b, nil
	}
	return rules.Play(rl, b, move)
}

// coloursCSS gives the page the colours of view.Colours: a move's result
// for the side to move, and on the chart the value for X.
var coloursCSS = fmt.Sprintf(`.win { color: %[1]s; } .draw { color: %[2]s; } .loss { color: %[3]s; }
.xwins { fill: %[1]s; } .drawn { fill: %[2]s; } .owins { fill: %[3]s; }
`, view.Colours["win"], view.Colours["draw"], view.Colours["loss"])

func writeError(w http.ResponseWriter, status int, err error) {
	writeJSON(w, status, map[string]string{"error": err.Error()})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}
