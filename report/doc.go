// Package report owns every view of a command's result the tool shows: the
// text and SVG picture of a position (from package view's object), and the
// text of every run (counts, a solved game, the proofs, the verdicts on a
// user's checker, solver, agent or contest program, an export).
package report
