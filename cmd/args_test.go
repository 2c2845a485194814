package cmd

import (
	"slices"
	"strings"
	"testing"
)

func TestSplitArgs(t *testing.T) {
	tests := []struct {
		in      string
		want    []string
		wantErr bool
	}{
		{"checker", []string{"checker"}, false},
		{"  python3   check.py  -v ", []string{"python3", "check.py", "-v"}, false},
		{`python3 "my checker.py"`, []string{"python3", "my checker.py"}, false},
		{`sh -c 'read x; echo $x'`, []string{"sh", "-c", "read x; echo $x"}, false},
		{`a\ b "c\"d" ''`, []string{"a b", `c"d`, ""}, false},
		{`"unclosed`, nil, true},
		{`trailing\`, nil, true},
		{"   ", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := splitArgs(tt.in)
			if (err != nil) != tt.wantErr || !slices.Equal(got, tt.want) {
				t.Fatalf("splitArgs(%q) = %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestParseTokens(t *testing.T) {
	tests := []struct {
		in      string
		n       int
		wantErr string
	}{
		{"X,O,.", 3, ""},
		{"0,1,-1", 3, ""},
		{"X,O", 3, "has 2 tokens, want 3"},
		{"X,,.", 3, "has an empty token"},
		{"X,X,.", 3, `names "X" twice`},
		{"a b,c,d", 3, "one with a space"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := parseTokens("cells", tt.in, tt.n, "X, O, empty")
			if (tt.wantErr == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("parseTokens(%q) error = %v, want %q", tt.in, err, tt.wantErr)
			}
		})
	}
}

// quote writes an argument so that splitArgs reads it back.
func quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func FuzzSplitArgs(f *testing.F) {
	for _, s := range []string{"a b", `"a b" c`, `'x'\'' y'`, `\`, `"`, "\t\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		args, err := splitArgs(s)
		if err != nil {
			return
		}
		quoted := make([]string, len(args))
		for i, a := range args {
			quoted[i] = quote(a)
		}
		back, err := splitArgs(strings.Join(quoted, " "))
		if err != nil || !slices.Equal(back, args) {
			t.Fatalf("splitArgs(%q) = %q, but quoted back it reads %q, %v", s, args, back, err)
		}
	})
}

func FuzzParseTokens(f *testing.F) {
	for _, s := range []string{"X,O,.", "0,1,-1", ",,", "a,a,b", "x y,z,w"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		toks, err := parseTokens("cells", s, 3, "X, O, empty")
		if err != nil {
			return
		}
		if len(toks) != 3 || strings.Join(toks, ",") != s {
			t.Fatalf("parseTokens(%q) = %q, which does not join back", s, toks)
		}
	})
}
