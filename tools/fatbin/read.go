package fatbin

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// Read parses data, which must be exactly one fatbin container, and returns
// its entries in file order with payloads decompressed. Bytes after the
// container are an error; use ReadPrefix to parse a container followed by
// other data.
//
// Uncompressed payloads, and the Header and Stored fields of every entry,
// alias data rather than copy it (with their capacity clipped, so appending
// to them does not write into data): data must not be modified while the
// File is in use.
//
// Malformed input yields a *FormatError naming the entry and the byte offset
// of the bad field; Read does not panic on any input.
func Read(data []byte) (*File, error) {
	f, err := ReadPrefix(data)
	if err != nil {
		return nil, err
	}
	if f.Size != int64(len(data)) {
		return nil, &FormatError{Entry: -1, Offset: f.Size, Field: "file size",
			Msg: fmt.Sprintf("%d bytes of trailing data after the container", int64(len(data))-f.Size)}
	}
	return f, nil
}

// ReadPrefix parses the fatbin container at the start of data, ignoring
// whatever follows it; File.Size says how many bytes it occupies. It
// otherwise behaves like Read.
func ReadPrefix(data []byte) (*File, error) {
	le := binary.LittleEndian
	if len(data) < fileHeaderSize {
		return nil, &FormatError{Entry: -1, Offset: int64(len(data)), Field: "file header",
			Msg: fmt.Sprintf("truncated: %d bytes, need %d", len(data), fileHeaderSize)}
	}
	if m := le.Uint32(data[fileOffMagic:]); m != Magic {
		return nil, &FormatError{Entry: -1, Offset: fileOffMagic, Field: "magic",
			Msg: fmt.Sprintf("got %#08x, want %#08x", m, Magic)}
	}
	if v := le.Uint16(data[fileOffVersion:]); v != fileVersion {
		return nil, &FormatError{Entry: -1, Offset: fileOffVersion, Field: "version",
			Msg: fmt.Sprintf("unsupported version %d, want %d", v, fileVersion)}
	}
	if hs := le.Uint16(data[fileOffHeaderSize:]); hs != fileHeaderSize {
		return nil, &FormatError{Entry: -1, Offset: fileOffHeaderSize, Field: "header size",
			Msg: fmt.Sprintf("got %#x, want %#x", hs, fileHeaderSize)}
	}
	body := le.Uint64(data[fileOffBodySize:])
	if body > uint64(len(data)-fileHeaderSize) {
		return nil, &FormatError{Entry: -1, Offset: fileOffBodySize, Field: "size",
			Msg: fmt.Sprintf("declares %d bytes after the header, only %d present", body, len(data)-fileHeaderSize)}
	}
	end := fileHeaderSize + int(body)
	data = data[:end:end]

	f := &File{Size: int64(end)}
	for off := fileHeaderSize; off < end; {
		e, next, err := readEntry(data, off, len(f.Entries))
		if err != nil {
			return nil, err
		}
		f.Entries = append(f.Entries, e)
		off = next
	}
	return f, nil
}

