// Package versionfirst answers `gpurun --version` before any package that needs a GPU starts:
// gorgonia.org/cu, which gpurun's launch package uses, calls cuInit in its package initialization
// and exits where there is no driver, before main runs.
//
// Go initializes, at each step, the first package in import-path order whose imports are all
// initialized (the Go specification, "Package initialization"). This package imports only os and
// tools/internal/version (which imports nothing), so it is ready as soon as os is, before
// gorgonia.org/cu (which needs os and more), and its path sorts before gorgonia.org/cu's: its init
// runs first. gpurun imports it for that alone.
package versionfirst

import (
	"os"

	"github.com/rulesgpu/rules_gpu/tools/internal/version"
)

func init() {
	if len(os.Args) == 2 && (os.Args[1] == "--version" || os.Args[1] == "-version") {
		os.Stdout.WriteString(version.Line("gpurun") + "\n")
		os.Exit(0)
	}
}
