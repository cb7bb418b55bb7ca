// Command cmain is package mlirrt as a C archive, for link_test.go: a main package that imports
// it, built with -buildmode=c-archive -tags cuda, so that a program lowered by MLIR links with it.
package main

import _ "github.com/rulesgpu/rules_gpu/tools/internal/mlirrt"

func main() {}
