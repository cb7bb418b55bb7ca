package fatbin

import (
	"bytes"
	"testing"
)

// benchEntries returns n ELF-shaped entries of about size bytes each.
func benchEntries(n, size int, c Compression) []Entry {
	entries := make([]Entry, n)
	for i := range entries {
		entries[i] = Entry{
			Kind: KindELF, Arch: uint32(50 + i%80), Major: 1, Minor: 8,
			Payload:     elfPayload(size+8*(i%16), uint64(i)),
			Compression: c,
			Identifier:  "bench.cu",
		}
	}
	return entries
}

func benchmarkWrite(b *testing.B, n, size int, c Compression) {
	entries := benchEntries(n, size, c)
	data, err := Marshal(entries, WriteOptions{})
	if err != nil {
		b.Fatal(err)
	}
	var raw int64
	for _, e := range entries {
		raw += int64(len(e.Payload))
	}
	b.SetBytes(raw)
	var buf bytes.Buffer
	buf.Grow(len(data))
	for b.Loop() {
		buf.Reset()
		if err := Write(&buf, entries, WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(data))/float64(raw), "stored/raw")
}

func benchmarkRead(b *testing.B, n, size int, c Compression) {
	entries := benchEntries(n, size, c)
	data, err := Marshal(entries, WriteOptions{})
	if err != nil {
		b.Fatal(err)
	}
	var raw int64
	for _, e := range entries {
		raw += int64(len(e.Payload))
	}
	b.SetBytes(raw)
	for b.Loop() {
		f, err := Read(data)
		if err != nil {
			b.Fatal(err)
		}
		if len(f.Entries) != n {
			b.Fatal("wrong entry count")
		}
	}
}

// BenchmarkWrite writes 100 uncompressed ~1 MB ELF-shaped entries into a
// preallocated buffer. Throughput counts payload bytes.
func BenchmarkWrite(b *testing.B) { benchmarkWrite(b, 100, 1<<20, CompressionNone) }

// BenchmarkMarshal is BenchmarkWrite through Marshal, which allocates the
// output each time.
func BenchmarkMarshal(b *testing.B) {
	entries := benchEntries(100, 1<<20, CompressionNone)
	var raw int64
	for _, e := range entries {
		raw += int64(len(e.Payload))
	}
	b.SetBytes(raw)
	for b.Loop() {
		if _, err := Marshal(entries, WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRead parses the fatbin of BenchmarkWrite. Uncompressed payloads
// alias the input, so this measures header parsing only.
func BenchmarkRead(b *testing.B) { benchmarkRead(b, 100, 1<<20, CompressionNone) }

// BenchmarkReadCopy is BenchmarkRead plus copying every payload out, an
// upper bound for callers that need owned payloads.
func BenchmarkReadCopy(b *testing.B) {
	data, err := Marshal(benchEntries(100, 1<<20, CompressionNone), WriteOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		f, err := Read(data)
		if err != nil {
			b.Fatal(err)
		}
		for i := range f.Entries {
			f.Entries[i].Payload = bytes.Clone(f.Entries[i].Payload)
		}
	}
}

// The compressed variants use 10 entries of ~1 MB.
func BenchmarkWriteLZ4(b *testing.B)  { benchmarkWrite(b, 10, 1<<20, CompressionLZ4) }
func BenchmarkReadLZ4(b *testing.B)   { benchmarkRead(b, 10, 1<<20, CompressionLZ4) }
func BenchmarkWriteZstd(b *testing.B) { benchmarkWrite(b, 10, 1<<20, CompressionZstd) }
func BenchmarkReadZstd(b *testing.B)  { benchmarkRead(b, 10, 1<<20, CompressionZstd) }
