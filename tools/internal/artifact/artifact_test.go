package artifact

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/fatbin"
	"github.com/rulesgpu/rules_gpu/tools/internal/artifact/artifacttest"
)

// fakeCubin returns a minimal well-formed cubin (artifacttest.Cubin) with the given ELF ABI
// version and e_flags, n bytes long, its section header table ending at n.
func fakeCubin(abi byte, flags uint32, n int) []byte { return artifacttest.Cubin(abi, flags, n) }

const samplePTX = "// a kernel\n.version 8.4\n.target sm_80\n.address_size 64\n.visible .entry k() { ret; }\n"

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name     string
		data     []byte
		format   Format
		kind     fatbin.Kind
		arch     uint32
		version  [2]uint16
		archName string // the image's ArchName, if not "sm_<arch>"
		errText  string
	}{
		{name: "cubin abi 7", data: fakeCubin(7, 0x4b0550, 256), format: FormatCubin, kind: fatbin.KindELF, arch: 80, version: [2]uint16{1, 7}},
		{name: "cubin abi 8", data: fakeCubin(8, 0x5a00, 256), format: FormatCubin, kind: fatbin.KindELF, arch: 90, version: [2]uint16{1, 8}},
		{name: "ptx", data: []byte(samplePTX), format: FormatPTX, kind: fatbin.KindPTX, arch: 80, version: [2]uint16{8, 4}},
		{name: "ptx with arch suffix", data: []byte(".version 8.0\n.target sm_90a\n"), format: FormatPTX, kind: fatbin.KindPTX, arch: 90, version: [2]uint16{8, 0}, archName: "sm_90a"},
		{name: "cubin sm_90a", data: fakeCubin(7, 0x5a0d5a, 256), format: FormatCubin, kind: fatbin.KindELF, arch: 90, version: [2]uint16{1, 7}, archName: "sm_90a"},
		{name: "not cuda elf", data: func() []byte { b := fakeCubin(7, 0x50, 256); b[0x12] = 62; return b }(), errText: "not CUDA"},
		{name: "32-bit elf", data: func() []byte { b := fakeCubin(7, 0x50, 256); b[4] = 1; return b }(), errText: "64-bit"},
		{name: "no arch", data: fakeCubin(7, 0, 256), errText: "no architecture"},
		{name: "text", data: []byte("hello"), errText: "not a fatbin, cubin or PTX"},
		{name: "ptx without target", data: []byte(".version 8.0\n"), errText: ".target"},
		{name: "truncated fatbin", data: []byte{0x50, 0xed, 0x55, 0xba, 1, 0}, errText: "fatbin"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := Parse(tc.data)
			if tc.errText != "" {
				if err == nil || !strings.Contains(err.Error(), tc.errText) {
					t.Fatalf("Parse: error %v, want one containing %q", err, tc.errText)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			e := a.Images[0]
			if a.Format != tc.format || e.Kind != tc.kind || e.Arch != tc.arch || [2]uint16{e.Major, e.Minor} != tc.version {
				t.Errorf("got %s %s arch %d version %d.%d", a.Format, e.Kind, e.Arch, e.Major, e.Minor)
			}
			if want := tc.archName; want != "" && e.ArchName() != want {
				t.Errorf("ArchName = %s, want %s", e.ArchName(), want)
			}
		})
	}
}

// CUDA 13.0 cubins (made by nvcc on the H200): ABI 8 flags, and sm_90a known only from the toolkit note.
func TestCUDA13Cubins(t *testing.T) {
	for file, want := range map[string]string{"cuda13_sm90.cubin": "sm_90", "cuda13_sm90a.cubin": "sm_90a"} {
		a, err := Open(filepath.Join("testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		if e := a.Images[0]; e.ArchName() != want || e.Minor != 8 {
			t.Errorf("%s: %s code %d.%d, want %s code 1.8", file, e.ArchName(), e.Major, e.Minor, want)
		}
	}
}

func TestLinkDescribeExtract(t *testing.T) {
	dir := t.TempDir()
	cubin := filepath.Join(dir, "k.cubin")
	ptx := filepath.Join(dir, "k.ptx")
	if err := os.WriteFile(cubin, fakeCubin(7, 0x50, 1004), 0o644); err != nil { // not a multiple of 8
		t.Fatal(err)
	}
	if err := os.WriteFile(ptx, []byte(samplePTX+strings.Repeat("// compressible\n", 40)), 0o644); err != nil {
		t.Fatal(err)
	}
	var images []fatbin.Entry
	for _, p := range []string{cubin, ptx} {
		e, err := ReadImage(p, 0)
		if err != nil {
			t.Fatal(err)
		}
		images = append(images, e)
	}
	data, err := Link(images, LinkOptions{Compression: fatbin.CompressionLZ4})
	if err != nil {
		t.Fatal(err)
	}
	again, _ := Link(images, LinkOptions{Compression: fatbin.CompressionLZ4})
	if string(again) != string(data) {
		t.Error("Link is not deterministic")
	}
	out := filepath.Join(dir, "app.fatbin")
	if err := os.WriteFile(out, data, 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := Open(out)
	if err != nil {
		t.Fatal(err)
	}
	infos := Describe(a)
	if len(infos) != 2 || infos[0].Kind != "elf" || infos[0].Arch != "sm_80" || infos[0].CodeVersion != "1.7" ||
		infos[1].Kind != "ptx" || infos[1].PTXISA != "8.4" || infos[1].Compression != "lz4" {
		t.Errorf("Describe = %+v", infos)
	}
	var table strings.Builder
	if err := WriteTable(&table, infos); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(table.String(), "sm_80") || strings.Count(table.String(), "\n") != 3 {
		t.Errorf("table:\n%s", table.String())
	}
	paths, err := Extract(a, filepath.Join(dir, "x"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"app.1.sm_80.cubin": cubin, "app.1.sm_80.ptx": ptx}
	if len(paths) != len(want) {
		t.Fatalf("extracted %q", paths)
	}
	for _, p := range paths {
		src, ok := want[filepath.Base(p)]
		if !ok {
			t.Errorf("unexpected file %s", p)
			continue
		}
		got, _ := os.ReadFile(p)
		orig, _ := os.ReadFile(src)
		if string(got) != string(orig) {
			t.Errorf("%s: %d bytes, want the %d bytes of %s", p, len(got), len(orig), src)
		}
	}
}

func TestReadImageErrors(t *testing.T) {
	dir := t.TempDir()
	cubin := filepath.Join(dir, "k.cubin")
	if err := os.WriteFile(cubin, fakeCubin(7, 0x50, 256), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadImage(cubin, 90); err == nil || !strings.Contains(err.Error(), "is a cubin for sm_80, not sm_90") {
		t.Errorf("arch mismatch: %v", err)
	}
	fb, _ := Link([]fatbin.Entry{{Kind: fatbin.KindPTX, Arch: 80, Major: 8, Payload: []byte(samplePTX)}}, LinkOptions{})
	fbPath := filepath.Join(dir, "x.fatbin")
	os.WriteFile(fbPath, fb, 0o644)
	if _, err := ReadImage(fbPath, 0); err == nil || !strings.Contains(err.Error(), "link takes cubins and PTX") {
		t.Errorf("fatbin input: %v", err)
	}
	if _, err := ReadImage(filepath.Join(dir, "missing.ptx"), 0); err == nil {
		t.Error("missing file: no error")
	}
	if _, err := ParseCompression("brotli"); err == nil || !strings.Contains(err.Error(), "use none, lz4 or zstd") {
		t.Errorf("ParseCompression: %v", err)
	}
}
