package figure

import "testing"

func TestBytes(t *testing.T) {
	tests := []struct {
		n    uint64
		want string
	}{
		{0, "0 B"}, {999, "999 B"}, {1000, "1.0 kB"}, {447_300_000, "447.3 MB"}, {999_960_000, "1.0 GB"},
		{9_231_200_000_000, "9.2 TB"}, {1 << 63, "9.2 EB"},
	}
	for _, tt := range tests {
		if got := Bytes(tt.n); got != tt.want {
			t.Errorf("Bytes(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestCommas(t *testing.T) {
	tests := []struct {
		n    int64
		want string
	}{
		{0, "0"}, {999, "999"}, {1000, "1,000"}, {549946, "549,946"}, {-1234567, "-1,234,567"},
	}
	for _, tt := range tests {
		if got := Commas(tt.n); got != tt.want {
			t.Errorf("Commas(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestSeconds(t *testing.T) {
	tests := []struct {
		seconds float64
		want    string
	}{
		{0, "1 s"}, {0.4, "1 s"}, {12.4, "12 s"}, {89.4, "89 s"}, {90, "2 min"}, {839, "14 min"},
		{5399, "90 min"}, {5400, "1.5 h"}, {12_600, "3.5 h"},
	}
	for _, tt := range tests {
		if got := Seconds(tt.seconds); got != tt.want {
			t.Errorf("Seconds(%v) = %q, want %q", tt.seconds, got, tt.want)
		}
	}
}
