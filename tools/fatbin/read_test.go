package fatbin

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

// fixture returns a valid fatbin of three entries and its parse:
//
//	0: ELF sm_80, LZ4, 4096 bytes
//	1: PTX sm_90, zstd, options "-O3", identifier "k.cu"
//	2: ELF sm_75, uncompressed, 256 bytes, identifier "x.cu"
func fixture(t testing.TB) ([]byte, *File) {
	t.Helper()
	data, err := Marshal([]Entry{
		{Kind: KindELF, Arch: 80, Major: 1, Minor: 7, Payload: elfPayload(4096, 1), Compression: CompressionLZ4},
		{Kind: KindPTX, Arch: 90, Major: 8, Minor: 0, Payload: ptxText(90, 30), Compression: CompressionZstd, Options: "-O3", Identifier: "k.cu"},
		{Kind: KindELF, Arch: 75, Major: 1, Minor: 7, Payload: elfPayload(256, 2), Identifier: "x.cu"},
	}, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := Read(data)
	if err != nil {
		t.Fatal(err)
	}
	if f.Entries[0].Compression != CompressionLZ4 || f.Entries[1].Compression != CompressionZstd {
		t.Fatal("fixture entries did not compress")
	}
	return data, f
}

func TestReadErrors(t *testing.T) {
	le := binary.LittleEndian
	type mut func(d []byte, f *File) []byte
	// at returns the absolute offset of rel within entry i (-1: the file).
	at := func(f *File, i int, rel int64) int64 {
		if i < 0 {
			return rel
		}
		return f.Entries[i].Offset + rel
	}
	put16 := func(i int, rel int64, v uint16) mut {
		return func(d []byte, f *File) []byte { le.PutUint16(d[at(f, i, rel):], v); return d }
	}
	put32 := func(i int, rel int64, v uint32) mut {
		return func(d []byte, f *File) []byte { le.PutUint32(d[at(f, i, rel):], v); return d }
	}
	put64 := func(i int, rel int64, v uint64) mut {
		return func(d []byte, f *File) []byte { le.PutUint64(d[at(f, i, rel):], v); return d }
	}
	payload := func(i int, change func(p []byte)) mut {
		return func(d []byte, f *File) []byte {
			e := f.Entries[i]
			start := e.Offset + int64(e.HeaderSize)
			change(d[start : start+int64(e.CompressedSize)])
			return d
		}
	}
	_, f0 := fixture(t)
	e0, e1 := f0.Entries[0], f0.Entries[1]

	tests := []struct {
		name   string
		mutate mut
		entry  int
		rel    int64 // offset of the field at fault within the entry (or file)
		relFn  func(f *File) int64
		field  string
		msg    string
	}{
		{name: "empty input", mutate: func(d []byte, _ *File) []byte { return d[:0] },
			entry: -1, rel: 0, field: "file header", msg: "truncated: 0 bytes, need 16"},
		{name: "truncated file header", mutate: func(d []byte, _ *File) []byte { return d[:10] },
			entry: -1, rel: 10, field: "file header", msg: "truncated: 10 bytes"},
		{name: "wrong magic", mutate: put32(-1, 0, 0x466243B1),
			entry: -1, rel: 0, field: "magic", msg: "got 0x466243b1, want 0xba55ed50"},
		{name: "wrong version", mutate: put16(-1, 4, 2),
			entry: -1, rel: 4, field: "version", msg: "unsupported version 2"},
		{name: "wrong header size", mutate: put16(-1, 6, 0x20),
			entry: -1, rel: 6, field: "header size", msg: "got 0x20, want 0x10"},
		{name: "size past end", mutate: func(d []byte, _ *File) []byte { return d[:len(d)-8] },
			entry: -1, rel: 8, field: "size", msg: "only"},
		{name: "size overflows", mutate: put64(-1, 8, math.MaxUint64),
			entry: -1, rel: 8, field: "size", msg: "declares 18446744073709551615 bytes"},
		{name: "trailing data", mutate: func(d []byte, _ *File) []byte { return append(d, 0, 0, 0, 0, 0, 0, 0, 0) },
			entry: -1, relFn: func(f *File) int64 { return f.Size }, field: "file size", msg: "8 bytes of trailing data"},
		{name: "truncated entry header", mutate: func(d []byte, f *File) []byte {
			end := f.Entries[2].Offset + 0x20
			le.PutUint64(d[8:], uint64(end-16))
			return d[:end]
		}, entry: 2, rel: 0, field: "entry header", msg: "truncated: 32 bytes left in the container, need 64"},
		{name: "unknown kind", mutate: put16(1, 0, 5),
			entry: 1, rel: 0, field: "kind", msg: "unknown kind 5"},
		{name: "header size below fixed part", mutate: put32(1, 4, 0x38),
			entry: 1, rel: 4, field: "header size", msg: "0x38 is smaller than the fixed header (0x40)"},
		{name: "header size zero", mutate: put32(0, 4, 0),
			entry: 0, rel: 4, field: "header size", msg: "smaller than the fixed header"},
		{name: "header size past end", mutate: put32(2, 4, 0x10000),
			entry: 2, rel: 4, field: "header size", msg: "0x10000 extends past the end of the container"},
		{name: "header size max", mutate: put32(0, 4, math.MaxUint32),
			entry: 0, rel: 4, field: "header size", msg: "extends past the end"},
		{name: "stored size past end", mutate: put64(2, 8, 1<<20),
			entry: 2, rel: 8, field: "stored size", msg: "1048576 bytes extend past the end of the container"},
		{name: "stored size overflows", mutate: put64(0, 8, math.MaxUint64),
			entry: 0, rel: 8, field: "stored size", msg: "extend past the end"},
		{name: "options descriptor outside header", mutate: put32(1, 0x14, 0x1000),
			entry: 1, rel: 0x14, field: "options descriptor offset", msg: "0x1000 is outside the header"},
		{name: "options descriptor in fixed part", mutate: put32(1, 0x14, 0x10),
			entry: 1, rel: 0x14, field: "options descriptor offset", msg: "0x10 is outside"},
		{name: "options string past header", mutate: put32(1, 0x4c, 0x100),
			entry: 1, rel: 0x4c, field: "options", msg: "extends past the header end"},
		{name: "options offset in fixed part", mutate: put32(1, 0x48, 0x20),
			entry: 1, rel: 0x48, field: "options", msg: "offset 0x20 is inside the fixed header"},
		{name: "identifier offset in fixed part", mutate: put32(2, 0x20, 0x8),
			entry: 2, rel: 0x20, field: "identifier", msg: "offset 0x8 is inside the fixed header"},
		{name: "identifier offset past header", mutate: put32(2, 0x20, 0x4000),
			entry: 2, rel: 0x20, field: "identifier", msg: "offset 0x4000 is past the header end"},
		{name: "identifier length past header", mutate: put32(2, 0x24, 0x1000),
			entry: 2, rel: 0x24, field: "identifier", msg: "extends past the header end"},
		{name: "identifier length overflows", mutate: put32(2, 0x24, math.MaxUint32),
			entry: 2, rel: 0x24, field: "identifier", msg: "extends past the header end"},
		{name: "identifier length without offset", mutate: put32(0, 0x24, 5),
			entry: 0, rel: 0x24, field: "identifier", msg: "length 5 given without an offset"},
		{name: "identifier contains NUL", mutate: put32(2, 0x24, 6),
			entry: 2, rel: 0x24, field: "identifier", msg: "contains a NUL byte"},
		{name: "both compression bits", mutate: put64(0, 0x28, 0x11|FlagLZ4|FlagZstd),
			entry: 0, rel: 0x28, field: "flags", msg: "both LZ4 and zstd"},
		{name: "compressed size past stored size", mutate: put32(0, 0x10, uint32(e0.StoredSize)+1),
			entry: 0, rel: 0x10, field: "compressed size", msg: "is larger than the stored size"},
		{name: "implausible lz4 size", mutate: put64(0, 0x38, 1<<40),
			entry: 0, rel: 0x38, field: "uncompressed size", msg: "1099511627776 is impossible for"},
		{name: "implausible zstd size", mutate: put64(1, 0x38, math.MaxUint64),
			entry: 1, rel: 0x38, field: "uncompressed size", msg: "impossible"},
		{name: "corrupt lz4", mutate: payload(0, func(p []byte) {
			for i := range p {
				p[i] = 0xff
			}
		}), entry: 0, rel: int64(e0.HeaderSize), field: "payload", msg: "lz4 data does not decompress: lz4:"},
		{name: "lz4 size too large", mutate: put64(0, 0x38, 4097),
			entry: 0, rel: int64(e0.HeaderSize), field: "payload", msg: "decompressed to 4096 bytes, header says 4097"},
		{name: "lz4 size too small", mutate: put64(0, 0x38, 4095),
			entry: 0, rel: int64(e0.HeaderSize), field: "payload", msg: "lz4 data does not decompress"},
		{name: "lz4 truncated", mutate: put32(0, 0x10, e0.CompressedSize-5),
			entry: 0, rel: int64(e0.HeaderSize), field: "payload", msg: "lz4 data does not decompress"},
		{name: "corrupt zstd magic", mutate: payload(1, func(p []byte) { p[0] ^= 0xff }),
			entry: 1, rel: int64(e1.HeaderSize), field: "payload", msg: "zstd data does not decompress: zstd:"},
		{name: "corrupt zstd body", mutate: payload(1, func(p []byte) { p[len(p)/2] ^= 0x55; p[len(p)/2+1] ^= 0x55 }),
			entry: 1, rel: int64(e1.HeaderSize), field: "payload", msg: "zstd data does not decompress"},
		{name: "zstd size mismatch", mutate: put64(1, 0x38, e1.UncompressedSize+1),
			entry: 1, rel: int64(e1.HeaderSize), field: "payload",
			msg: fmt.Sprintf("zstd frame declares %d bytes, header says %d", e1.UncompressedSize, e1.UncompressedSize+1)},
		{name: "zstd truncated", mutate: put32(1, 0x10, e1.CompressedSize-6),
			entry: 1, rel: int64(e1.HeaderSize), field: "payload", msg: "zstd data does not decompress"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data, f := fixture(t)
			data = tc.mutate(data, f)
			got, err := Read(data)
			if err == nil {
				t.Fatalf("Read succeeded with %d entries", len(got.Entries))
			}
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %T %v is not a *FormatError", err, err)
			}
			wantOff := at(f, tc.entry, tc.rel)
			if tc.relFn != nil {
				wantOff = tc.relFn(f)
			}
			if fe.Entry != tc.entry || fe.Offset != wantOff || fe.Field != tc.field {
				t.Errorf("got entry %d offset %#x field %q, want entry %d offset %#x field %q",
					fe.Entry, fe.Offset, fe.Field, tc.entry, wantOff, tc.field)
			}
			if (tc.field == "payload") != (errors.Unwrap(err) != nil) {
				t.Errorf("Unwrap = %v; want a cause exactly for payload errors", errors.Unwrap(err))
			}
			where := fmt.Sprintf("fatbin: entry %d: offset %#x: %s: ", tc.entry, wantOff, tc.field)
			if tc.entry < 0 {
				where = fmt.Sprintf("fatbin: file header: offset %#x: %s: ", wantOff, tc.field)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, where) || !strings.Contains(msg, tc.msg) {
				t.Errorf("error %q\nwant prefix %q and %q", msg, where, tc.msg)
			}
		})
	}
}

