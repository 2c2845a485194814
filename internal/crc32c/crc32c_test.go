package crc32c

import (
	"hash/crc32"
	"testing"
)

// The checksums are the Castagnoli polynomial's, whole, updated or hashed
// a piece at a time: "123456789" gives the standard check value 0xE3069283.
func TestChecksum(t *testing.T) {
	const check = 0xe3069283
	tests := []struct {
		name string
		got  uint32
	}{
		{"whole", Checksum([]byte("123456789"))},
		{"updated", Update(Checksum([]byte("1234")), []byte("56789"))},
		{"hashed", func() uint32 { h := New(); h.Write([]byte("12")); h.Write([]byte("3456789")); return h.Sum32() }()},
	}
	for _, tt := range tests {
		if tt.got != check {
			t.Errorf("%s: %#x, want %#x", tt.name, tt.got, uint32(check))
		}
	}
	if ieee := crc32.ChecksumIEEE([]byte("123456789")); Checksum([]byte("123456789")) == ieee {
		t.Errorf("the checksum is IEEE's %#x, want Castagnoli's", ieee)
	}
}
