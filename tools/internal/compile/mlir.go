package compile

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/internal/modules"
	"github.com/rulesgpu/rules_gpu/tools/mlir"
)

// lowerPipeline lowers the nvgpu dialect and outlines gpu.launch regions into gpu.modules
// (OutlinePasses), then lowers the device code of every gpu.module to the LLVM and NVVM dialects, as
// MLIR's own gpu-lower-to-nvvm-pipeline does for the device side.
const lowerPipeline = "builtin.module(" + OutlinePasses + "," + deviceLowering + ")"

// mlirToLLVM lowers the selected gpu.module with mlir-opt, wraps its body in a builtin module and
// translates that to LLVM IR with mlir-translate.
func (t Tools) mlirToLLVM(ctx context.Context, job Job, src string, step func(string) string) (string, error) {
	text, err := t.lowerDevice(ctx, job, src, step)
	if err != nil {
		return "", err
	}
	body, err := moduleBody(text, job.MLIR)
	if err != nil {
		return "", job.fail(nil, "", err)
	}
	out := step("device.ll")
	return out, t.translateBody(ctx, job, body, step("device.mlir"), out)
}

// lowerDevice runs lowerPipeline over an MLIR source and returns mlir-opt's printed output.
func (t Tools) lowerDevice(ctx context.Context, job Job, src string, step func(string) string) ([]byte, error) {
	lowered := step("lowered.mlir")
	if err := job.exec(ctx, "lower to NVVM", t.MLIROpt, "--pass-pipeline="+lowerPipeline, src, "-o", lowered); err != nil {
		return nil, err
	}
	text, err := os.ReadFile(lowered)
	if err != nil {
		return nil, job.fail(nil, "", err)
	}
	return text, nil
}

// translateBody wraps a lowered gpu.module's body in a builtin module for NVPTX (written to
// wrapped) and translates it to LLVM IR (out) with mlir-translate.
func (t Tools) translateBody(ctx context.Context, job Job, body, wrapped, out string) error {
	doc := "module attributes {llvm.target_triple = \"nvptx64-nvidia-cuda\"} {\n" + body + "}\n"
	if err := os.WriteFile(wrapped, []byte(doc), 0o644); err != nil {
		return job.fail(nil, "", err)
	}
	return job.exec(ctx, "translate to LLVM IR", t.MLIRTranslate, "--mlir-to-llvmir", wrapped, "-o", out)
}

// LowerProgram lowers the device code of every gpu.module of an MLIR program — the top-level ones it
// holds, and those gpu-kernel-outlining makes of its gpu.launch regions — to LLVM IR, one file per
// module, NAME.ll, in the directory job.Out (made if missing; job.Format is FormatLLVM). It returns
// the modules' names in the program's order. The files appear only when every module lowered; a
// module name that is not a bare identifier (@"my kernels") is an error that says to rename it.
func (t Tools) LowerProgram(ctx context.Context, job Job) ([]string, error) {
	job.missing = t.Missing
	job.Kind, job.Format = KindMLIR, FormatLLVM
	if err := t.check(job); err != nil {
		return nil, err
	}
	tmp, err := modules.Temp(job.Out)
	if err != nil {
		return nil, job.fail(nil, "", err)
	}
	defer os.RemoveAll(tmp)
	job.tmp = tmp
	step := func(name string) string { return filepath.Join(tmp, name) }
	text, err := t.lowerDevice(ctx, job, job.Src, step)
	if err != nil {
		return nil, err
	}
	mods, err := mlir.Modules(text)
	if err != nil {
		return nil, job.fail(nil, "", fmt.Errorf("cannot read mlir-opt's output: %w", err))
	}
	var names []string
	files := map[string]string{}
	for _, m := range mods {
		if !m.TopLevel {
			continue
		}
		// A program's per-module files are named after the modules: a bare identifier (what
		// outlining makes: main_kernel, main_kernel_0) is a file name as it is.
		if err := modules.CheckName(m.Name); err != nil {
			return nil, job.fail(nil, "", err)
		}
		body := strings.TrimRight(strings.TrimPrefix(string(text[m.BodyStart:m.BodyEnd]), "\n"), " \t")
		out := step(m.Name + FormatLLVM.Extension())
		mjob := job
		mjob.Origin = job.sources() + " (gpu.module @" + m.Name + ")"
		if err := t.translateBody(ctx, mjob, body, step(m.Name+".device.mlir"), out); err != nil {
			return nil, err
		}
		names = append(names, m.Name)
		files[m.Name+FormatLLVM.Extension()] = out
	}
	if len(names) == 0 && !callsGPU(text) {
		return nil, job.fail(nil, "", errNoGPU)
	}
	if err := modules.Place(job.Out, files); err != nil {
		return nil, job.fail(nil, "", err)
	}
	return names, nil
}

