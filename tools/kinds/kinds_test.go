package kinds

import (
	"bytes"
	"flag"
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/internal/testtool"
)

var update = flag.Bool("update", false, "rewrite rules/private/kinds_table.bzl from the table")

func TestOf(t *testing.T) {
	for _, tc := range []struct {
		path string
		want Kind
		err  string
	}{
		{"k.mlir", MLIR, ""},
		{"dir/k.ll", LLVM, ""},
		{"k.BC", LLVM, ""},
		{"k.ptx", PTX, ""},
		{"a/b.cu", CUDA, ""},
		{"k.cuh", "", "k.cuh: unknown source kind: use .mlir, .ll, .bc, .ptx or .cu"},
		{"noext", "", "noext: unknown source kind"},
	} {
		got, err := Of(tc.path)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Of(%q) = %v, %v; want an error containing %q", tc.path, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("Of(%q) = %v, %v; want %v", tc.path, got, err, tc.want)
		}
	}
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		src      string
		format   Format
		compiler Compiler
		rdc      bool
		err      string // "" accepts
	}{
		{"k.ptx", Bin, "", false, ""},
		{"k.ptx", Fatbin, "", false, ""},
		{"k.ptx", ISA, "", false, "k.ptx is PTX already, which becomes cubins only: format isa needs an MLIR, LLVM IR or CUDA C++ source; use format bin or fatbin"},
		{"k.ptx", JIT, "", false, "format jit needs"},
		{"k.ptx", Offload, "", false, "format offload needs"},
		{"k.ptx", Bin, "", true, "rdc links CUDA C++ and LLVM IR sources, and k.ptx is PTX"},
		{"k.mlir", Offload, "", true, "rdc links CUDA C++ and LLVM IR sources, and k.mlir is MLIR"},
		{"k.mlir", JIT, "nvcc", false, ""}, // the compiler is for CUDA C++ only
		{"k.ll", Offload, "", true, ""},
		{"k.cu", Offload, "", true, ""},
		{"k.cu", Offload, Clang, false, ""},
		{"k.cu", Bin, NVCC, false, ""},
		{"k.cu", Fatbin, NVCC, true, ""},
		{"k.cu", Bin, NVCC, true, ""}, // a source's relocatable cubin, and the module's linked ones
		{"k.cu", ISA, NVCC, true, "rdc with nvcc links each chip's relocatable cubins with nvlink, and the linked module is a cubin only: format isa needs"},
		{"k.cu", JIT, NVCC, true, "format jit needs its PTX or bitcode"},
		{"k.ll", Fatbin, NVCC, true, "k.ll is LLVM IR, which links only with clang's relocatable device code"},
		{"k.cu", Offload, NVCC, false, "format offload (LLVM bitcode) needs clang as the CUDA C++ compiler"},
		{"k.ptx", "pch", "", false, "format pch needs"}, // the helper's own formats too
	} {
		k, err := Of(tc.src)
		if err != nil {
			t.Fatal(err)
		}
		err = Check(k, tc.src, tc.format, tc.compiler, tc.rdc)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("Check(%s, %s, %q, rdc=%v): %v; want it accepted", tc.src, tc.format, tc.compiler, tc.rdc, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("Check(%s, %s, %q, rdc=%v) = %v; want an error containing %q", tc.src, tc.format, tc.compiler, tc.rdc, err, tc.err)
		}
	}
}

// Every rule's message names the fix, and its placeholders are the two the rules fill in.
func TestRuleMessages(t *testing.T) {
	for _, r := range rules {
		if r.formats != nil && r.allowed != nil {
			t.Errorf("rule %+v: formats and allowed both set", r)
		}
		rest := strings.NewReplacer("{src}", "", "{format}", "").Replace(r.message)
		if strings.ContainsAny(rest, "{}") {
			t.Errorf("rule %+v: a placeholder other than {src} and {format}", r)
		}
		if !strings.Contains(r.message, "use ") && !strings.Contains(r.message, "give it") {
			t.Errorf("rule %+v: the message says no fix", r)
		}
	}
}

// rules/private/kinds_table.bzl is generated from the table (WriteStarlark).
func TestStarlarkTable(t *testing.T) {
	const path, regenerate = "../../rules/private/kinds_table.bzl", "go test ./tools/kinds -run TestStarlarkTable -update"
	var b bytes.Buffer
	if err := WriteStarlark(&b); err != nil {
		t.Fatal(err)
	}
	testtool.Generated(t, path, b.Bytes(), *update, regenerate)
}
