// Command archive is package mlirrt as a C archive: the runtime that rules_gpu's gpu_binary and
// gpu_test link into an MLIR program (built with -buildmode=c-archive and the cuda tag; the
// program's object calls its mgpu* and print* functions, and it calls the CUDA driver, -lcuda).
package main

import _ "github.com/rulesgpu/rules_gpu/tools/internal/mlirrt"

func main() {}
