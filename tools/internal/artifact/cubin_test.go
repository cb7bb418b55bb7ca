package artifact

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/fatbin"
	"github.com/rulesgpu/rules_gpu/tools/internal/artifact/artifacttest"
	"github.com/rulesgpu/rules_gpu/tools/internal/testtool"
)

// realCubins are whole cubins written by NVIDIA's tools: CUDA 12.4 ptxas's and CUDA 13.0 nvcc's.
func realCubins(t testing.TB) map[string][]byte {
	t.Helper()
	cubins := map[string][]byte{"cuda12_sm90.cubin": artifacttest.RealCubin}
	for _, name := range []string{"cuda13_sm90.cubin", "cuda13_sm90a.cubin"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		cubins[name] = data
	}
	return cubins
}

// The reader takes the cubins NVIDIA's tools write, with or without the padding a fatbin adds,
// and knows where each ends.
func TestCubinReal(t *testing.T) {
	for name, data := range realCubins(t) {
		e, err := CubinImage(data)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if e.Arch != 90 {
			t.Errorf("%s: sm_%d, want sm_90", name, e.Arch)
		}
		if n := elfSize(data); n != uint64(len(data)) {
			t.Errorf("%s: elfSize %d, want the file's %d bytes", name, n, len(data))
		}
		if _, err := CubinImage(append(slices.Clone(data), make([]byte, 8)...)); err != nil {
			t.Errorf("%s padded: %v", name, err)
		}
	}
	if e, _ := CubinImage(realCubins(t)["cuda13_sm90a.cubin"]); e.ArchName() != "sm_90a" {
		t.Errorf("cuda13_sm90a.cubin is %s, want sm_90a (from its toolkit note)", e.ArchName())
	}
}

// The fatbins of NVIDIA's tools (tools/fatbin/testdata) are read whole, entry by entry.
func TestCheckEntriesReal(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("..", "..", "fatbin", "testdata", "*.fatbin"))
	if len(paths) == 0 {
		t.Skip("tools/fatbin/testdata is not here (under Bazel, it is not this test's data)")
	}
	for _, p := range paths {
		if _, err := Open(p); err != nil {
			t.Errorf("%v", err)
		}
	}
}

// Every corruption is refused, with a message that names what is wrong and, for damage, the fix.
func TestCorruptions(t *testing.T) {
	dir := t.TempDir()
	for _, c := range artifacttest.Corruptions(artifacttest.RealCubin) {
		t.Run(c.Name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(c.Name, " ", "_")+c.Ext)
			if err := os.WriteFile(path, c.Data, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Open(path)
			if err == nil {
				t.Fatalf("Open accepts it")
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, path+": ") || !strings.Contains(msg, c.Want) {
				t.Errorf("Open: %q, want %s: ... %q ...", msg, path, c.Want)
			}
			var ie *ImageError
			var fe *fatbin.FormatError
			switch {
			case errors.As(err, &ie):
				if ie.Fix != "" && !strings.HasSuffix(msg, ": rebuild it") {
					t.Errorf("Open: %q does not end with the fix", msg)
				}
			case errors.As(err, &fe):
			default:
				t.Errorf("Open: %T is neither an *ImageError nor a *fatbin.FormatError", err)
			}
			if c.Ext == ".cubin" {
				if _, err := ReadImage(path, 0); err == nil {
					t.Error("ReadImage accepts it")
				}
			}
		})
	}
}

// cuobjdump, NVIDIA's reader, refuses each corruption too: the reader agrees with it (and the driver)
// on these cases.
func TestCorruptionsCuobjdump(t *testing.T) {
	cuobjdump := testtool.Find(t, "CUOBJDUMP", "cuobjdump")
	dir := t.TempDir()
	good := filepath.Join(dir, "good.cubin")
	os.WriteFile(good, artifacttest.RealCubin, 0o644)
	if out, err := exec.Command(cuobjdump, "-elf", good).CombinedOutput(); err != nil || !bytes.Contains(out, []byte(".text.fill")) {
		t.Fatalf("cuobjdump -elf of the whole cubin: %v\n%s", err, out)
	}
	for _, c := range artifacttest.Corruptions(artifacttest.RealCubin) {
		t.Run(c.Name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(c.Name, " ", "_")+c.Ext)
			if err := os.WriteFile(path, c.Data, 0o644); err != nil {
				t.Fatal(err)
			}
			// cuobjdump exits 0 on a cubin without a section header table, but says that it
			// cannot read its sections.
			if out, err := exec.Command(cuobjdump, "-elf", path).CombinedOutput(); err == nil && !bytes.Contains(out, []byte("cannot get section")) {
				t.Errorf("cuobjdump -elf accepts it:\n%.400s", out)
			}
		})
	}
}

