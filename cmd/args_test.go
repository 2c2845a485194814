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
			got, err := splitArgs("external", tt.in)
			if (err != nil) != tt.wantErr || !slices.Equal(got, tt.want) {
				t.Fatalf("splitArgs(%q) = %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.wantErr)
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
		args, err := splitArgs("external", s)
		if err != nil {
			return
		}
		quoted := make([]string, len(args))
		for i, a := range args {
			quoted[i] = quote(a)
		}
		back, err := splitArgs("external", strings.Join(quoted, " "))
		if err != nil || !slices.Equal(back, args) {
			t.Fatalf("splitArgs(%q) = %q, but quoted back it reads %q, %v", s, args, back, err)
		}
	})
}
