package mlirrt

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/internal/compile"
	"github.com/rulesgpu/rules_gpu/tools/internal/host"
)

// TestAsyncOracle runs the CPU-only async programs of testdata/async twice: lowered with
// rules_gpu's passes (host.AsyncPipeline, then host.HostPipeline) and run by mlir-runner-21 with
// LLVM 21's own async runtime (libmlir_async_runtime, MLIR_ASYNC_RUNTIME) and runner utils; and
// built as rules_gpu builds a program's host side (host.MLIR: the same passes, opt's coroutine
// split, llc), linked with the package's C archive. Both must print the same, every time (each
// program runs several times, its regions on worker goroutines).
func TestAsyncOracle(t *testing.T) {
	goTool := goModule(t)
	l := findLLVM(t)
	tools := compile.Tools{MLIROpt: l.mlirOpt, MLIRTranslate: l.translate, Llc: l.llc, Opt: l.opt}
	libs := runnerLibs(t, "mlir_async_runtime", "mlir_runner_utils", "mlir_c_runner_utils")
	dir := t.TempDir()
	run := func(name string, args ...string) []byte {
		t.Helper()
		cmd := exec.Command(name, args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil || stderr.Len() > 0 {
			t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, stderr.Bytes())
		}
		return out
	}
	archive := cArchive(t, goTool, dir)

	progs, err := filepath.Glob("testdata/async/*.mlir")
	if err != nil || len(progs) == 0 {
		t.Fatalf("no programs in testdata/async: %v", err)
	}
	for _, src := range progs {
		name := strings.TrimSuffix(filepath.Base(src), ".mlir")
		t.Run(name, func(t *testing.T) {
			base := filepath.Join(dir, name)
			run(tools.MLIROpt, host.AsyncPipeline, src, "-o", base+".async.mlir")
			run(tools.MLIROpt, host.HostPipeline, base+".async.mlir", "-o", base+".llvm.mlir")
			want := run(l.runner, base+".llvm.mlir", "-O0", "-e", "main", "-entry-point-result=void", "-shared-libs="+strings.Join(libs, ","))
			want = oracleBase.ReplaceAll(want, []byte("base@ = B "))

			if err := host.MLIR(context.Background(), tools, host.MLIRJob{Target: name, Src: src, Binaries: map[string][]byte{}, Chip: "sm_80", O: 2, Out: base + ".o"}); err != nil {
				t.Fatal(err)
			}
			l.linkObject(t, base+".o", archive, base)
			for i := range 8 {
				got := oracleBase.ReplaceAll(run(base), []byte("base@ = B "))
				if !bytes.Equal(got, want) {
					t.Fatalf("run %d: upstream's runtime printed\n%s\nours printed\n%s", i, want, got)
				}
			}
			t.Logf("%s printed, as upstream's:\n%s", name, want)
		})
	}
}