// TestReadMutations flips every byte of a small fatbin's headers and a
// sample of its payload bytes in a few ways: Read must never panic, and
// whatever it accepts must survive a rewrite.
func TestReadMutations(t *testing.T) {
	orig, f := fixture(t)
	var positions []int
	for _, e := range f.Entries {
		for i := range int(e.HeaderSize) {
			positions = append(positions, int(e.Offset)+i)
		}
		for i := 0; i < int(e.StoredSize); i += 37 {
			positions = append(positions, int(e.Offset)+int(e.HeaderSize)+i)
		}
	}
	for i := range fileHeaderSize {
		positions = append(positions, i)
	}
	accepted := 0
	for _, pos := range positions {
		for _, v := range []func(byte) byte{
			func(b byte) byte { return 0 },
			func(b byte) byte { return 0xff },
			func(b byte) byte { return b + 1 },
			func(b byte) byte { return b - 1 },
			func(b byte) byte { return b ^ 0x80 },
		} {
			data := bytes.Clone(orig)
			data[pos] = v(data[pos])
			if checkRoundTrip(t, data) {
				accepted++
			}
		}
	}
	t.Logf("%d of %d mutations accepted", accepted, 5*len(positions))
}

// checkRoundTrip reads data and, if Read accepts it, checks that writing the
// entries back and reading them again gives the same entries. It reports
// whether Read accepted data.
func checkRoundTrip(t testing.TB, data []byte) bool {
	t.Helper()
	f, err := Read(data)
	if err != nil {
		var fe *FormatError
		if !errors.As(err, &fe) {
			t.Fatalf("Read error %T is not a *FormatError: %v", err, err)
		}
		return false
	}
	if f.Size != int64(len(data)) {
		t.Fatalf("Size %d != len %d", f.Size, len(data))
	}
	out, err := Marshal(f.Entries, WriteOptions{ExactFlags: true})
	if err != nil {
		t.Fatalf("Marshal of entries Read accepted: %v", err)
	}
	g, err := Read(out)
	if err != nil {
		t.Fatalf("Read of rewritten fatbin: %v", err)
	}
	if len(g.Entries) != len(f.Entries) {
		t.Fatalf("rewritten: %d entries, want %d", len(g.Entries), len(f.Entries))
	}
	for i := range f.Entries {
		a, b := f.Entries[i], g.Entries[i]
		if a.Kind != b.Kind || a.Arch != b.Arch || a.Major != b.Major || a.Minor != b.Minor ||
			a.Flags&^FlagCompressionMask != b.Flags&^FlagCompressionMask ||
			a.Identifier != b.Identifier || a.Options != b.Options ||
			(a.Raw == nil) != (b.Raw == nil) || (a.Raw != nil && *a.Raw != *b.Raw) {
			t.Fatalf("entry %d changed in a rewrite:\n was %s raw=%+v\n now %s raw=%+v", i, a.Summary(), a.Raw, b.Summary(), b.Raw)
		}
		// A compressed ELF payload may come back uncompressed (when it no
		// longer shrinks), and then with its zero padding.
		want := a.Payload
		if a.Kind != KindPTX && b.Compression == CompressionNone {
			want = padded(a.Payload)
		}
		if !bytes.Equal(want, b.Payload) {
			t.Fatalf("entry %d payload changed in a rewrite: %d bytes, was %d", i, len(b.Payload), len(a.Payload))
		}
		if b.Compression != CompressionNone && b.Compression != a.Compression {
			t.Fatalf("entry %d compression %s became %s", i, a.Compression, b.Compression)
		}
	}
	return true
}
