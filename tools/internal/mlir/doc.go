// Package mlir handles MLIR source text for GPU modules: it finds the gpu.module ops of a file
// (Modules) and attaches NVVM targets to them (Attach), doing to the text what MLIR's
// --nvvm-attach-target pass does to the IR, without an MLIR library. Everything but the targets
// it attaches stays byte for byte: comments, string literals and the bodies of dialect attributes
// are skipped as MLIR's lexer skips them, so a "gpu.module @x {" inside a string or a comment is
// not a module.
//
// Target.Attribute prints the #nvvm.target attribute exactly as mlir-opt 21 prints it; the tests
// check Attach's output against mlir-opt 21's own --nvvm-attach-target (when mlir-opt-21 is on
// PATH or named by MLIR_OPT) and MLIR's serializer's acceptance of it (gpu-module-to-binary).
package mlir
