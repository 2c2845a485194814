package cmd

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// figure matches a measured amount: a number, in digits or words, and a
// unit of time or memory.
var figure = regexp.MustCompile(`(?i)\b([0-9][0-9.,]*|one|two|three|four|five|ten|a half)\s*(s|seconds?|minutes?|min|hours?|h|[KMG]i?B)\b`)

// setUpUnlabelled gives the sentences of the "Set up" section of the
// Markdown text md that give a figure without saying where it was measured
// (the word "measured").
func setUpUnlabelled(md string) []string {
	_, section, _ := strings.Cut("\n"+md, "\n## Set up\n")
	section, _, _ = strings.Cut(section, "\n## ")
	var out []string
	for _, sentence := range regexp.MustCompile(`[.;]\s`).Split(strings.Join(strings.Fields(section), " "), -1) {
		if figure.MatchString(sentence) && !strings.Contains(sentence, "measured") {
			out = append(out, sentence)
		}
	}
	return out
}

// Every figure of the README's "Set up" section says where it was
// measured, in the sentence that gives it: a time on an unknown machine
// misleads a newcomer.
func TestSetUpFiguresSayWhere(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if got := setUpUnlabelled(string(readme)); len(got) > 0 {
		t.Errorf("README.md's Set up gives figures without where they were measured:\n%s", strings.Join(got, "\n"))
	}
	tests := []struct {
		name string
		md   string
		want int
	}{
		{"a bare time", "## Set up\n\nThe tests take 85 s here.\n", 1},
		{"a time in words", "## Set up\n\nIt takes about two minutes.\n", 1},
		{"labelled", "## Set up\n\nThe tests take 85 s, measured on a 2-core machine.\n", 0},
		{"outside the section", "## Set up\n\nRun it.\n\n## Tour\n\nIt takes 85 s.\n", 0},
	}
	for _, tt := range tests {
		if got := setUpUnlabelled(tt.md); len(got) != tt.want {
			t.Errorf("%s: %d unlabelled (%q), want %d", tt.name, len(got), got, tt.want)
		}
	}
}

// The README stays a front page: at most 240 lines, the reference and the
// explorer's API in docs/.
func TestReadmeLength(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(readme), "\n"); n > 240 {
		t.Errorf("README.md has %d lines, want at most 240: move reference material to docs/", n)
	}
}
