// Package crc32c owns the one checksum of tateti-lab's binary files: the
// CRC-32C (Castagnoli) of database tiers and parts, reach bits, searched
// answers, and journals of answers and games.
package crc32c

import (
	"hash"
	"hash/crc32"
	"sync"
)

// table gives the CRC-32C polynomial's table, made on first use: making
// it sets up the processor's tables too (about 0.2 ms), which a run that
// reads no binary file should not pay at its start.
var table = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// Checksum gives the CRC-32C of b.
func Checksum(b []byte) uint32 { return crc32.Checksum(b, table()) }

// Update gives the CRC-32C of the bytes whose checksum is crc followed by
// b.
func Update(crc uint32, b []byte) uint32 { return crc32.Update(crc, table(), b) }

// New gives a hash of the CRC-32C, for bytes written a piece at a time.
func New() hash.Hash32 { return crc32.New(table()) }
