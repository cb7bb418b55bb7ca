package fatbin

import "testing"

// FuzzRead checks that Read never panics and that any fatbin it accepts
// rewrites (Marshal with ExactFlags) and re-reads to the same entries.
func FuzzRead(f *testing.F) {
	seeds := [][]Entry{
		nil,
		{{Kind: KindELF, Arch: 80, Major: 1, Minor: 7, Payload: elfPayload(64, 1)}},
		{{Kind: KindPTX, Arch: 90, Major: 8, Minor: 0, Payload: []byte(".version 8.0\n.target sm_90\n"), Options: "-O3", Identifier: "a.cu"}},
		{
			{Kind: KindELF, Arch: 80, Payload: elfPayload(512, 2), Compression: CompressionLZ4, Identifier: "k.cu"},
			{Kind: KindPTX, Arch: 80, Payload: ptxText(80, 3), Compression: CompressionLZ4},
		},
		{
			{Kind: KindELF, Arch: 100, Payload: elfPayload(512, 3), Compression: CompressionZstd},
			{Kind: KindPTX, Arch: 100, Payload: ptxText(100, 3), Compression: CompressionZstd, Options: "-lineinfo"},
			{Kind: KindNVVM, Arch: 100, Payload: []byte("BC\xc0\xde1234"), Raw: &RawFields{Field02: 7, Field30: 9}},
		},
		{{Kind: KindELF, Arch: 80}, {Kind: KindPTX, Arch: 80}},
	}
	for _, s := range seeds {
		data, err := Marshal(s, WriteOptions{})
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkRoundTrip(t, data)
		// Find must not panic either, and must find a container at 0
		// whenever Read accepts the input.
		offs := Find(data)
		if _, err := Read(data); err == nil && (len(offs) == 0 || offs[0] != 0) {
			t.Fatalf("Read accepts the input but Find returns %v", offs)
		}
	})
}
