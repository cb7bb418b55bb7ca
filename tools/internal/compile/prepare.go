package compile

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/internal/atomicfile"
)

// prepareStage names the step Prepare runs, in messages.
const prepareStage = "run the passes before the GPU lowering"

// ruleOwned are the passes that the rules run themselves after the passes of a program: a
// gpu.module's target (nvvm-attach-target: one per chip), the serialization (gpu-module-to-binary:
// the format) and the host's GPU lowering that reads it (gpu-to-llvm). The program that a pipeline
// among the passes (the sparsifier with a gpu-triple, gpu-lower-to-nvvm-pipeline) hands to the first
// of them is what the rules take, so that its own gpu-chip, gpu-features and gpu-format decide
// nothing.
var ruleOwned = []string{"nvvm-attach-target", "gpu-to-llvm", "gpu-module-to-binary"}

// gpuTriple is the target triple that Prepare gives a sparsifier that names none: its GPU code
// generation (kernels of parallel loops, cuSPARSE calls with enable-gpu-libgen) needs one.
const gpuTriple = "nvptx64-nvidia-cuda"

// Prepare runs passes (mlir-opt's options, e.g. --convert-linalg-to-parallel-loops or
// --sparsifier=...) over an MLIR program before its GPU lowering and writes the result to out: the
// program as the per-chip lowering and the host compile then read it (gpu_binary's passes).
//
// The chips and the format stay the rules' to decide. When the passes' pipeline (as mlir-opt
// expands it: --dump-pass-pipeline) runs a pass of ruleOwned, the program is taken as it is just
// before the first of them (--mlir-print-ir-before), the pipeline running as given otherwise, so
// that every option of the pipeline counts except its target and format; what mlir-opt does from
// there on (serializing for the pipeline's own chip) is thrown away, a failure included. A
// --sparsifier is given a gpu-triple when it has none and serializes to PTX (gpu-format=isa: no
// ptxas needed for output that is thrown away).
func (t Tools) Prepare(ctx context.Context, target, src string, passes []string, out string) error {
	job := Job{Target: target, Src: src, chips: "every chip (" + prepareStage + ")"}
	if len(passes) == 0 {
		return job.fail(nil, "", errors.New("no passes to run: give mlir-opt's options, e.g. --convert-linalg-to-parallel-loops"))
	}
	tmp, err := atomicfile.MkdirTemp(out)
	if err != nil {
		return job.fail(nil, "", err)
	}
	defer os.RemoveAll(tmp)
	job.tmp = tmp
	passes = sparsifierArgs(passes)

	// mlir-opt's own expansion of the passes, over an empty module.
	empty := filepath.Join(tmp, "empty.mlir")
	if err := os.WriteFile(empty, []byte("module {}\n"), 0o644); err != nil {
		return job.fail(nil, "", err)
	}
	dump := append(append([]string{t.MLIROpt}, passes...), "--dump-pass-pipeline", empty, "-o", os.DevNull)
	printed, err := job.run(ctx, prepareStage, dump...)
	if err != nil {
		return err
	}
	first, err := firstRuleOwned(printed)
	if err != nil {
		return job.fail(dump, printed, err)
	}

	prepared := filepath.Join(tmp, "prepared.mlir")
	cmd := append([]string{t.MLIROpt}, passes...)
	if first != "" {
		tree := filepath.Join(tmp, "before")
		cmd = append(cmd, "--mlir-print-ir-before="+first, "--mlir-print-ir-tree-dir="+tree, src, "-o", os.DevNull)
		printed, err := job.run(ctx, prepareStage, cmd...)
		dumps, _ := filepath.Glob(filepath.Join(tree, "*", "*_"+first+".mlir"))
		if len(dumps) == 0 {
			if err != nil {
				return err
			}
			return job.fail(cmd, printed, fmt.Errorf("mlir-opt did not print the program before %s", first))
		}
		slices.Sort(dumps)
		prepared = dumps[0]
	} else {
		cmd = append(cmd, src, "-o", prepared)
		if err := job.exec(ctx, prepareStage, cmd...); err != nil {
			return err
		}
	}
	data, err := os.ReadFile(prepared)
	if err != nil {
		return job.fail(nil, "", err)
	}
	if calls := sparseFileCalls(data); len(calls) > 0 {
		return job.fail(cmd, "", fmt.Errorf("the program reads or writes sparse tensor files (sparse_tensor.new, sparse_tensor.out) through MLIR's sparse tensor runtime library (%s), which rules_gpu's runtime does not have (it has the rest of that library); fix: build the tensor in the program instead, from a dense tensor with sparse_tensor.convert or from buffers with sparse_tensor.assemble", strings.Join(calls, ", ")))
	}
	if err := atomicfile.Write(out, data); err != nil {
		return job.fail(nil, "", err)
	}
	return nil
}

