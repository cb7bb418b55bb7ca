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
// gpu-format of their own) and as a user may (no gpu-triple): its kernels leave Prepare as a
// gpu.module that no target or format has touched, for the per-chip lowering; and a sparsifier that
// calls the sparse tensor runtime library is refused with the option that avoids it.
func TestPrepareSparsifier(t *testing.T) {
	tools := findTools(t)
	src := testtool.WriteFile(t, t.TempDir(), "matvec.mlir", sparseMatvec)
	for _, opts := range []string{
		`enable-runtime-library=false parallelization-strategy=dense-outer-loop gpu-triple=nvptx64-nvidia-cuda gpu-chip=sm_80 gpu-features=+ptx71 gpu-format=fatbin`,
		`"enable-runtime-library=false parallelization-strategy=dense-outer-loop"`,
	} {
		out := filepath.Join(t.TempDir(), "prepared.mlir")
		if err := tools.Prepare(context.Background(), "//t:matvec", src, []string{"--sparsifier=" + opts}, out); err != nil {
			t.Fatalf("--sparsifier=%s: %v", opts, err)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"gpu.module @sparse_kernels", "gpu.launch_func"} {
			if !bytes.Contains(data, []byte(want)) {
				t.Errorf("--sparsifier=%s: the prepared program has no %s", opts, want)
			}
		}
		for _, not := range []string{"gpu.binary", "#nvvm.target", "sm_80"} {
			if bytes.Contains(data, []byte(not)) {
				t.Errorf("--sparsifier=%s: the prepared program has %s: the sparsifier's target or format decided", opts, not)
			}
		}
	}
	bad := filepath.Join(t.TempDir(), "bad.mlir")
	err := tools.Prepare(context.Background(), "//t:matvec", src, []string{"--sparsifier=enable-gpu-libgen"}, bad)
	for _, want := range []string{"//t:matvec: compiling " + src + " for every chip", "--sparsifier=enable-gpu-libgen: the sparsifier calls MLIR's sparse tensor runtime library", "fix: add enable-runtime-library=false"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("runtime library: error %v does not contain %q", err, want)
		}
	}
	if _, err := os.Stat(bad); err == nil {
		t.Errorf("runtime library: %s was written", bad)
	}
}

func TestSparsifierArgs(t *testing.T) {
	const off = "enable-runtime-library=false"
	for _, tc := range []struct {
		in, want []string
		err      string
	}{
		{in: []string{"--convert-linalg-to-loops"}, want: []string{"--convert-linalg-to-loops"}},
		{in: []string{`--sparsifier="enable-gpu-libgen ` + off + ` gpu-chip=sm_80"`}, want: []string{"--sparsifier=enable-gpu-libgen " + off + " gpu-chip=sm_80 gpu-triple=nvptx64-nvidia-cuda"}},
		{in: []string{"-sparsifier=gpu-triple=nvptx64-nvidia-cuda " + off}, want: []string{"--sparsifier=gpu-triple=nvptx64-nvidia-cuda " + off}},
		{in: []string{"--sparsifier-x=1", "--sparsifier=" + off + " vl=4"}, want: []string{"--sparsifier-x=1", "--sparsifier=" + off + " vl=4 gpu-triple=nvptx64-nvidia-cuda"}},
		{in: []string{"--sparsifier"}, err: "--sparsifier: the sparsifier calls MLIR's sparse tensor runtime library"},
		{in: []string{"--sparsifier=enable-runtime-library"}, err: "fix: add enable-runtime-library=false"},
		{in: []string{"--sparsifier=enable-runtime-library=true"}, err: "fix: add enable-runtime-library=false"},
		{in: []string{"--sparsifier=" + off + " enable-buffer-initialization"}, err: "enable-buffer-initialization is lost"},
	} {
		got, err := sparsifierArgs(tc.in)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("sparsifierArgs(%q): error %v, want one containing %q", tc.in, err, tc.err)
		case tc.err == "" && (err != nil || !slices.Equal(got, tc.want)):
			t.Errorf("sparsifierArgs(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestWithoutRuleOwned(t *testing.T) {
	for _, tc := range []struct {
		printed, want string
		cut           bool
	}{
		{"Pass Manager with 1 passes:\nbuiltin.module(\n  func.func(\n    convert-linalg-to-parallel-loops\n  )\n)\n",
			"builtin.module(func.func(convert-linalg-to-parallel-loops))", false},
		{"Pass Manager with 5 passes:\nbuiltin.module(\n  gpu.module(\n    convert-gpu-to-nvvm{ has-redux=false index-bitwidth=0}\n  ),\n  nvvm-attach-target{O=2 chip=sm_80 features=+ptx71  module= ptxas-cmd-options=\"-v,-O3\" triple=nvptx64-nvidia-cuda},\n  gpu-to-llvm{intersperse-sizes-for-kernels=false},\n  gpu-module-to-binary{format=fatbin  opts= section= toolkit=},\n  reconcile-unrealized-casts\n)\n",
			"builtin.module(gpu.module(convert-gpu-to-nvvm{ has-redux=false index-bitwidth=0}),reconcile-unrealized-casts)", true},
	} {
		got, cut, err := withoutRuleOwned(tc.printed)
		if err != nil || got != tc.want || cut != tc.cut {
			t.Errorf("withoutRuleOwned(%q) = %q, %v, %v; want %q, %v", tc.printed, got, cut, err, tc.want, tc.cut)
		}
	}
	if _, _, err := withoutRuleOwned("mlir-opt: unknown"); err == nil {
		t.Error("withoutRuleOwned of no pipeline: no error")
	}
}
