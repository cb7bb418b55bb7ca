package embed

import (
	"bytes"
	"flag"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/internal/testtool"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

var saxpy = Artifact{
	Label:   "//examples/saxpy:saxpy_mlir",
	File:    "saxpy_mlir.fatbin",
	Format:  "fatbin",
	Chips:   []string{"sm_80", "sm_90"},
	Images:  []string{"sm_80 cubin", "sm_90 cubin", "compute_80 PTX"},
	Kernels: []string{"saxpy"},
	Data:    []byte("\x50\xed\x55\xba\x01\x00\x10\x00 sixteen+ bytes of fake fatbin\x00\xff"),
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (regenerate: go test ./tools/embed -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the output:\n%s\n(regenerate: go test ./tools/embed -update)", path, got)
	}
}

func TestGo(t *testing.T) {
	var b bytes.Buffer
	if err := Go(&b, "saxpy", saxpy); err != nil {
		t.Fatal(err)
	}
	golden(t, "saxpy.go.golden", b.Bytes())
	f, err := parser.ParseFile(token.NewFileSet(), "saxpy.go", b.Bytes(), parser.ParseComments)
	if err != nil {
		t.Fatalf("the generated Go does not parse: %v", err)
	}
	if f.Name.Name != "saxpy" {
		t.Errorf("package %s, want saxpy", f.Name.Name)
	}
}

func TestC(t *testing.T) {
	var h, c bytes.Buffer
	if err := C(&h, &c, "examples/saxpy/saxpy_c.h", "saxpy_fatbin", saxpy); err != nil {
		t.Fatal(err)
	}
	golden(t, "saxpy_c.h.golden", h.Bytes())
	golden(t, "saxpy_c.c.golden", c.Bytes())
}

// TestCCompiles builds the generated C with a real C compiler, and a C++ file including the header,
// and checks at run time that the bytes, the size and the kernels are the artifact's.
func TestCCompiles(t *testing.T) {
	cc := testtool.Find(t, "CC", "gcc")
	dir := t.TempDir()
	var h, c bytes.Buffer
	if err := C(&h, &c, "gen/saxpy_c.h", "saxpy_fatbin", saxpy); err != nil {
		t.Fatal(err)
	}
	write := func(name string, data []byte) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("gen/saxpy_c.h", h.Bytes())
	write("gen/saxpy_c.c", c.Bytes())
	write("want.bin", saxpy.Data)
	write("main.cc", []byte(`#include "gen/saxpy_c.h"
#include <cstdint>
#include <cstdio>
#include <cstring>
int main() {
  FILE *f = std::fopen("want.bin", "rb");
  unsigned char want[4096];
  size_t n = std::fread(want, 1, sizeof want, f);
  if (n != saxpy_fatbin_size || std::memcmp(want, saxpy_fatbin, n) != 0) { std::puts("bytes differ"); return 1; }
  if (reinterpret_cast<std::uintptr_t>(saxpy_fatbin) % 16 != 0) { std::puts("not aligned"); return 1; }
  if (std::strcmp(saxpy_fatbin_kernels[0], "saxpy") != 0 || saxpy_fatbin_kernels[1] != nullptr) { std::puts("kernels"); return 1; }
  std::puts("ok");
  return 0;
}
`))
	run := func(name string, args ...string) string {
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	run(cc, "-std=c11", "-Wall", "-Werror", "-c", "-I.", "gen/saxpy_c.c", "-o", "data.o")
	cxx := strings.TrimSuffix(cc, "gcc") + "g++"
	if _, err := os.Stat(cxx); err != nil {
		t.Skipf("no C++ compiler next to %s", cc)
	}
	run(cxx, "-Wall", "-Werror", "-I.", "main.cc", "data.o", "-o", "main")
	if out := run(filepath.Join(dir, "main")); out != "ok\n" {
		t.Errorf("the program says %q", out)
	}
}

func TestErrors(t *testing.T) {
	cases := []struct {
		name string
		run  func() error
		want string
	}{
		{"go package", func() error { return Go(&bytes.Buffer{}, "saxpy-mlir", saxpy) }, `go package name "saxpy-mlir" is not a Go identifier; set package to a name such as "saxpy_mlir"`},
		{"go file", func() error { a := saxpy; a.File = "a/b.fatbin"; return Go(&bytes.Buffer{}, "x", a) }, `artifact file name "a/b.fatbin" cannot be embedded`},
		{"c symbol", func() error { return C(&bytes.Buffer{}, &bytes.Buffer{}, "x.h", "9lives", saxpy) }, `C symbol "9lives" is not a C identifier; set symbol to a name such as "gpu_9lives"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.run()
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

// CBytes writes 16 bytes a line, each line indented, every byte followed by a comma.
func TestCBytes(t *testing.T) {
	for _, tc := range []struct {
		data []byte
		want string
	}{
		{nil, ""},
		{[]byte{0, 0xff}, "\n    0x00, 0xff,"},
		{bytes.Repeat([]byte{0xab}, 17), "\n   " + strings.Repeat(" 0xab,", 16) + "\n    0xab,"},
	} {
		var b bytes.Buffer
		if err := CBytes(&b, tc.data); err != nil || b.String() != tc.want {
			t.Errorf("CBytes(%x) = %q (%v), want %q", tc.data, b.String(), err, tc.want)
		}
	}
}
