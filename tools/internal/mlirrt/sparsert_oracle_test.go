package mlirrt

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/internal/testtool"
)

// sparseOracleTools is what TestSparseOracle and TestSparseRuntimeError need: the tools, mlir-runner's
// libraries and the package's C archive (./archive, with the cuda tag) built into dir.
type sparseOracleTools struct {
	llvmTools
	archive string
	libs    []string
}

func findSparseOracleTools(t *testing.T, dir string) *sparseOracleTools {
	goTool := goModule(t)
	return &sparseOracleTools{
		llvmTools: findLLVM(t),
		libs:      runnerLibs(t, "mlir_c_runner_utils", "mlir_runner_utils"),
		archive:   cArchive(t, goTool, dir),
	}
}

// lower runs the sparsifier with the runtime library on src, CPU only, and returns the lowered
// program's path.
func (s *sparseOracleTools) lower(t *testing.T, src, base string) string {
	out := base + ".llvm.mlir"
	mustRun(t, s.mlirOpt, src, "--sparsifier=enable-runtime-library=true", "-o", out)
	return out
}

// TestSparseOracle runs testdata/sparse's programs, lowered by the sparsifier with its runtime
// library (CPU only), through mlir-runner-21 with upstream's libmlir_c_runner_utils (which holds
// the sparse tensor runtime library) and libmlir_runner_utils, and linked with the package's C
// archive, and compares what the two print, byte for byte but for memref addresses.
func TestSparseOracle(t *testing.T) {
	dir := t.TempDir()
	s := findSparseOracleTools(t, dir)
	progs, err := filepath.Glob("testdata/sparse/*.mlir")
	if err != nil || len(progs) == 0 {
		t.Fatalf("no programs in testdata/sparse: %v", err)
	}
	for _, src := range progs {
		name := strings.TrimSuffix(filepath.Base(src), ".mlir")
		t.Run(name, func(t *testing.T) {
			base := filepath.Join(dir, name)
			lowered := s.lower(t, src, base)
			want := mustRun(t, s.runner, lowered, "-e", "main", "-entry-point-result=void", "-shared-libs="+strings.Join(s.libs, ","))
			got := mustRun(t, s.link(t, lowered, s.archive, base))
			if len(want) == 0 {
				t.Fatal("upstream's run printed nothing")
			}
			w, g := oracleBase.ReplaceAll(want, []byte("base@ = B ")), oracleBase.ReplaceAll(got, []byte("base@ = B "))
			if !bytes.Equal(w, g) {
				t.Errorf("upstream printed\n%s\nwe print\n%s", w, g)
			}
		})
	}
}

// TestSparseRuntimeError checks that a program that the runtime cannot serve stops with its message
// and exit status 1: coordinates that do not fit the encoding's crdWidth.
func TestSparseRuntimeError(t *testing.T) {
	dir := t.TempDir()
	s := findSparseOracleTools(t, dir)
	src := testtool.WriteFile(t, dir, "overflow.mlir", `#SV8 = #sparse_tensor.encoding<{ map = (i) -> (i : compressed), crdWidth = 8 }>
func.func @main() {
  %d = arith.constant sparse<[[3], [299]], [1.0, 2.0]> : tensor<300xf64>
  %s = sparse_tensor.convert %d : tensor<300xf64> to tensor<300xf64, #SV8>
  sparse_tensor.print %s : tensor<300xf64, #SV8>
  return
}
`)
	base := filepath.Join(dir, "overflow")
	cmd := exec.Command(s.link(t, s.lower(t, src, base), s.archive, base))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	const want = "mlirrt: endLexInsert: level 0: coordinate 299 does not fit in i8\n"
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || stderr.String() != want {
		t.Errorf("the program ended with %v and printed %q; want exit status 1 and %q", err, stderr.String(), want)
	}
}
