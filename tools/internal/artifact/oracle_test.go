package artifact

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/fatbin"
	"github.com/rulesgpu/rules_gpu/tools/internal/testtool"
)

// The oracle tests check our fatbins with the CUDA toolkit's own tools, and our reader against the
// toolkit's own fatbins. The tools come from the environment (PTXAS, FATBINARY, CUOBJDUMP, NVCC: set
// by the Bazel test to runfiles paths of the CUDA toolchain's tools) or from PATH
// (env/env.sh run go test ./...).

type toolkit struct{ ptxas, fatbinary, cuobjdump, nvcc string }

func findToolkit(t *testing.T) toolkit {
	t.Helper()
	return toolkit{testtool.Find(t, "PTXAS", "ptxas"), testtool.Find(t, "FATBINARY", "fatbinary"),
		testtool.Find(t, "CUOBJDUMP", "cuobjdump"), testtool.Find(t, "NVCC", "nvcc")}
}

func run(t *testing.T, dir string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
	return string(out)
}

// inputs builds the test kernel into PTX for compute_75 and cubins for sm_75, sm_80 and sm_90.
func inputs(t *testing.T, tk toolkit) (dir string, cubins map[string]string, ptx string) {
	t.Helper()
	dir = t.TempDir()
	src, err := filepath.Abs("testdata/scale.cu")
	if err != nil {
		t.Fatal(err)
	}
	ptx = filepath.Join(dir, "scale.ptx")
	run(t, dir, tk.nvcc, "-ptx", "-arch=compute_75", "-o", ptx, src)
	cubins = map[string]string{}
	for _, sm := range []string{"sm_75", "sm_80", "sm_90"} {
		cubins[sm] = filepath.Join(dir, sm+".cubin")
		run(t, dir, tk.ptxas, "-arch="+sm, "-o", cubins[sm], ptx)
	}
	return dir, cubins, ptx
}

var listLine = regexp.MustCompile(`(?m)^(ELF|PTX) file\s+(\d+): (\S+)$`)

// cuobjdumpList returns cuobjdump -lelf -lptx's file names.
func cuobjdumpList(t *testing.T, tk toolkit, path string) []string {
	t.Helper()
	var names []string
	for _, m := range listLine.FindAllStringSubmatch(run(t, filepath.Dir(path), tk.cuobjdump, "-lelf", "-lptx", path), -1) {
		names = append(names, m[3])
	}
	return names
}

// cuobjdumpExtract runs cuobjdump -xelf all -xptx all and returns the files it wrote.
func cuobjdumpExtract(t *testing.T, tk toolkit, path string) map[string][]byte {
	t.Helper()
	dir := t.TempDir()
	run(t, dir, tk.cuobjdump, "-xelf", "all", "-xptx", "all", path)
	return readDir(t, dir)
}

func readDir(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = b
	}
	return files
}

func sorted(s []string) []string { s = append([]string(nil), s...); sort.Strings(s); return s }

// Our fatbins, in every compression, are listed and extracted by cuobjdump byte for byte.
func TestOracleCuobjdumpReadsOurFatbins(t *testing.T) {
	tk := findToolkit(t)
	dir, cubins, ptx := inputs(t, tk)
	for _, tc := range []struct {
		name string
		opts LinkOptions
	}{
		{"none", LinkOptions{}},
		{"lz4", LinkOptions{Compression: fatbin.CompressionLZ4}},
		{"zstd", LinkOptions{Compression: fatbin.CompressionZstd}},
		{"lz4_all", LinkOptions{Compression: fatbin.CompressionLZ4, CompressAll: true}},
		{"zstd_all", LinkOptions{Compression: fatbin.CompressionZstd, CompressAll: true}},
		{"ident", LinkOptions{Identifier: "scale.cu", PTXOptions: "-O3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var images []fatbin.Entry
			base := "ours_" + tc.name
			for _, path := range []string{cubins["sm_75"], cubins["sm_80"], cubins["sm_90"], ptx} {
				e, err := ReadImage(path, 0)
				if err != nil {
					t.Fatal(err)
				}
				images = append(images, e)
			}
			data, err := Link(images, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, base+".fatbin")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			a, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			names := a.FileNames()
			if got, ours := sorted(cuobjdumpList(t, tk, path)), sorted(names); !reflect.DeepEqual(got, ours) {
				t.Errorf("cuobjdump lists %q, we list %q", got, ours)
			}
			want := map[string][]byte{}
			for i, name := range names {
				want[name] = images[i].Payload
			}
			got := cuobjdumpExtract(t, tk, path)
			if len(got) != len(want) {
				t.Errorf("cuobjdump extracted %d files, want %d", len(got), len(want))
			}
			for name, b := range want {
				if !bytes.Equal(got[name], b) {
					t.Errorf("cuobjdump's %s (%d bytes) differs from the image we linked (%d bytes)", name, len(got[name]), len(b))
				}
			}
		})
	}
}