// sparsifierArgs gives each --sparsifier among passes a gpu-triple when it has none, and
// gpu-format=isa.
func sparsifierArgs(passes []string) []string {
	out := slices.Clone(passes)
	for i, p := range out {
		name, opts, _ := strings.Cut(strings.TrimLeft(p, "-"), "=")
		if !strings.HasPrefix(p, "-") || name != "sparsifier" {
			continue
		}
		var fields []string
		triple := false
		for _, f := range strings.Fields(strings.Trim(opts, `"'`)) {
			k, _, _ := strings.Cut(f, "=")
			triple = triple || k == "gpu-triple"
			if k != "gpu-format" {
				fields = append(fields, f)
			}
		}
		if !triple {
			fields = append(fields, "gpu-triple="+gpuTriple)
		}
		out[i] = "--sparsifier=" + strings.Join(append(fields, "gpu-format=isa"), " ")
	}
	return out
}

// firstRuleOwned reads the pipeline that mlir-opt's --dump-pass-pipeline printed
// ("Pass Manager with N passes:\nbuiltin.module(\n  pass,\n  func.func(\n ...") and returns the
// first of its top-level passes that is one of ruleOwned, or "".
func firstRuleOwned(printed string) (string, error) {
	const head = "builtin.module("
	i := strings.Index(printed, head)
	j := strings.LastIndex(printed, ")")
	if i < 0 || j < i {
		return "", fmt.Errorf("mlir-opt printed no pass pipeline (--dump-pass-pipeline)")
	}
	var line strings.Builder
	for _, l := range strings.Split(printed[i+len(head):j], "\n") {
		line.WriteString(strings.TrimSpace(l))
	}
	for _, pass := range splitTopLevel(line.String()) {
		name, _, _ := strings.Cut(pass, "{")
		if slices.Contains(ruleOwned, strings.TrimSpace(name)) {
			return strings.TrimSpace(name), nil
		}
	}
	return "", nil
}

// splitTopLevel splits a pass list at the commas outside parentheses, braces and quotes.
func splitTopLevel(s string) []string {
	var out []string
	depth, quoted, start := 0, false, 0
	for k, r := range s {
		switch {
		case r == '"':
			quoted = !quoted
		case quoted:
		case r == '(' || r == '{':
			depth++
		case r == ')' || r == '}':
			depth--
		case r == ',' && depth == 0:
			out = append(out, s[start:k])
			start = k + 1
		}
	}
	if rest := strings.TrimSpace(s[start:]); rest != "" {
		out = append(out, s[start:])
	}
	return out
}

// sparseFileEntry matches a declaration of an entry point of MLIR's sparse tensor runtime library
// (upstream SparseTensorRuntime.h) that reads or writes files: the sparsifier calls them for
// sparse_tensor.new and sparse_tensor.out, with or without enable-runtime-library. Package mlirrt
// has the library's other entry points.
var sparseFileEntry = regexp.MustCompile(`(?m)^\s*llvm\.func (?:private )?@((?:_mlir_ciface_)?(?:createCheckedSparseTensorReader|getSparseTensorReader\w*|outSparseTensorWriter\w*|createSparseTensorWriter|delSparseTensorReader|delSparseTensorWriter|getTensorFilename))\(`)

// sparseFileCalls lists the sparse tensor runtime's file entry points that an MLIR program
// declares.
func sparseFileCalls(text []byte) []string {
	var names []string
	for _, m := range sparseFileEntry.FindAllSubmatch(text, -1) {
		if n := strings.TrimPrefix(string(m[1]), "_mlir_ciface_"); !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}
