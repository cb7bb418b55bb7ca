package fatbin

// This file holds every offset and fixed value of the on-disk layout, so that
// a correction found by comparing with real fatbinary output is a one-line
// change here.

// Magic is the first four bytes of a fatbin (stored little-endian:
// 50 ED 55 BA).
const Magic uint32 = 0xBA55ED50

// File header.
const (
	fileVersion    = 1    // u16 at 0x04
	fileHeaderSize = 0x10 // u16 at 0x06, and the size of the file header

	fileOffMagic      = 0x00
	fileOffVersion    = 0x04
	fileOffHeaderSize = 0x06
	fileOffBodySize   = 0x08
)

// Entry header, offsets from the start of the entry.
const (
	offKind             = 0x00 // u16
	offField02          = 0x02 // u16, 0x0101 observed
	offHeaderSize       = 0x04 // u32
	offStoredSize       = 0x08 // u64
	offCompressedSize   = 0x10 // u32
	offOptionsDesc      = 0x14 // u32
	offMinor            = 0x18 // u16
	offMajor            = 0x1A // u16
	offArch             = 0x1C // u32
	offIdentOffset      = 0x20 // u32
	offIdentLength      = 0x24 // u32
	offFlags            = 0x28 // u64
	offField30          = 0x30 // u64, 0 observed
	offUncompressedSize = 0x38 // u64

	// entryFixedSize is the size of the part of the entry header that every
	// entry has; the options descriptor and strings come after it.
	entryFixedSize = 0x40

	// optionsDescSize is the size of the options descriptor
	// {u32 offset in header, u32 length without NUL}.
	optionsDescSize = 8

	// defaultField02 is the value of the u16 at 0x02 in every file seen.
	defaultField02 = 0x0101
)

// align8 rounds n up to a multiple of 8. Callers guarantee n+7 does not
// overflow.
func align8(n uint64) uint64 { return (n + 7) &^ 7 }