// The toolkit's fatbins (fatbinary, compressed or not, and nvcc -fatbin) read as cuobjdump reads them:
// the same list, and the same bytes when extracted.
func TestOracleWeReadToolkitFatbins(t *testing.T) {
	tk := findToolkit(t)
	dir, cubins, ptx := inputs(t, tk)
	images := []string{
		"--image3=kind=elf,sm=75,file=" + cubins["sm_75"],
		"--image3=kind=elf,sm=80,file=" + cubins["sm_80"],
		"--image3=kind=elf,sm=90,file=" + cubins["sm_90"],
		"--image3=kind=ptx,sm=75,file=" + ptx,
	}
	src, _ := filepath.Abs("testdata/scale.cu")
	for _, tc := range []struct {
		name string
		make func(out string)
	}{
		{"fatbinary_default", func(out string) {
			run(t, dir, tk.fatbinary, append([]string{"-64", "--create=" + out}, images...)...)
		}},
		{"fatbinary_uncompressed", func(out string) {
			run(t, dir, tk.fatbinary, append([]string{"-64", "--compress=false", "--create=" + out}, images...)...)
		}},
		{"fatbinary_compress_all", func(out string) {
			run(t, dir, tk.fatbinary, append([]string{"-64", "--compress-all", "--ident=scale", "--create=" + out}, images...)...)
		}},
		{"nvcc", func(out string) {
			run(t, dir, tk.nvcc, "-fatbin", "-gencode", "arch=compute_75,code=[sm_75,compute_75]",
				"-gencode", "arch=compute_80,code=sm_86", "-gencode", "arch=compute_90,code=[sm_90,compute_90]", "-o", out, src)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name+".fatbin")
			tc.make(path)
			a, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			if got, ours := cuobjdumpList(t, tk, path), a.FileNames(); !reflect.DeepEqual(sorted(got), sorted(ours)) {
				t.Errorf("cuobjdump lists %q, we list %q", got, ours)
			}
			theirs := cuobjdumpExtract(t, tk, path)
			outDir := t.TempDir()
			if _, err := Extract(a, outDir); err != nil {
				t.Fatal(err)
			}
			ours := readDir(t, outDir)
			for name, b := range theirs {
				if !bytes.Equal(ours[name], b) {
					t.Errorf("%s: our extraction (%d bytes) differs from cuobjdump's (%d bytes)", name, len(ours[name]), len(b))
				}
			}
			if len(ours) != len(theirs) {
				t.Errorf("we extracted %d files, cuobjdump %d", len(ours), len(theirs))
			}
		})
	}
}

// Architecture-specific targets (sm_90a): cuobjdump names our entries sm_90a, as it names fatbinary's.
func TestOracleArchSpecific(t *testing.T) {
	tk := findToolkit(t)
	dir := t.TempDir()
	src, _ := filepath.Abs("testdata/scale.cu")
	ptx := filepath.Join(dir, "a.ptx")
	cubin := filepath.Join(dir, "a.cubin")
	run(t, dir, tk.nvcc, "-ptx", "-arch=compute_90a", "-o", ptx, src)
	run(t, dir, tk.ptxas, "-arch=sm_90a", "-o", cubin, ptx)
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
	ours := filepath.Join(dir, "ours.fatbin")
	if err := os.WriteFile(ours, data, 0o644); err != nil {
		t.Fatal(err)
	}
	theirs := filepath.Join(dir, "theirs.fatbin")
	run(t, dir, tk.fatbinary, "-64", "--create="+theirs, "--image3=kind=elf,sm=90a,file="+cubin, "--image3=kind=ptx,sm=90a,file="+ptx)
	for _, path := range []string{ours, theirs} {
		a, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{Base(path) + ".1.sm_90a.cubin", Base(path) + ".1.sm_90a.ptx"}
		if got := a.FileNames(); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: we name %q, want %q", path, got, want)
		}
		if got := cuobjdumpList(t, tk, path); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: cuobjdump lists %q, want %q", path, got, want)
		}
	}
}
