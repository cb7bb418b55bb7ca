package compile

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/internal/mlir"
)

// lowerPipeline outlines gpu.launch regions into gpu.modules (gpu-kernel-outlining: a launch in
// @main becomes gpu.module @main_kernel, as in MLIR's integration tests; existing gpu.modules are
// kept) and lowers the device code of every gpu.module to the LLVM and NVVM dialects, as MLIR's own
// gpu-lower-to-nvvm-pipeline does for the device side.
const lowerPipeline = "builtin.module(gpu-kernel-outlining,gpu.module(strip-debuginfo,convert-scf-to-cf,convert-gpu-to-nvvm,canonicalize,cse,reconcile-unrealized-casts))"

// mlirToLLVM lowers the selected gpu.module with mlir-opt, wraps its body in a builtin module and
// translates that to LLVM IR with mlir-translate.
func (t Tools) mlirToLLVM(ctx context.Context, job Job, src string, step func(string) string) (string, error) {
	lowered := step("lowered.mlir")
	if err := job.exec(ctx, "lower to NVVM", t.MLIROpt, "--pass-pipeline="+lowerPipeline, src, "-o", lowered); err != nil {
		return "", err
	}
	text, err := os.ReadFile(lowered)
	if err != nil {
		return "", job.fail(nil, "", err)
	}
	body, err := moduleBody(text, job.Module)
	if err != nil {
		return "", job.fail(nil, "", err)
	}
	wrapped := step("device.mlir")
	doc := "module attributes {llvm.target_triple = \"nvptx64-nvidia-cuda\"} {\n" + body + "}\n"
	if err := os.WriteFile(wrapped, []byte(doc), 0o644); err != nil {
		return "", job.fail(nil, "", err)
	}
	out := step("device.ll")
	if err := job.exec(ctx, "translate to LLVM IR", t.MLIRTranslate, "--mlir-to-llvmir", wrapped, "-o", out); err != nil {
		return "", err
	}
	return out, nil
}

// moduleBody returns the body of the one gpu.module of mlir-opt's printed output whose name the
// pattern selects (every module when empty), read by package mlir, with the pattern read as
// package mlir documents ("Module patterns": POSIX extended, as MLIR's own module option, matched
// anywhere in the name): the same rules as gpubuild attach --module. Only the gpu.modules that
// are direct children of the top-level module are candidates, as for the lowering pipeline and
// --nvvm-attach-target. The body is the text between the module's braces, less the line break
// after the { and the indentation before the }.
func moduleBody(printed []byte, pattern string) (string, error) {
	sel, err := mlir.NewModuleMatcher(pattern)
	if err != nil {
		return "", fmt.Errorf("--module %q: %w", pattern, err)
	}
	mods, err := mlir.Modules(printed)
	if err != nil {
		return "", fmt.Errorf("cannot read mlir-opt's output: %w", err)
	}
	var picked []mlir.Module
	var names, nested []string // the candidates' names; the others'
	for _, m := range mods {
		if !m.TopLevel {
			nested = append(nested, "@"+m.Name)
			continue
		}
		names = append(names, "@"+m.Name)
		if sel.Match(m.Name) {
			picked = append(picked, m)
		}
	}
	switch {
	case len(mods) == 0:
		return "", fmt.Errorf("no gpu.module or gpu.launch in the source: kernels must be inside a gpu.module, or be gpu.launch regions (outlined into gpu.module @FUNC_kernel)")
	case len(names) == 0:
		return "", fmt.Errorf("no gpu.module is a direct child of the top-level module (nested: %s): kernels must be in a gpu.module at the top level", strings.Join(nested, ", "))
	case len(picked) == 0:
		return "", fmt.Errorf("no gpu.module matches --module %q (the source has %s)", pattern, strings.Join(names, ", "))
	case len(picked) > 1:
		return "", fmt.Errorf("%d gpu.modules match --module %q (%s): select one module per target", len(picked), pattern, strings.Join(names, ", "))
	}
	body := string(printed[picked[0].BodyStart:picked[0].BodyEnd])
	return strings.TrimRight(strings.TrimPrefix(body, "\n"), " \t"), nil
}