// moduleBody returns the body of the one gpu.module of mlir-opt's printed output whose name the
// pattern selects (every module when empty), read by package mlir, with the pattern read as
// package mlir documents ("Module patterns": POSIX extended, as MLIR's own module option, matched
// anywhere in the name): the same rules as gpubuild attach --module. Only the gpu.modules that
// are direct children of the top-level module are candidates, as for the lowering pipeline and
// --nvvm-attach-target. The body is the text between the module's braces, less the line break
// after the { and the indentation before the }.
func moduleBody(printed []byte, opts MLIROptions) (string, error) {
	sel, err := mlir.NewModuleMatcher(opts.Module)
	if err != nil {
		return "", fmt.Errorf("%s: %w", opts.selection(), err)
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
		return "", fmt.Errorf("no gpu.module matches %s (the source has %s): fix: a regular expression matching one of them", opts.selection(), strings.Join(names, ", "))
	case len(picked) > 1:
		return "", fmt.Errorf("%d gpu.modules match %s (%s): select one module per target", len(picked), opts.selection(), strings.Join(names, ", "))
	}
	body := string(printed[picked[0].BodyStart:picked[0].BodyEnd])
	return strings.TrimRight(strings.TrimPrefix(body, "\n"), " \t"), nil
}

// CompileProgram compiles every module of a program for job.Chip: each file NAME.ll, NAME.bc or NAME.ptx of
// the directory job.Src (what LowerProgram, or a CompileProgram to PTX, wrote) becomes NAME.cubin,
// NAME.ptx or NAME.bc, by job.Format, in the directory job.Out. Errors name job.Origin (the
// program) and the module. The files appear only when every module compiled.
func (t Tools) CompileProgram(ctx context.Context, job Job) error {
	ext := job.Format.Extension()
	if job.Format != FormatBin && job.Format != FormatISA && job.Format != FormatOffload {
		return job.fail(nil, "", fmt.Errorf("a program's modules compile to bin, isa or offload, not %s", job.Format))
	}
	mods, err := modules.Read(job.Src, FormatLLVM.Extension(), FormatOffload.Extension(), FormatISA.Extension())
	if err != nil {
		return job.fail(nil, "", err)
	}
	tmp, err := modules.Temp(job.Out)
	if err != nil {
		return job.fail(nil, "", err)
	}
	defer os.RemoveAll(tmp)
	job.tmp = tmp
	origin := job.Origin
	if origin == "" {
		origin = job.Src
	}
	files := map[string]string{}
	for _, m := range mods {
		kind, err := KindOf(m.Path)
		if err != nil {
			return job.fail(nil, "", err)
		}
		mjob := job
		mjob.Src, mjob.Kind, mjob.LLVM.Link = m.Path, kind, nil
		mjob.Origin = origin + " (gpu.module @" + m.Name + ")"
		mjob.Out = filepath.Join(tmp, m.Name+ext)
		if err := t.Compile(ctx, mjob); err != nil {
			return err
		}
		files[m.Name+ext] = mjob.Out
	}
	if err := modules.Place(job.Out, files); err != nil {
		return job.fail(nil, "", err)
	}
	return nil
}

// errNoGPU is the error of a program with no GPU code at all.
var errNoGPU = errors.New("no gpu.module or gpu.launch in the program: a GPU program launches kernels of a gpu.module (gpu.launch_func), or gpu.launch regions, or calls GPU libraries (gpu.spmv, ...)")

// gpuOp matches an op of the gpu dialect, or a call of the runtime's GPU wrappers.
var gpuOp = regexp.MustCompile(`(?m)(^|[\s=])gpu\.[a-z_0-9]+\b|@mgpu[A-Z]`)

// callsGPU says whether a program with no kernels of its own uses the GPU all the same: through
// library calls (the sparsifier's cuSPARSE ops), copies or allocations. Such a program has no
// modules to build, for any chip.
func callsGPU(src []byte) bool {
	return gpuOp.Match(src)
}
