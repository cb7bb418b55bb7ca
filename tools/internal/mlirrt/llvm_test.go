package mlirrt

import (
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/internal/testtool"
)

// llvmTools is the LLVM 21 toolchain the package's tests lower, link and run MLIR programs with,
// each tool from its variable or PATH (testtool.Find: the test is skipped without it).
type llvmTools struct {
	mlirOpt, translate, opt, llc, clang, runner string
}

// findLLVM finds every tool of llvmTools.
func findLLVM(t *testing.T) llvmTools {
	t.Helper()
	return llvmTools{
		mlirOpt:   testtool.LLVM(t, "mlir-opt"),
		translate: testtool.LLVM(t, "mlir-translate"),
		opt:       testtool.LLVM(t, "opt"),
		llc:       testtool.LLVM(t, "llc"),
		clang:     testtool.LLVM(t, "clang"),
		runner:    testtool.LLVM(t, "mlir-runner"),
	}
}

// runnerLibs finds mlir-runner's shared libraries by name (libmlir_runner_utils, ...), each from
// its variable (MLIR_RUNNER_UTILS, ...) or LLVM 21's library directory.
func runnerLibs(t *testing.T, names ...string) []string {
	t.Helper()
	var libs []string
	for _, n := range names {
		libs = append(libs, testtool.Find(t, strings.ToUpper(n), llvmLib+"lib"+n+".so.21.1"))
	}
	return libs
}

// link builds the lowered program (LLVM dialect, GPU binaries in it) as rules_gpu links an MLIR
// program: mlir-translate, llc to a PIC object base.o, and clang with the package's C archive into
// the executable base, which it returns.
func (l llvmTools) link(t *testing.T, lowered, archive, base string) string {
	t.Helper()
	mustRun(t, l.translate, "--mlir-to-llvmir", lowered, "-o", base+".ll")
	mustRun(t, l.llc, "-filetype=obj", "-relocation-model=pic", base+".ll", "-o", base+".o")
	l.linkObject(t, base+".o", archive, base)
	return base
}

// linkObject links an object with the package's C archive into the executable base.
func (l llvmTools) linkObject(t *testing.T, obj, archive, base string) {
	t.Helper()
	mustRun(t, l.clang, obj, archive, "-lcuda", "-lpthread", "-ldl", "-lm", "-o", base)
}