func TestCheckEntries(t *testing.T) {
	cubin := artifacttest.RealCubin
	for _, tc := range []struct {
		name  string
		entry fatbin.Entry
		want  string
	}{
		{"whole cubin", fatbin.Entry{Kind: fatbin.KindELF, Arch: 90, Payload: cubin}, ""},
		{"whole ptx", fatbin.Entry{Kind: fatbin.KindPTX, Arch: 80, Payload: []byte(samplePTX)}, ""},
		{"nvvm", fatbin.Entry{Kind: fatbin.KindNVVM, Arch: 80, Payload: []byte("BC\xc0\xde")}, ""},
		{"obfuscated", fatbin.Entry{Kind: fatbin.KindELF, Arch: 80, Flags: fatbin.FlagObfuscated, Payload: []byte("???")}, ""},
		{"another chip's cubin", fatbin.Entry{Kind: fatbin.KindELF, Arch: 80, Payload: cubin}, "fatbin entry 1 (elf, sm_80): the entry is for sm_80, its cubin for sm_90: the file is damaged"},
		{"x86 ELF", fatbin.Entry{Kind: fatbin.KindELF, Arch: 90, Payload: func() []byte {
			b := slices.Clone(cubin)
			binary.LittleEndian.PutUint16(b[0x12:], 62)
			return b
		}()}, "fatbin entry 1 (elf, sm_90): ELF machine 62 is not CUDA (190): not a cubin (at byte 0x12): the file is damaged"},
		{"ptx that is not text", fatbin.Entry{Kind: fatbin.KindPTX, Arch: 80, Payload: []byte(samplePTX + "\x01\xff")}, "fatbin entry 1 (ptx, sm_80): PTX holds a byte that is not text"},
		{"ptx without .version", fatbin.Entry{Kind: fatbin.KindPTX, Arch: 80, Payload: []byte(".target sm_80\n")}, "fatbin entry 1 (ptx, sm_80): no .version directive"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ptx := fatbin.Entry{Kind: fatbin.KindPTX, Arch: 80, Payload: []byte(samplePTX)}
			err := CheckEntries([]fatbin.Entry{ptx, tc.entry})
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("CheckEntries: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("CheckEntries: %v, want %q", err, tc.want)
			}
		})
	}
}

// FuzzCubin checks that the cubin reader never panics, and that a cubin it accepts reads the same
// with fatbin padding after it, cut to the size it reports, and linked into a fatbin and read back.
func FuzzCubin(f *testing.F) {
	for _, data := range realCubins(f) {
		f.Add(data)
	}
	for _, c := range artifacttest.Corruptions(artifacttest.RealCubin) {
		if c.Ext == ".cubin" {
			f.Add(c.Data)
		}
	}
	f.Add(fakeCubin(7, 0x5a055a, artifacttest.MinCubinSize))
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := CubinImage(data)
		size := elfSize(data)
		if err != nil {
			if size != 0 {
				t.Fatalf("CubinImage refuses it (%v), elfSize says %d bytes", err, size)
			}
			return
		}
		if size == 0 || size > uint64(len(data)) {
			t.Fatalf("elfSize %d for a cubin of %d bytes", size, len(data))
		}
		same := func(what string, g fatbin.Entry) {
			if g.Arch != e.Arch || g.Minor != e.Minor || g.Flags != e.Flags {
				t.Fatalf("%s: sm_%d 1.%d flags %#x, want sm_%d 1.%d flags %#x", what, g.Arch, g.Minor, g.Flags, e.Arch, e.Minor, e.Flags)
			}
		}
		for what, d := range map[string][]byte{"padded": append(slices.Clone(data), make([]byte, 8)...), "cut to its size": data[:size]} {
			g, err := CubinImage(d)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			same(what, g)
		}
		if _, err := (&Artifact{Images: []fatbin.Entry{e}}).Kernels(); err != nil {
			t.Fatalf("Kernels: %v", err)
		}
		fb, err := Link([]fatbin.Entry{e}, LinkOptions{})
		if err != nil {
			t.Fatal(err)
		}
		a, err := Parse(fb)
		if err != nil {
			t.Fatalf("its fatbin: %v", err)
		}
		same("its fatbin", a.Images[0])
	})
}
