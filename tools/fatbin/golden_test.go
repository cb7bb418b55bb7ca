package fatbin

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// The files in testdata/ were written by CUDA 12.4's fatbinary (testdata/make.sh). Reading each and
// writing its entries back must give the same bytes: Write produces fatbinary's layout exactly.
func TestGoldenRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		file  string
		kinds []Kind
		arch  []uint32
	}{
		{"elf.fatbin", []Kind{KindELF}, []uint32{80}},
		{"mix.fatbin", []Kind{KindELF, KindELF, KindPTX}, []uint32{80, 90, 75}},
		{"ident.fatbin", []Kind{KindELF, KindPTX}, []uint32{80, 75}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			golden := readGolden(t, tc.file)
			f, err := Read(golden)
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Entries) != len(tc.kinds) {
				t.Fatalf("%d entries, want %d", len(f.Entries), len(tc.kinds))
			}
			for i, e := range f.Entries {
				if e.Kind != tc.kinds[i] || e.Arch != tc.arch[i] {
					t.Errorf("entry %d: %s sm_%d, want %s sm_%d", i, e.Kind, e.Arch, tc.kinds[i], tc.arch[i])
				}
			}
			got, err := Marshal(f.Entries, WriteOptions{ExactFlags: true})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, golden) {
				t.Errorf("rewritten %s differs from fatbinary's (%d vs %d bytes); first difference at %#x",
					tc.file, len(got), len(golden), firstDiff(got, golden))
			}
		})
	}
}

// fatbinary's LZ4 output decompresses to the same images that its uncompressed output holds.
func TestGoldenLZ4(t *testing.T) {
	plain, err := Read(readGolden(t, "mix.fatbin"))
	if err != nil {
		t.Fatal(err)
	}
	packed, err := Read(readGolden(t, "mix_lz4.fatbin"))
	if err != nil {
		t.Fatal(err)
	}
	if len(packed.Entries) != len(plain.Entries) {
		t.Fatalf("%d entries, want %d", len(packed.Entries), len(plain.Entries))
	}
	for i, e := range packed.Entries {
		if e.Compression != CompressionLZ4 {
			t.Errorf("entry %d: compression %s, want lz4", i, e.Compression)
		}
		want := plain.Entries[i].Payload
		if e.Kind == KindELF {
			want = want[:len(e.Payload)] // uncompressed ELF payloads come back padded to 8
		}
		if !bytes.Equal(e.Payload, want) {
			t.Errorf("entry %d: decompressed payload differs from the uncompressed file's", i)
		}
	}
}

func readGolden(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// CUDA 13.0's nvcc (run on the H200; see testdata/README.md) writes a different header shape: no
// identifier slot, zstd-compressed PTX, family-specific flags and binary data in the options slot of
// sm_100f cubins. The reader takes all of it.
func TestGoldenCUDA13(t *testing.T) {
	for _, tc := range []struct {
		file  string
		names []string
	}{
		{"cuda13_nvcc.fatbin", []string{"elf sm_80", "ptx sm_80", "elf sm_90"}},
		{"cuda13_nvcc_af.fatbin", []string{"elf sm_90a", "ptx sm_90a", "elf sm_100f", "ptx sm_100f"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			f, err := Read(readGolden(t, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, e := range f.Entries {
				names = append(names, e.Kind.String()+" "+e.ArchName())
				switch e.Kind {
				case KindPTX:
					if e.Compression != CompressionZstd || !bytes.Contains(e.Payload, []byte(".version 9.0")) {
						t.Errorf("%s: PTX entry: compression %s, payload %.40q", e.ArchName(), e.Compression, e.Payload)
					}
				case KindELF:
					if !bytes.HasPrefix(e.Payload, []byte("\x7fELF")) || e.Minor != 8 {
						t.Errorf("%s: ELF entry: code version %d.%d, payload %.8q", e.ArchName(), e.Major, e.Minor, e.Payload)
					}
				}
			}
			if fmt.Sprint(names) != fmt.Sprint(tc.names) {
				t.Errorf("entries %q, want %q", names, tc.names)
			}
		})
	}
}

// CUDA 12.4 nvcc -gencode arch=compute_80,code=lto_80 writes an obfuscated, LZ4-flagged NVVM entry
// (cuobjdump cannot decode it either). The reader keeps its bytes, and writing it back gives the file.
func TestGoldenObfuscatedLTO(t *testing.T) {
	golden := readGolden(t, "cuda12_nvcc_lto.fatbin")
	f, err := Read(golden)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Entries) != 1 {
		t.Fatalf("%d entries, want 1", len(f.Entries))
	}
	e := f.Entries[0]
	if e.Kind != KindNVVM || e.Arch != 80 || e.Flags&FlagObfuscated == 0 || e.Compression != CompressionLZ4 || e.Options == "" {
		t.Errorf("entry: %s options %q", e.Summary(), e.Options)
	}
	got, err := Marshal(f.Entries, WriteOptions{ExactFlags: true})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, golden) {
		t.Errorf("rewritten file differs from nvcc's (%d vs %d bytes); first difference at %#x", len(got), len(golden), firstDiff(got, golden))
	}
}
