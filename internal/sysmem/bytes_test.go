package sysmem

import (
	"strings"
	"testing"
)

func TestParseBytes(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want uint64 // 0: refused
	}{
		{"plain bytes", "3000000000", 3000000000},
		{"binary gigabytes", "4G", 4 << 30},
		{"binary, spelt out", "512MiB", 512 << 20},
		{"lower case", "512mib", 512 << 20},
		{"decimal gigabytes", "1GB", 1e9},
		{"a fraction with a unit", "1.5G", 3 << 29},
		{"spaces", " 2 GiB ", 2 << 30},
		{"a byte", "1", 1},
		{"bytes with a B", "4096B", 4096},
		{"a word", "abc", 0},
		{"an exponent", "1e9", 0},
		{"negative", "-5", 0},
		{"zero", "0", 0},
		{"zero with a unit", "0G", 0},
		{"a fraction of a byte", "0.1B", 0},
		{"a fraction without a unit", "1.5", 0},
		{"2^64", "18446744073709551616", 0},
		{"past 2^63", "9223372036854775808", 0},
		{"past 2^63 with a unit", "9000000T", 0},
		{"an unknown unit", "4X", 0},
		{"a unit alone", "G", 0},
		{"empty", "", 0},
		{"two points", "1..5G", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseBytes(tt.in)
			if tt.want == 0 {
				if err == nil || !strings.Contains(err.Error(), "4G, 512MiB or 1.5GB") {
					t.Fatalf("ParseBytes(%q) = %d, %v; want an error naming the forms", tt.in, got, err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("ParseBytes(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestCap(t *testing.T) {
	t.Setenv(Env, "1e9")
	if _, set, err := Cap(); !set || err == nil || !strings.Contains(err.Error(), `TATETI_MEMORY="1e9"`) {
		t.Fatalf("Cap with 1e9: set %v, %v; want an error naming it", set, err)
	}
	t.Setenv(Env, "2M")
	if n, set, err := Cap(); !set || err != nil || n != 2<<20 {
		t.Fatalf("Cap with 2M: %d, %v, %v; want 2 MiB", n, set, err)
	}
	if got := Available(); got != 2<<20 {
		t.Fatalf("Available under a 2M cap = %d, want %d", got, 2<<20)
	}
}

// Any text is read or refused, never a panic; what is read is at least a
// byte and at most 2^63.
func FuzzParseBytes(f *testing.F) {
	for _, s := range []string{"4G", "512MiB", "1.5GB", "abc", "-5", "0", "18446744073709551616", "9000000T", ".G"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := ParseBytes(s)
		if err == nil && (n < 1 || n > 1<<63-1) {
			t.Fatalf("ParseBytes(%q) = %d, outside 1 to 2^63", s, n)
		}
	})
}
