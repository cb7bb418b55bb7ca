package gazelle

import (
	"regexp"

	"github.com/rulesgpu/rules_gpu/tools/mlir"
)

// mlirKind is what an .mlir file is to the build.
type mlirKind int

const (
	// mlirNone: no GPU code that a rule builds (no top-level gpu.module, no GPU program).
	mlirNone mlirKind = iota
	// mlirModules: kernels in gpu.modules, without a host program: gpu_module targets.
	mlirModules
	// mlirProgram: a host func.func @main that launches kernels (gpu.launch regions or
	// gpu.launch_func of its gpu.modules): a gpu_binary.
	mlirProgram
	// mlirTest: a program whose output its // CHECK: lines check: a gpu_test.
	mlirTest
)

func (k mlirKind) String() string {
	return [...]string{"none", "modules", "program", "test"}[k]
}

// mlirFile is what the extension reads from an .mlir file.
type mlirFile struct {
	Modules []string // the names of its gpu.modules that are not inside another one, in text order
	Main    bool     // a func.func @main outside every gpu.module (a host entry point)
	Launch  bool     // a gpu.launch or gpu.launch_func outside every gpu.module
	Check   bool     // a FileCheck directive comment: // CHECK:, // CHECK-NEXT:, ...
}

// Kind classifies the file: a program when it has a host @main that launches kernels (a test when
// its CHECK lines say what it prints), else modules when it has gpu.modules, else none.
func (f mlirFile) Kind() mlirKind {
	switch {
	case f.Main && f.Launch && f.Check:
		return mlirTest
	case f.Main && f.Launch:
		return mlirProgram
	case len(f.Modules) > 0:
		return mlirModules
	}
	return mlirNone
}

// checkDirective is a FileCheck directive with the default prefix, as gpu_test checks them:
// FileCheck finds one anywhere in a line where CHECK does not end a longer word (so it is not
// MLIR's to read: a directive is usually in a // comment, which MLIR's lexer skips).
var checkDirective = regexp.MustCompile(`(?m)(^|[^A-Za-z0-9_-])CHECK(-NEXT|-SAME|-NOT|-DAG|-LABEL|-EMPTY|-COUNT-[0-9]+)?(\{LITERAL\})?:`)

// readMLIR reads the ops of MLIR source text that decide its targets, through rules_gpu's one
// reader of MLIR text (tools/mlir, which the build's own actions use): the gpu.modules that
// MLIR's passes, and so gpu_module's module attribute, look at (those at the top level of the
// file or right inside its one builtin.module), and host code outside them. Text that the reader
// cannot read (an unterminated string, unbalanced braces) is an error that names the line.
func readMLIR(src []byte) (mlirFile, error) {
	o, err := mlir.ReadOutline(src)
	if err != nil {
		return mlirFile{}, err
	}
	f := mlirFile{Main: o.Main, Launch: o.Launch, Check: checkDirective.Match(src)}
	for _, m := range o.Modules {
		if m.TopLevel {
			f.Modules = append(f.Modules, m.Name)
		}
	}
	return f, nil
}
