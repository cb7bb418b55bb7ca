package mlirrt

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/internal/testtool"
)

// sparseOracleTools finds what TestSparseOracle and TestSparseRuntimeError need, skipping the test
// without them, and builds the C archive of the package (./archive, with the cuda tag) into dir.
type sparseOracleTools struct {
	opt, runner, translate, llc, clang, archive string
	libs                                        []string
}

func findSparseOracleTools(t *testing.T, dir string) *sparseOracleTools {
	goTool := goModule(t)
	s := &sparseOracleTools{
		opt:       testtool.Find(t, "MLIR_OPT", "mlir-opt-21"),
		runner:    testtool.Find(t, "MLIR_RUNNER", "mlir-runner-21"),
		translate: testtool.Find(t, "MLIR_TRANSLATE", "mlir-translate-21"),
		llc:       testtool.Find(t, "LLC", "llc-21"),
		clang:     testtool.Find(t, "CLANG", "clang-21"),
		libs: []string{
			testtool.Find(t, "MLIR_C_RUNNER_UTILS", llvmLib+"libmlir_c_runner_utils.so.21.1"),
			testtool.Find(t, "MLIR_RUNNER_UTILS", llvmLib+"libmlir_runner_utils.so.21.1"),
		},
		archive: cArchive(t, goTool, dir),
	}
	return s
}

// lower runs the sparsifier with the runtime library on src, CPU only, and returns the lowered
// program's path.
func (s *sparseOracleTools) lower(t *testing.T, src, base string) string {
	out := base + ".llvm.mlir"
	mustRun(t, s.opt, src, "--sparsifier=enable-runtime-library=true", "-o", out)
	return out
}

// link builds the lowered program as rules_gpu links an MLIR program: an object, and the C archive.
func (s *sparseOracleTools) link(t *testing.T, lowered, base string) string {
	mustRun(t, s.translate, "--mlir-to-llvmir", lowered, "-o", base+".ll")
	mustRun(t, s.llc, "-filetype=obj", "-relocation-model=pic", base+".ll", "-o", base+".o")
	mustRun(t, s.clang, base+".o", s.archive, "-lcuda", "-lpthread", "-ldl", "-lm", "-o", base)
	return base
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
			got := mustRun(t, s.link(t, lowered, base))
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
	cmd := exec.Command(s.link(t, s.lower(t, src, base), base))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	const want = "mlirrt: endLexInsert: level 0: coordinate 299 does not fit in i8\n"
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || stderr.String() != want {
		t.Errorf("the program ended with %v and printed %q; want exit status 1 and %q", err, stderr.String(), want)
	}
}
