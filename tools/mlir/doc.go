// Package mlir is rules_gpu's one reader of MLIR source text: it finds the gpu.module ops of a file
// (Modules), attaches NVVM targets to them (Attach), doing to the text what MLIR's
// --nvvm-attach-target pass does to the IR, and reads the objects of the gpu.binary ops that MLIR's
// gpu-module-to-binary pass prints (GPUObjects), and outlines a file for generators of BUILD files
// (ReadOutline: its gpu.modules, a host @main, kernel launches), all without an MLIR library. It is
// public so that rules_gpu's gazelle language reads MLIR as the build does. Attach keeps everything
// but the targets it attaches byte for byte: comments, string literals and the bodies of dialect
// attributes are skipped as MLIR's lexer skips them, so a "gpu.module @x {" inside a string or a
// comment is not a module.
//
// Target.Attribute prints the #nvvm.target attribute exactly as mlir-opt 21 prints it; the tests
// check Attach's output against mlir-opt 21's own --nvvm-attach-target (when mlir-opt-21 is on
// PATH or named by MLIR_OPT) and MLIR's serializer's acceptance of it (gpu-module-to-binary).
//
// # Module patterns
//
// Every verb that selects gpu.modules by name (gpubuild attach --module, gpubuild compile
// --module, and so gpu_module's module attribute) reads the pattern as MLIR's own module option
// (--nvvm-attach-target=module=...) reads it, through ModuleMatcher (and Target.Module):
//
//   - a POSIX extended regular expression, as llvm::Regex compiles it: | alternation, ( )
//     groups, * + ? and {n}, {n,}, {n,m} repetition, [...] bracket expressions with classes
//     such as [[:digit:]], and ^ $ anchors;
//   - searched for anywhere in the module's name (kernels selects @my_kernels_a; anchor it, as
//     in ^kernels$, to select one name exactly), byte by byte: "." is one byte of the name;
//   - the name is the symbol unescaped: @"k 1" is k 1, and @x.y is x.y, so x.y also selects
//     @xzy, while x\.y and x[.]y select only @x.y;
//   - the empty pattern selects every module.
//
// Patterns that llvm::Regex finds invalid (an empty alternative such as a|, a repeated
// repetition such as a** or a*?) and those that Go's regexp and llvm::Regex read differently
// (Perl escapes such as \d or \w, which are a plain d or w for MLIR; a backslash inside [...];
// [. .] and [= =]; a { that does not start a bound) are rejected with the reason, never read
// differently from MLIR. Only gpu.modules that are direct children of the top-level module are
// candidates, as for MLIR's passes.
package mlir
