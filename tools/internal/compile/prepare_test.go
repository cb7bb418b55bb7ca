package compile

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/internal/testtool"
)

func TestPrepare(t *testing.T) {
	tools := findTools(t)
	src := testtool.WriteFile(t, t.TempDir(), "p.mlir", `func.func @main(%a: memref<4xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%a : memref<4xf32>)
  return
}
`)
	out := filepath.Join(t.TempDir(), "p.prepared.mlir")
	if err := tools.Prepare(context.Background(), "//t:p", src, []string{"--convert-linalg-to-parallel-loops"}, out); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte("scf.parallel")) || bytes.Contains(data, []byte("linalg.fill")) {
		t.Errorf("linalg.fill is not a parallel loop after the passes:\n%s", data)
	}
	bad := filepath.Join(t.TempDir(), "bad.mlir")
	err = tools.Prepare(context.Background(), "//t:p", src, []string{"--no-such-pass"}, bad)
	for _, want := range []string{"//t:p: compiling " + src + " for every chip (run the passes before the GPU lowering)", "mlir-opt", "--no-such-pass"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("unknown pass: error %v does not contain %q", err, want)
		}
	}
	if _, err := os.Stat(bad); err == nil {
		t.Errorf("unknown pass: %s was written", bad)
	}
}

// sparseMatvec is a CSR matrix times a vector, for the sparsifier.
const sparseMatvec = `#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @matvec(%a: tensor<?x?xf64, #CSR>, %x: tensor<?xf64>, %y: tensor<?xf64>) -> tensor<?xf64> {
  %r = linalg.matvec ins(%a, %x : tensor<?x?xf64, #CSR>, tensor<?xf64>) outs(%y : tensor<?xf64>) -> tensor<?xf64>
  return %r : tensor<?xf64>
}
`

// TestPrepareSparsifier runs the sparsifier as MLIR's sparse GPU tests give it (a gpu-chip and a
// gpu-format of their own) and as a user may (no gpu-triple), and MLIR's own GPU pipeline with a
// chip and format of its own: the kernels leave Prepare as a gpu.module that no target or format
// has touched, for the per-chip lowering; a sparsifier that calls the sparse tensor runtime library
// prepares fine, unless the program reads a file, which the runtime cannot.
func TestPrepareSparsifier(t *testing.T) {
	tools := findTools(t)
	src := testtool.WriteFile(t, t.TempDir(), "matvec.mlir", sparseMatvec)
	launch := testtool.WriteFile(t, t.TempDir(), "launch.mlir", `func.func @main(%a: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c4, %v = %c1, %w = %c1) {
    %f = arith.constant 1.0 : f32
    memref.store %f, %a[%tx] : memref<4xf32>
    gpu.terminator
  }
  return
}
`)
	for _, tc := range []struct {
		src, pass string
		want      []string
	}{
		{src, "--sparsifier=enable-runtime-library=false parallelization-strategy=dense-outer-loop gpu-triple=nvptx64-nvidia-cuda gpu-chip=sm_80 gpu-features=+ptx71 gpu-format=fatbin",
			[]string{"gpu.module @sparse_kernels", "gpu.launch_func"}},
		{src, `--sparsifier="enable-runtime-library=false parallelization-strategy=dense-outer-loop"`,
			[]string{"gpu.module @sparse_kernels", "gpu.launch_func"}},
		// MLIR's own pipeline, with a chip, an ISA and a format of its own: the program as it is
		// before nvvm-attach-target, the kernel outlined; mlir-opt's failure after it (fatbin
		// needs ptxas and fatbinary) does not count.
		{launch, "--gpu-lower-to-nvvm-pipeline=cubin-chip=sm_80 cubin-features=+ptx71 cubin-format=fatbin",
			[]string{"gpu.module @main_kernel", "gpu.launch_func"}},
	} {
		out := filepath.Join(t.TempDir(), "prepared.mlir")
		if err := tools.Prepare(context.Background(), "//t:p", tc.src, []string{tc.pass}, out); err != nil {
			t.Fatalf("%s: %v", tc.pass, err)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range tc.want {
			if !bytes.Contains(data, []byte(want)) {
				t.Errorf("%s: the prepared program has no %s", tc.pass, want)
			}
		}
		for _, not := range []string{"gpu.binary", "#nvvm.target", "sm_80", "ptx71"} {
			if bytes.Contains(data, []byte(not)) {
				t.Errorf("%s: the prepared program has %s: the pipeline's target or format decided", tc.pass, not)
			}
		}
	}
	// With the runtime library (the sparsifier's default), the program calls it: package mlirrt
	// has it.
	rt := filepath.Join(t.TempDir(), "runtime.mlir")
	if err := tools.Prepare(context.Background(), "//t:matvec", src, []string{"--sparsifier=enable-gpu-libgen"}, rt); err != nil {
		t.Fatalf("runtime library: %v", err)
	}
	data, err := os.ReadFile(rt)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"@_mlir_ciface_sparsePositions0(", "@_mlir_ciface_sparseCoordinates0(", "@_mlir_ciface_sparseValuesF64(", "@sparseLvlSize("} {
		if !bytes.Contains(data, []byte("llvm.func "+want)) {
			t.Errorf("runtime library: the prepared program does not declare %s", want)
		}
	}
	// Reading a file needs the runtime's readers, which package mlirrt does not have.
	read := testtool.WriteFile(t, t.TempDir(), "read.mlir", `#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @read(%f: !llvm.ptr) -> tensor<?x?xf64, #CSR> {
  %t = sparse_tensor.new %f : !llvm.ptr to tensor<?x?xf64, #CSR>
  return %t : tensor<?x?xf64, #CSR>
}
`)
	bad := filepath.Join(t.TempDir(), "bad.mlir")
	err = tools.Prepare(context.Background(), "//t:read", read, []string{"--sparsifier"}, bad)
	for _, want := range []string{"//t:read: compiling " + read + " for every chip", "reads or writes sparse tensor files", "(delSparseTensorReader, getSparseTensorReaderDimSizes, createCheckedSparseTensorReader)", "fix: build the tensor in the program"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("sparse_tensor.new: error %v does not contain %q", err, want)
		}
	}
	if _, err := os.Stat(bad); err == nil {
		t.Errorf("sparse_tensor.new: %s was written", bad)
	}
}

