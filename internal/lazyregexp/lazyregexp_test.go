package lazyregexp

import "testing"

func TestMatchString(t *testing.T) {
	re := New(`^ply-[0-9]{2}\.part-[0-9]{6}$`)
	tests := []struct {
		name string
		in   string
		want bool
	}{
		{"a part", "ply-13.part-000042", true},
		{"a part of three digits of ply", "ply-130.part-000042", false},
		{"a temporary part", "ply-13.part-000042.tmp-1", false},
		{"empty", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := re.MatchString(tt.in); got != tt.want {
				t.Errorf("MatchString(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestBadPatternPanicsOnUse(t *testing.T) {
	re := New(`(`) // no panic yet: nothing is compiled before the first match
	defer func() {
		if recover() == nil {
			t.Errorf("matching the pattern %q did not panic, want the panic of regexp.MustCompile", "(")
		}
	}()
	re.MatchString("x")
}
