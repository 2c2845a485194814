package cmd

import (
	"fmt"
	"os/exec"
	"strings"
	"unicode"

	"github.com/tateti-lab/tateti-lab/game"
)

// splitArgs splits a command line such as `python3 "my checker.py" -v` into
// words the way a POSIX shell does for plain words, single quotes, double
// quotes and backslashes; it runs nothing and expands nothing.
func splitArgs(flag, s string) ([]string, error) {
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
		return nil, fmt.Errorf("--%s %q has an unclosed quote or a trailing backslash; quote it like 'python3 \"my prog.py\"'", flag, game.Echo(s))
	}
	if inWord {
		args = append(args, cur.String())
	}
	if len(args) == 0 {
		return nil, fmt.Errorf("--%s is empty, give the program and its arguments, such as --%s 'python3 prog.py'", flag, flag)
	}
	return args, nil
}

// canStart makes sure the program given with flag can be found, so that a
// typo fails before any long work rather than after it.
func canStart(flag string, argv []string) error {
	if _, err := exec.LookPath(argv[0]); err != nil {
		return fmt.Errorf("--%s: cannot start %q: %w", flag, game.Echo(argv[0]), err)
	}
	return nil
}
