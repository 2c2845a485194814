package cmd

import (
	"fmt"
	"strings"
	"unicode"
)

// splitArgs splits a command line such as `python3 "my checker.py" -v` into
// words the way a POSIX shell does for plain words, single quotes, double
// quotes and backslashes; it runs nothing and expands nothing.
func splitArgs(s string) ([]string, error) {
	var args []string
	var cur strings.Builder
	inWord := false
	quote := rune(0)
	escaped := false
	for _, r := range s {
		switch {
		case escaped:
			cur.WriteRune(r)
			escaped = false
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case quote == '"':
			switch r {
			case '"':
				quote = 0
			case '\\':
				escaped = true
			default:
				cur.WriteRune(r)
			}
		case r == '\\':
			escaped, inWord = true, true
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case unicode.IsSpace(r):
			if inWord {
				args = append(args, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 || escaped {
		return nil, fmt.Errorf("program %q has an unclosed quote or a trailing backslash; quote it like 'python3 \"my checker.py\"'", s)
	}
	if inWord {
		args = append(args, cur.String())
	}
	if len(args) == 0 {
		return nil, fmt.Errorf("--external is empty, give the program and its arguments, such as --external 'python3 checker.py'")
	}
	return args, nil
}

// parseTokens reads a comma-separated list of n distinct tokens for flag.
func parseTokens(flag, s string, n int, meaning string) ([]string, error) {
	toks := strings.Split(s, ",")
	if len(toks) != n {
		return nil, fmt.Errorf("--%s %q has %d tokens, want %d separated by commas: %s", flag, s, len(toks), n, meaning)
	}
	seen := map[string]bool{}
	for _, t := range toks {
		if t == "" || strings.ContainsFunc(t, unicode.IsSpace) {
			return nil, fmt.Errorf("--%s %q has an empty token or one with a space, want %d words separated by commas: %s", flag, s, n, meaning)
		}
		if seen[t] {
			return nil, fmt.Errorf("--%s %q names %q twice, want %d different tokens: %s", flag, s, t, n, meaning)
		}
		seen[t] = true
	}
	return toks, nil
}
