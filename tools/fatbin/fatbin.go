package fatbin

import (
	"fmt"
	"path"
	"strconv"
	"strings"
)

// Kind is the type of an entry's payload, the u16 at offset 0 of the entry
// header.
type Kind uint16

// Entry kinds.
const (
	// KindPTX is PTX assembly text.
	KindPTX Kind = 1
	// KindELF is a cubin: an ELF image for one architecture.
	KindELF Kind = 2
	// KindNVVM is NVVM IR (LTO-IR), for link-time optimization.
	KindNVVM Kind = 8
)

// Valid reports whether k is a kind this package knows.
func (k Kind) Valid() bool {
	return k == KindPTX || k == KindELF || k == KindNVVM
}

// String returns "ptx", "elf" or "nvvm", or "Kind(N)" for an unknown kind.
func (k Kind) String() string {
	switch k {
	case KindPTX:
		return "ptx"
	case KindELF:
		return "elf"
	case KindNVVM:
		return "nvvm"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// MarshalText encodes k as its String form.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText decodes "ptx", "elf" or "nvvm".
func (k *Kind) UnmarshalText(b []byte) error {
	switch string(b) {
	case "ptx":
		*k = KindPTX
	case "elf":
		*k = KindELF
	case "nvvm":
		*k = KindNVVM
	default:
		return fmt.Errorf("fatbin: unknown kind %q", b)
	}
	return nil
}

// Compression is how an entry's payload is stored.
type Compression uint8

// Compression methods.
const (
	// CompressionNone stores the payload as it is.
	CompressionNone Compression = iota
	// CompressionLZ4 stores the payload as one raw LZ4 block (no LZ4 frame);
	// the entry's flags carry FlagLZ4.
	CompressionLZ4
	// CompressionZstd stores the payload as a zstd frame; the entry's flags
	// carry FlagZstd.
	CompressionZstd
)

// Valid reports whether c is one of the defined methods.
func (c Compression) Valid() bool { return c <= CompressionZstd }

// String returns "none", "lz4" or "zstd", or "Compression(N)".
func (c Compression) String() string {
	switch c {
	case CompressionNone:
		return "none"
	case CompressionLZ4:
		return "lz4"
	case CompressionZstd:
		return "zstd"
	}
	return "Compression(" + strconv.Itoa(int(c)) + ")"
}

// MarshalText encodes c as its String form.
func (c Compression) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText decodes "none" (or ""), "lz4" or "zstd".
func (c *Compression) UnmarshalText(b []byte) error {
	switch string(b) {
	case "", "none":
		*c = CompressionNone
	case "lz4":
		*c = CompressionLZ4
	case "zstd":
		*c = CompressionZstd
	default:
		return fmt.Errorf("fatbin: unknown compression %q", b)
	}
	return nil
}

// Bits of Entry.Flags, the u64 at offset 0x28 of the entry header. The
// producer and Mac bits come from third-party reverse engineering and have
// not been seen set in real files.
const (
	// Flag64Bit marks code compiled for a 64-bit host address size.
	Flag64Bit uint64 = 0x1
	// FlagDebug marks code compiled with debug information.
	FlagDebug uint64 = 0x2
	// FlagProducerCUDA marks code produced by the CUDA toolchain.
	FlagProducerCUDA uint64 = 0x4
	// FlagProducerOpenCL marks code produced by an OpenCL toolchain.
	FlagProducerOpenCL uint64 = 0x8
	// FlagHostLinux marks code built for a Linux host.
	FlagHostLinux uint64 = 0x10
	// FlagHostMac marks code built for a macOS host.
	FlagHostMac uint64 = 0x20
	// FlagHostWindows marks code built for a Windows host.
	FlagHostWindows uint64 = 0x40
	// FlagLZ4 marks a payload stored as a raw LZ4 block.
	FlagLZ4 uint64 = 0x2000
	// FlagZstd marks a payload stored as a zstd frame.
	FlagZstd uint64 = 0x8000
	// FlagObfuscated marks a payload NVIDIA stores obfuscated (CUDA 12.4 nvcc's LTO/NVVM entries,
	// with a key-like value in the u64 at 0x30): it cannot be decoded without NVIDIA's key, so Read
	// returns the stored bytes as they are and Write stores them back unchanged.
	FlagObfuscated uint64 = 0x10000
	// FlagArchSpecific marks code for an architecture-specific target (sm_90a, compute_90a): it runs
	// only on exactly that chip. Seen in CUDA 12.4 fatbinary and CUDA 13.0 nvcc output.
	FlagArchSpecific uint64 = 0x100000
	// FlagFamilySpecific marks code for a family-specific target (sm_100f, compute_100f): it runs on
	// the chips of that family. Seen in CUDA 13.0 nvcc output.
	FlagFamilySpecific uint64 = 0x200000
	// FlagELFData marks an ELF entry whose options slot holds binary data rather than ptxas options
	// (CUDA 13.0 nvcc writes it for sm_100f cubins; its meaning is not documented).
	FlagELFData uint64 = 0x1000000

	// FlagCompressionMask is the set of bits that Write derives from the
	// compression it actually applies.
	FlagCompressionMask = FlagLZ4 | FlagZstd

	// DefaultFlags is what Write stores for an entry whose Flags are zero
	// apart from compression bits, unless WriteOptions.ExactFlags is set:
	// 64-bit code for a Linux host.
	DefaultFlags = Flag64Bit | FlagHostLinux
)

var flagNames = []struct {
	bit  uint64
	name string
}{
	{Flag64Bit, "64bit"},
	{FlagDebug, "debug"},
	{FlagProducerCUDA, "cuda"},
	{FlagProducerOpenCL, "opencl"},
	{FlagHostLinux, "linux"},
	{FlagHostMac, "mac"},
	{FlagHostWindows, "windows"},
	{FlagLZ4, "lz4"},
	{FlagZstd, "zstd"},
	{FlagObfuscated, "obfuscated"},
	{FlagArchSpecific, "arch-specific"},
	{FlagFamilySpecific, "family-specific"},
	{FlagELFData, "elf-data"},
}

// FlagString names the bits set in flags, joined by "|", in increasing bit
// order, with any unnamed bits last in hex: "64bit|linux|lz4|0x100". It
// returns "0" for no bits.
func FlagString(flags uint64) string {
	if flags == 0 {
		return "0"
	}
	var parts []string
	for _, f := range flagNames {
		if flags&f.bit != 0 {
			parts = append(parts, f.name)
			flags &^= f.bit
		}
	}
	if flags != 0 {
		parts = append(parts, "0x"+strconv.FormatUint(flags, 16))
	}
	return strings.Join(parts, "|")
}

// RawFields holds entry header values that this package stores but does not
// interpret. A nil *RawFields in an Entry means the values seen in every real
// file so far; Read leaves Entry.Raw nil unless a value differs from those,
// so that Write reproduces it.
type RawFields struct {
	// Field02 is the u16 at offset 0x02, 0x0101 in every file seen.
	Field02 uint16 `json:"field02"`
	// Field30 is the u64 at offset 0x30, 0 in every file seen.
	Field30 uint64 `json:"field30"`
}

// Entry is one payload of a fatbin together with its header fields.
//
// Write uses the fields from Kind to Raw. The fields after Raw describe how
// Read found the entry in the file; Write ignores them.
type Entry struct {
	// Kind is the payload type.
	Kind Kind `json:"kind"`
	// Arch is the architecture number, 80 for sm_80 (and for compute_80
	// PTX).
	Arch uint32 `json:"arch"`
	// Major and Minor are the PTX ISA version of a PTX entry (8.0 as 8, 0),
	// or the ELF code version of an ELF entry (1.7 with CUDA 11.8, 1.8 with
	// CUDA 13.0). Write stores them as given; it supplies no default.
	Major uint16 `json:"major"`
	// Minor: see Major.
	Minor uint16 `json:"minor"`
	// Flags is the raw flags word (Flag64Bit, FlagHostLinux, ...). Write
	// replaces the compression bits (FlagCompressionMask) with the ones for
	// the compression it applies, and stores DefaultFlags when the rest is
	// zero, unless WriteOptions.ExactFlags is set.
	Flags uint64 `json:"flags"`
	// Identifier is the entry's identifier string (often a source or object
	// file name); empty means none. It must not contain NUL.
	Identifier string `json:"identifier,omitempty"`
	// Options is the ptxas options string recorded with a PTX entry; empty
	// means none. It must not contain NUL.
	Options string `json:"options,omitempty"`
	// Payload is the uncompressed image: PTX text without its trailing NUL,
	// an ELF image, or NVVM IR. After Read, an uncompressed payload aliases
	// the input data and, for ELF and NVVM, includes the zero padding to a
	// multiple of 8 (see the package documentation).
	Payload []byte `json:"-"`
	// Compression is the method to store the payload with. Write falls back
	// to CompressionNone when compressing would not make the stored (padded)
	// payload smaller, or when the payload is empty. Read sets the method
	// the file uses.
	Compression Compression `json:"compression"`
	// Raw holds uninterpreted header values; nil means the usual ones.
	Raw *RawFields `json:"raw,omitempty"`

	// Offset is the byte offset of the entry header in the file (Read only).
	Offset int64 `json:"offset"`
	// HeaderSize is the entry header size in bytes, u32 at 0x04 (Read only).
	HeaderSize uint32 `json:"header_size"`
	// StoredSize is the stored payload size including padding, u64 at 0x08
	// (Read only).
	StoredSize uint64 `json:"stored_size"`
	// CompressedSize is the compressed size without padding, u32 at 0x10
	// (Read only).
	CompressedSize uint32 `json:"compressed_size"`
	// UncompressedSize is the u64 at 0x38, the uncompressed size of a
	// compressed payload including a PTX NUL (Read only).
	UncompressedSize uint64 `json:"uncompressed_size"`
	// Header is the raw entry header, HeaderSize bytes as stored (Read
	// only). It aliases the input data.
	Header []byte `json:"-"`
	// Stored is the raw stored payload, StoredSize bytes including padding;
	// for a compressed entry the compressed stream is
	// Stored[:CompressedSize] (Read only). It aliases the input data.
	Stored []byte `json:"-"`
}

// ArchName returns "sm_" followed by the architecture number, e.g. "sm_80", with "a" for
// architecture-specific entries ("sm_90a") and "f" for family-specific ones ("sm_100f").
func (e Entry) ArchName() string {
	name := "sm_" + strconv.FormatUint(uint64(e.Arch), 10)
	switch {
	case e.Flags&FlagArchSpecific != 0:
		name += "a"
	case e.Flags&FlagFamilySpecific != 0:
		name += "f"
	}
	return name
}

// Extension returns the file extension, without the dot, that extracted
// payloads of this kind get: "cubin" for ELF, "ptx" for PTX, "nvvm" for NVVM
// IR, "bin" for anything else.
func (e Entry) Extension() string {
	switch e.Kind {
	case KindELF:
		return "cubin"
	case KindPTX:
		return "ptx"
	case KindNVVM:
		return "nvvm"
	}
	return "bin"
}

// FileName returns the name to extract the entry's payload to, as cuobjdump
// names it: "<base>.<index>.sm_<arch>.<ext>", for example "app.1.sm_80.cubin"
// (cuobjdump -xelf all) or "app.1.sm_75.ptx" (cuobjdump -xptx all). base is
// the fatbin's file name without its extension; index counts entries of the
// same kind from 1, in file order (cuobjdump numbers ELF and PTX files
// separately). An entry with an identifier is named after it instead, without
// an index: identifier "scale.cu" gives "scale.sm_80.cubin".
//
// cuobjdump (CUDA 13.0) names family-specific cubins without the "f" (sm_100), family-specific PTX
// with it (sm_100f); FileName does the same.
func (e Entry) FileName(base string, index int) string {
	arch := e.ArchName()
	if e.Kind == KindELF && e.Flags&FlagFamilySpecific != 0 {
		arch = strings.TrimSuffix(arch, "f")
	}
	if e.Identifier != "" {
		id := path.Base(e.Identifier)
		return strings.TrimSuffix(id, path.Ext(id)) + "." + arch + "." + e.Extension()
	}
	return base + "." + strconv.Itoa(index) + "." + arch + "." + e.Extension()
}

// Summary returns a one-line description of the entry for listings, e.g.
//
//	elf sm_80 1.7 flags=64bit|linux|lz4 size=1048576 stored=40960(lz4) id="a.cu"
//
// size is the payload length; stored and its method appear for entries
// returned by Read.
func (e Entry) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %d.%d flags=%s size=%d", e.Kind, e.ArchName(),
		e.Major, e.Minor, FlagString(e.Flags), len(e.Payload))
	if e.Header != nil {
		fmt.Fprintf(&b, " stored=%d(%s)", e.StoredSize, e.Compression)
	} else if e.Compression != CompressionNone {
		fmt.Fprintf(&b, " compression=%s", e.Compression)
	}
	if e.Identifier != "" {
		fmt.Fprintf(&b, " id=%q", e.Identifier)
	}
	if e.Options != "" {
		fmt.Fprintf(&b, " options=%q", e.Options)
	}
	return b.String()
}

// File is a parsed fatbin.
type File struct {
	// Entries are the entries in file order.
	Entries []Entry
	// Size is the number of bytes the container occupies: the 16-byte file
	// header plus the size it declares.
	Size int64
}

// FormatError reports malformed input to Read. Its message names the entry
// index and the byte offset of the bad field.
type FormatError struct {
	// Entry is the 0-based index of the entry at fault, or -1 for the file
	// header.
	Entry int
	// Offset is the byte offset in the input of the field at fault.
	Offset int64
	// Field names the field at fault, e.g. "header size" or "payload".
	Field string
	// Msg says what is wrong with it.
	Msg string
	// Err is the underlying error, if any (e.g. from a decompressor).
	Err error
}

// Error formats e as
// "fatbin: entry 2: offset 0x1a8: kind: unknown kind 5".
func (e *FormatError) Error() string {
	var b strings.Builder
	b.WriteString("fatbin: ")
	if e.Entry < 0 {
		b.WriteString("file header")
	} else {
		b.WriteString("entry ")
		b.WriteString(strconv.Itoa(e.Entry))
	}
	fmt.Fprintf(&b, ": offset %#x: %s: %s", e.Offset, e.Field, e.Msg)
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *FormatError) Unwrap() error { return e.Err }