// readEntry parses the entry at data[off:] (data ends where the container
// does) and returns it with the offset of the next entry.
func readEntry(data []byte, off, index int) (Entry, int, error) {
	le := binary.LittleEndian
	fail := func(field int, name, format string, args ...any) (Entry, int, error) {
		return Entry{}, 0, &FormatError{Entry: index, Offset: int64(off + field), Field: name,
			Msg: fmt.Sprintf(format, args...)}
	}
	left := len(data) - off
	if left < entryFixedSize {
		return fail(0, "entry header", "truncated: %d bytes left in the container, need %d", left, entryFixedSize)
	}
	h := data[off : off+entryFixedSize]

	e := Entry{Offset: int64(off)}
	e.Kind = Kind(le.Uint16(h[offKind:]))
	if !e.Kind.Valid() {
		return fail(offKind, "kind", "unknown kind %d", uint16(e.Kind))
	}
	e.HeaderSize = le.Uint32(h[offHeaderSize:])
	if e.HeaderSize < entryFixedSize {
		return fail(offHeaderSize, "header size", "%#x is smaller than the fixed header (%#x)", e.HeaderSize, entryFixedSize)
	}
	if uint64(e.HeaderSize) > uint64(left) {
		return fail(offHeaderSize, "header size", "%#x extends past the end of the container (%d bytes left)", e.HeaderSize, left)
	}
	hs := int(e.HeaderSize)
	e.Header = data[off : off+hs : off+hs]
	h = e.Header

	e.StoredSize = le.Uint64(h[offStoredSize:])
	if e.StoredSize > uint64(left-hs) {
		return fail(offStoredSize, "stored size", "%d bytes extend past the end of the container (%d bytes left after the header)", e.StoredSize, left-hs)
	}
	start := off + hs
	next := start + int(e.StoredSize)
	e.Stored = data[start:next:next]

	e.CompressedSize = le.Uint32(h[offCompressedSize:])
	e.Minor = le.Uint16(h[offMinor:])
	e.Major = le.Uint16(h[offMajor:])
	e.Arch = le.Uint32(h[offArch:])
	e.Flags = le.Uint64(h[offFlags:])
	e.UncompressedSize = le.Uint64(h[offUncompressedSize:])
	if f02, f30 := le.Uint16(h[offField02:]), le.Uint64(h[offField30:]); f02 != defaultField02 || f30 != 0 {
		e.Raw = &RawFields{Field02: f02, Field30: f30}
	}

	// Strings.
	if d := le.Uint32(h[offOptionsDesc:]); d != 0 {
		if d < entryFixedSize || uint64(d)+optionsDescSize > uint64(hs) {
			return fail(offOptionsDesc, "options descriptor offset", "%#x is outside the header's variable part [%#x, %#x)", d, entryFixedSize, hs)
		}
		s, field, msg := headerString(h, le.Uint32(h[d:]), le.Uint32(h[d+4:]), e.Kind != KindPTX)
		if msg != "" {
			return fail(int(d)+field*4, "options", "%s", msg)
		}
		e.Options = s
	}
	s, field, msg := headerString(h, le.Uint32(h[offIdentOffset:]), le.Uint32(h[offIdentLength:]), false)
	if msg != "" {
		return fail(offIdentOffset+field*4, "identifier", "%s", msg)
	}
	e.Identifier = s

	// Payload.
	switch comp := e.Flags & FlagCompressionMask; comp {
	case 0:
		e.Compression = CompressionNone
		e.Payload = e.Stored
	case FlagLZ4, FlagZstd:
		e.Compression = CompressionLZ4
		if comp == FlagZstd {
			e.Compression = CompressionZstd
		}
		if uint64(e.CompressedSize) > e.StoredSize {
			return fail(offCompressedSize, "compressed size", "%d is larger than the stored size %d", e.CompressedSize, e.StoredSize)
		}
		src := e.Stored[:e.CompressedSize]
		limit := uint64(len(src))*lz4MaxRatio + 16
		if e.Compression == CompressionZstd {
			// RLE blocks: 4 bytes (3-byte header, 1 byte) for up to 128 KiB.
			limit = uint64(len(src))*(128<<10/4) + 1<<17
		}
		if e.UncompressedSize > limit {
			return fail(offUncompressedSize, "uncompressed size", "%d is impossible for %d bytes of %s data", e.UncompressedSize, len(src), e.Compression)
		}
		n := int(e.UncompressedSize)
		if e.Flags&FlagObfuscated != 0 {
			e.Payload = src // not decodable without NVIDIA's key: kept as stored
		} else if n > 0 || len(src) > 0 {
			var p []byte
			var err error
			if e.Compression == CompressionLZ4 {
				p, err = decompressLZ4(src, n)
			} else {
				p, err = decompressZstd(src, n)
			}
			if err != nil {
				return Entry{}, 0, &FormatError{Entry: index, Offset: int64(start), Field: "payload",
					Msg: e.Compression.String() + " data does not decompress", Err: err}
			}
			e.Payload = p
		} else {
			e.Payload = []byte{}
		}
	default:
		return fail(offFlags, "flags", "both LZ4 and zstd compression bits set (%#x)", e.Flags)
	}
	if e.Kind == KindPTX && (e.Flags&FlagObfuscated == 0 || e.Compression == CompressionNone) {
		if i := bytes.IndexByte(e.Payload, 0); i >= 0 {
			e.Payload = e.Payload[:i:i]
		}
	}
	return e, next, nil
}

// headerString returns the string of length n at offset off in the entry
// header h. An offset of 0 means no string. Unless binary is set, the string
// may not contain NUL bytes (CUDA 13 stores binary data in the options slot of
// some ELF entries). On failure it returns a message and which of the pair is
// at fault (0 offset, 1 length).
func headerString(h []byte, off, n uint32, binary bool) (s string, field int, msg string) {
	if off == 0 {
		if n != 0 {
			return "", 1, fmt.Sprintf("length %d given without an offset", n)
		}
		return "", 0, ""
	}
	if off < entryFixedSize {
		return "", 0, fmt.Sprintf("offset %#x is inside the fixed header (%#x bytes)", off, entryFixedSize)
	}
	if uint64(off) >= uint64(len(h)) {
		return "", 0, fmt.Sprintf("offset %#x is past the header end %#x", off, len(h))
	}
	if uint64(off)+uint64(n) > uint64(len(h)) {
		return "", 1, fmt.Sprintf("[%#x, %#x) extends past the header end %#x", off, uint64(off)+uint64(n), len(h))
	}
	b := h[off : off+n]
	if !binary && bytes.IndexByte(b, 0) >= 0 {
		return "", 1, fmt.Sprintf("string at %#x contains a NUL byte within its length %d", off, n)
	}
	return string(b), 0, ""
}

// Find returns the offsets in data at which a fatbin container header
// appears to start: the magic number, version 1, header size 0x10 and a
// declared size that fits in data. The candidates are not validated further;
// pass data[off:] to ReadPrefix to parse one. Find is meant for sections
// holding several concatenated containers, such as .nv_fatbin.
func Find(data []byte) []int {
	var offs []int
	var magic [4]byte
	binary.LittleEndian.PutUint32(magic[:], Magic)
	le := binary.LittleEndian
	for base := 0; ; {
		i := bytes.Index(data[base:], magic[:])
		if i < 0 {
			return offs
		}
		off := base + i
		base = off + 1
		h := data[off:]
		if len(h) < fileHeaderSize ||
			le.Uint16(h[fileOffVersion:]) != fileVersion ||
			le.Uint16(h[fileOffHeaderSize:]) != fileHeaderSize ||
			le.Uint64(h[fileOffBodySize:]) > uint64(len(h)-fileHeaderSize) {
			continue
		}
		offs = append(offs, off)
	}
}
