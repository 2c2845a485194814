package report

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/grade"
	"github.com/tateti-lab/tateti-lab/internal/figure"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Grade writes an agent's grade as grade prints it: the tallies by ply, the
// worst answers drawn, the accuracy and the verdict.
func Grade(w io.Writer, v *grade.Result) {
	r := v.Agent
	fmt.Fprintf(w, "agent program %q on %s positions (%s)\n", r.Program, figure.Commas(r.Overall.Positions), v.Game.Words())
	fmt.Fprintf(w, "the right answers by %s\n\n", v.Answered)
	t := newTable(w)
	fmt.Fprintln(t, "ply\tpositions\tillegal\tkept value\tbest\twin→draw\twin→loss\tdraw→loss\taccuracy\t")
	row := func(label string, g grade.Tally) {
		fmt.Fprintf(t, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.2f%%\t\n", label, figure.Commas(g.Positions), figure.Commas(g.Illegal), figure.Commas(g.Kept),
			figure.Commas(g.Best), figure.Commas(g.WinToDraw), figure.Commas(g.WinToLoss), figure.Commas(g.DrawToLoss), g.Accuracy)
	}
	for _, p := range r.ByPly {
		row(fmt.Sprint(p.Ply), p.Tally)
	}
	row("total", r.Overall)
	t.Flush()
	if len(r.Worst) > 0 {
		fmt.Fprintln(w, "\nthe worst answers:")
		for _, ex := range r.Worst {
			answered, best := ex.Words(v.Game)
			what := answered + ": " + kindWords[ex.Kind]
			if ex.Why != "" {
				what += ": " + ex.Why
			}
			title := ex.Board
			if ex.StateID != nil {
				title += " (" + strings.TrimSuffix(stateWords(ex.StateID), ", ") + ")"
			}
			drawBoard(w, ex.Board, title, what, best)
		}
	}
	if len(r.Worst) == 0 {
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "accuracy: %.2f%% of moves keep the value; %.2f%% are best moves\n", r.Overall.Accuracy, grade.Percent(r.Overall.Best, r.Overall.Positions))
	if v.MinAccuracy != nil {
		verdict := "passed"
		if !v.Passed {
			verdict = "FAILED"
		}
		fmt.Fprintf(w, "%s: --min-accuracy %.2f%%\n", verdict, *v.MinAccuracy)
	}
}

var kindWords = map[string]string{"illegal": "illegal", "win_to_loss": "a win thrown to a loss",
	"win_to_draw": "a win thrown to a draw", "draw_to_loss": "a draw thrown to a loss"}

// Games writes an agent's games: wins, draws, losses and forfeits against
// each opponent with each colour, and the first game it lost, move by move,
// each move as --moves takes it and the agent's answers quoted as it wrote
// them.
func Games(w io.Writer, r *grade.GamesResult) {
	from := "from the start"
	if len(r.Games) > 0 && len(r.Games[0].Opening) > 0 {
		from = "from the openings given"
	}
	fmt.Fprintf(w, "agent program %q in games %s (%s), seed %d\n", r.Program, from, r.Game.Words(), r.Seed)
	opponent := "the perfect opponent's moves"
	if r.Epsilon > 0 {
		opponent = fmt.Sprintf("the perfect opponent's moves (a best move with probability %g, a random one otherwise)", 1-r.Epsilon)
	}
	fmt.Fprintf(w, "%s by %s\n", opponent, r.Answered)
	if len(r.StartSeconds) > 0 {
		fmt.Fprintf(w, "the agent %s, the slowest start-up %.2f s (the empty board asked first, not graded nor in any move's time)", starts(len(r.StartSeconds)), slices.Max(r.StartSeconds))
	}
	if n := len(r.StartSkipped); n > 0 {
		fmt.Fprintf(w, "; %d line(s) it printed first skipped, the first %q", n, r.StartSkipped[0])
	}
	fmt.Fprint(w, "\n\n")
	t := newTable(w)
	fmt.Fprintln(t, "opponent\tagent plays\tgames\twins\tdraws\tlosses\tforfeits\tillegal\t")
	for _, g := range r.Tallies {
		fmt.Fprintf(t, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t\n", g.Opponent, g.AgentPlays, g.Games, g.Wins, g.Draws, g.Losses, g.Forfeits, g.Illegal)
	}
	t.Flush()
	if r.FirstLoss == nil {
		fmt.Fprintln(w, "\nthe agent lost no game")
		return
	}
	firstLoss(w, r.Game, &r.Games[*r.FirstLoss])
}

// starts says how often the agent started.
func starts(n int) string {
	if n == 1 {
		return "started once"
	}
	return fmt.Sprintf("started %d times (again after each forfeit its failure caused)", n)
}

// firstLoss draws the game g of s, which the agent lost or forfeited, move
// by move.
func firstLoss(w io.Writer, s rules.Spec, g *grade.GameRecord) {
	how := "lost"
	if g.Result == grade.Forfeit {
		how = "forfeited: " + g.Why
	}
	fmt.Fprintf(w, "\nthe first game lost, as %s against %s play (%s):\n", g.AgentPlays, g.Opponent, how)
	var b game.Board
	opening := g.OpeningCells()
	for _, cell := range opening {
		b = b.Play(cell, b.ToMove())
	}
	if len(opening) > 0 {
		drawBoard(w, s.Format(b), "from the opening "+s.FormatMoves(opening))
	}
	asked := 0
	for k, cell := range g.Cells() {
		who := b.ToMove()
		b = b.Play(cell, who)
		what := fmt.Sprintf("%d. %s plays %s %d", len(opening)+k+1, who, s.MoveNoun(), s.MoveNumber(cell))
		if who.String() == g.AgentPlays {
			what += fmt.Sprintf(" (the agent answered %q)", g.Answers[asked])
			asked++
		}
		drawBoard(w, s.Format(b), what)
	}
	if asked < len(g.Answers) {
		fmt.Fprintf(w, "    then the agent answered %q\n", g.Answers[asked])
	}
}
