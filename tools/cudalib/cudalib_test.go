package cudalib

import (
	"bytes"
	"flag"
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/internal/testtool"
)

var update = flag.Bool("update", false, "rewrite cuda/libraries_table.bzl and docs/cuda-libraries.md from the table")

// Every library is complete, and needs only libraries of the table that come before it.
func TestTable(t *testing.T) {
	seen := map[string]bool{}
	for _, l := range All() {
		if l.Name == "" || l.Title == "" || l.Header == "" || l.Redist == "" || l.Debian == "" {
			t.Errorf("%+v: a field is empty", l)
		}
		if seen[l.Name] {
			t.Errorf("%s: listed twice", l.Name)
		}
		for _, d := range append(append([]string(nil), l.Deps...), l.StaticDeps...) {
			if !seen[d] {
				t.Errorf("%s needs %s, which is not before it in the table", l.Name, d)
			}
		}
		if len(l.StaticDeps) > 0 && len(l.Static) == 0 {
			t.Errorf("%s: static deps without a static archive", l.Name)
		}
		for _, f := range l.Static {
			if !strings.HasPrefix(f, "lib") || !strings.HasSuffix(f, ".a") {
				t.Errorf("%s: static archive %q is not libNAME.a", l.Name, f)
			}
		}
		if l.Shared != "" && (!strings.HasPrefix(l.Shared, "lib") || !strings.HasSuffix(l.Shared, ".so")) {
			t.Errorf("%s: shared library %q is not libNAME.so", l.Name, l.Shared)
		}
		seen[l.Name] = true
	}
}

func TestLookup(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{{"cublas", true}, {"cccl", true}, {"cudnn", false}, {"", false}} {
		l, ok := Lookup(tc.name)
		if ok != tc.ok || (ok && l.Name != tc.name) {
			t.Errorf("Lookup(%q) = %v, %v; want ok %v", tc.name, l.Name, ok, tc.ok)
		}
	}
}

// The messages name the files and say what to do; the other kind of library only where there is one.
func TestMessages(t *testing.T) {
	cublas, _ := Lookup("cublas")
	culibos, _ := Lookup("culibos")
	cccl, _ := Lookup("cccl")
	for _, tc := range []struct {
		l          Library
		part       Part
		what, fix  string
		notInFixes string
	}{
		{cublas, Static, "cuBLAS static library (libcublas_static.a)", "toolkit_libraries=shared", "toolkit_libraries=static"},
		{cublas, Shared, "cuBLAS shared library (libcublas.so)", "toolkit_libraries=static", "toolkit_libraries=shared"},
		{culibos, Static, "libculibos.a", "cuda_cudart archive", "toolkit_libraries"},
		{cccl, Headers, "CCCL (Thrust, CUB and libcu++, headers only) headers (thrust/version.h)", "libthrust-dev", "toolkit_libraries"},
	} {
		what, fix := tc.l.What(tc.part), tc.l.Fix(tc.part)
		if !strings.Contains(what, tc.what) || !strings.Contains(fix, tc.fix) || strings.Contains(fix, tc.notInFixes) {
			t.Errorf("%s part %d: what %q, fix %q; want %q in what, %q in fix and no %q", tc.l.Name, tc.part, what, fix, tc.what, tc.fix, tc.notInFixes)
		}
	}
}

// cuda/libraries_table.bzl is generated from the table (WriteStarlark).
func TestStarlarkTable(t *testing.T) {
	var b bytes.Buffer
	if err := WriteStarlark(&b); err != nil {
		t.Fatal(err)
	}
	testtool.Generated(t, "../../cuda/libraries_table.bzl", b.Bytes(), *update, "go test ./tools/cudalib -run TestStarlarkTable -update")
}

// docs/cuda-libraries.md is generated from the table (WriteMarkdown).
func TestDocs(t *testing.T) {
	var b bytes.Buffer
	if err := WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	testtool.Generated(t, "../../docs/cuda-libraries.md", b.Bytes(), *update, "go test ./tools/cudalib -run TestDocs -update")
}

// ForInclude: a library's headers and the directories of its headers; a device-side header that
// needs no link, and the runtime's, are no library's.
func TestForInclude(t *testing.T) {
	for _, tc := range []struct{ include, want string }{
		{"cublas_v2.h", "cublas"},
		{"cublasLt.h", "cublasLt"},
		{"curand.h", "curand"},
		{"curand_kernel.h", ""},
		{"thrust/sort.h", "cccl"},
		{"cuda/std/atomic", "cccl"},
		{"nvtx3/nvToolsExt.h", "nvtx"},
		{"cusolverDn.h", "cusolver"},
		{"cuda_runtime.h", ""},
		{"thrust", ""},
	} {
		l, ok := ForInclude(tc.include)
		if ok != (tc.want != "") || l.Name != tc.want {
			t.Errorf("ForInclude(%q) = %q, %v; want %q", tc.include, l.Name, ok, tc.want)
		}
	}
}
