// Package web owns the local explorer's HTTP side: the JSON API over a game
// solved once (every request is a lookup), the page embedded in the binary,
// and answers to bad requests as a 400 with a JSON error, never a panic.
package web

import (
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strings"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/report"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
)

//go:embed static
var static embed.FS

// Handler serves the explorer of the solved game sol:
//
//	GET /                          the page
//	GET /colours.css               the results' colours, report.Colours
//	GET /api/position?board=B      the position's view, as solve --position --json
//	GET /api/position?board=B&move=M   the view after the move M (a cell; under
//	                               gravity a column from 1, Connect-Four notation)
//
// Anything else is a 404; a bad board or move is a 400 with {"error": ...}.
func Handler(sol *solve.Result) http.Handler {
	mux := http.NewServeMux()
	page, _ := fs.Sub(static, "static")
	mux.Handle("GET /{$}", http.FileServerFS(page))
	mux.Handle("GET /app.js", http.FileServerFS(page))
	mux.HandleFunc("GET /colours.css", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
		_, _ = io.WriteString(w, coloursCSS)
	})
	mux.HandleFunc("GET /api/position", func(w http.ResponseWriter, r *http.Request) {
		v, err := lookup(sol, r.URL.Query().Get("board"), r.URL.Query().Get("move"))
		if err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
			return
		}
		writeJSON(w, http.StatusOK, v)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": fmt.Sprintf("no such page %q; the explorer is at / and the API at /api/position?board=...", game.Echo(r.URL.Path))})
	})
	return mux
}

// lookup finds the board (and the move after it) in the solved game.
func lookup(sol *solve.Result, text, move string) (report.Position, error) {
	rl := sol.Enum.Rules
	s := rl.Spec()
	if text == "" {
		text = strings.Repeat(".", s.Cells())
	}
	b, err := s.Spec.Parse(text)
	if err != nil {
		return report.Position{}, err
	}
	if err := rules.CheckReachable(rl, b); err != nil {
		return report.Position{}, err
	}
	if move != "" {
		if b, err = rules.Play(rl, b, move); err != nil {
			return report.Position{}, err
		}
	}
	i, ok := sol.Enum.Lookup(game.ID(b))
	if !ok {
		return report.Position{}, fmt.Errorf("board %q is not in the solved game", game.Echo(text))
	}
	return report.NewPosition(sol.Analysis(i)), nil
}

// coloursCSS gives the page the colours of report.Colours: a move's result
// for the side to move, and on the chart the value for X.
var coloursCSS = fmt.Sprintf(`.win { color: %[1]s; } .draw { color: %[2]s; } .loss { color: %[3]s; }
.xwins { fill: %[1]s; } .drawn { fill: %[2]s; } .owins { fill: %[3]s; }
`, report.Colours["win"], report.Colours["draw"], report.Colours["loss"])

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}
