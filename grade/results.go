package grade

import (
	"encoding/json"
	"strconv"
)

// Graded is one answer of an agent, graded: a row of the results file of
// grade --out. Values are for the side to move.
type Graded struct {
	StateID     *int64 `parquet:"state_id,optional"` // null past 40 cells
	Board       string `parquet:"board,plain"`
	Ply         int8   `parquet:"ply,dict"`
	Answer      string `parquet:"answer,plain"`  // as the agent wrote it
	Move        *int8  `parquet:"move,optional"` // the action it plays (a column from 0 under gravity, else the cell); null when illegal
	Cell        *int8  `parquet:"cell,optional"` // the cell its mark lands on; null when illegal
	Kind        string `parquet:"kind,dict"`     // kept, win_to_draw, win_to_loss, draw_to_loss or illegal
	IsBest      bool   `parquet:"is_best"`       // a best move: the best value, then the best depth
	ValueBefore int8   `parquet:"value_before,dict"`
	ValueAfter  *int8  `parquet:"value_after,optional"` // null when illegal
}

// GradedHeader is the header of grade --out's CSV file of positions.
var GradedHeader = []string{"state_id", "board", "ply", "answer", "move", "cell", "kind", "is_best", "value_before", "value_after"}

// CSV gives the row's fields, as GradedHeader names them.
func (r Graded) CSV() []string {
	id := ""
	if r.StateID != nil {
		id = strconv.FormatInt(*r.StateID, 10)
	}
	return []string{id, r.Board, strconv.Itoa(int(r.Ply)), r.Answer, opt(r.Move), opt(r.Cell), r.Kind,
		strconv.FormatBool(r.IsBest), strconv.Itoa(int(r.ValueBefore)), opt(r.ValueAfter)}
}

// opt writes a nullable int8: empty for a null.
func opt(v *int8) string {
	if v == nil {
		return ""
	}
	return strconv.Itoa(int(*v))
}

// GameRow is one game of grade --games, a row of its --out file.
type GameRow struct {
	Game         int32     `parquet:"game"` // from 0, in the order played
	Opponent     string    `parquet:"opponent,dict"`
	AgentPlays   string    `parquet:"agent_plays,dict"`
	Result       string    `parquet:"result,dict"`  // for the agent: win, draw, loss or forfeit
	Opening      []int8    `parquet:"opening,list"` // the opening's moves, actions; empty from the empty board
	Length       int8      `parquet:"length"`
	Moves        []int8    `parquet:"moves,list"` // actions (GamesResult.Numbering)
	AgentSeconds []float64 `parquet:"agent_seconds,list"`
	Answers      []string  `parquet:"answers,list"` // as the agent wrote them
	Why          string    `parquet:"why,plain"`    // how a forfeit came; empty otherwise
}

// GameRows gives the games of r as rows of the --out file.
func GameRows(r *GamesResult) []GameRow {
	rows := make([]GameRow, len(r.Games))
	for i, g := range r.Games {
		rows[i] = GameRow{Game: int32(i), Opponent: g.Opponent, AgentPlays: g.AgentPlays, Result: g.Result,
			Opening: []int8{}, Length: int8(g.Length), AgentSeconds: g.AgentSeconds, Answers: g.Answers, Why: g.Why}
		for _, m := range g.Opening {
			rows[i].Opening = append(rows[i].Opening, int8(m))
		}
		for _, m := range g.Moves {
			rows[i].Moves = append(rows[i].Moves, int8(m))
		}
	}
	return rows
}

// GameHeader is the header of grade --games --out's CSV file.
var GameHeader = []string{"game", "opponent", "agent_plays", "result", "opening", "length", "moves", "agent_seconds", "answers", "why"}

// CSV gives the row's fields, as GameHeader names them, each list a JSON
// array.
func (r GameRow) CSV() []string {
	list := func(v any) string {
		b, _ := json.Marshal(v) // lists of numbers and strings always marshal
		return string(b)
	}
	ints := func(l []int8) []int {
		out := make([]int, len(l))
		for i, m := range l {
			out[i] = int(m)
		}
		return out
	}
	return []string{strconv.Itoa(int(r.Game)), r.Opponent, r.AgentPlays, r.Result, list(ints(r.Opening)), strconv.Itoa(int(r.Length)),
		list(ints(r.Moves)), list(r.AgentSeconds), list(r.Answers), r.Why}
}