func TestSparsifierArgs(t *testing.T) {
	const triple, isa = "gpu-triple=nvptx64-nvidia-cuda", "gpu-format=isa"
	for _, tc := range []struct{ in, want []string }{
		{[]string{"--convert-linalg-to-loops"}, []string{"--convert-linalg-to-loops"}},
		{[]string{"--sparsifier"}, []string{"--sparsifier=" + triple + " " + isa}},
		{[]string{`--sparsifier="enable-gpu-libgen gpu-chip=sm_80 gpu-format=fatbin"`}, []string{"--sparsifier=enable-gpu-libgen gpu-chip=sm_80 " + triple + " " + isa}},
		{[]string{"-sparsifier=" + triple + " vl=4"}, []string{"--sparsifier=" + triple + " vl=4 " + isa}},
		{[]string{"--sparsifier-x=1", "--sparsifier=vl=4"}, []string{"--sparsifier-x=1", "--sparsifier=vl=4 " + triple + " " + isa}},
	} {
		if got := sparsifierArgs(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("sparsifierArgs(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestFirstRuleOwned(t *testing.T) {
	for _, tc := range []struct{ printed, want string }{
		{"Pass Manager with 1 passes:\nbuiltin.module(\n  func.func(\n    convert-linalg-to-parallel-loops\n  )\n)\n", ""},
		// A module-level pass named inside a nested pipeline's options is not one.
		{"Pass Manager with 5 passes:\nbuiltin.module(\n  gpu.module(\n    convert-gpu-to-nvvm{ has-redux=false index-bitwidth=0}\n  ),\n  test{opts=\"gpu-to-llvm,x\"},\n  gpu-to-llvm{intersperse-sizes-for-kernels=false},\n  nvvm-attach-target{O=2 chip=sm_80 features=+ptx71  module= ptxas-cmd-options=\"-v,-O3\" triple=nvptx64-nvidia-cuda},\n  gpu-module-to-binary{format=fatbin  opts= section= toolkit=},\n  reconcile-unrealized-casts\n)\n", "gpu-to-llvm"},
	} {
		if got, err := firstRuleOwned(tc.printed); err != nil || got != tc.want {
			t.Errorf("firstRuleOwned(%q) = %q, %v; want %q", tc.printed, got, err, tc.want)
		}
	}
	if _, err := firstRuleOwned("mlir-opt: unknown"); err == nil {
		t.Error("firstRuleOwned of no pipeline: no error")
	}
}
