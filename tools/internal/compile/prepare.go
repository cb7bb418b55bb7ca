package compile

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/internal/atomicfile"
)

// prepareStage names the step Prepare runs, in messages.
const prepareStage = "run the passes before the GPU lowering"

// ruleOwned are the passes that the rules run themselves after the passes of a program: a
// gpu.module's target (nvvm-attach-target: one per chip), the serialization (gpu-module-to-binary:
// the format) and the host's GPU lowering that reads it (gpu-to-llvm). A pipeline among the passes
// that runs them (the sparsifier with a gpu-triple, gpu-lower-to-nvvm-pipeline) has them taken out,
// so that its own gpu-chip, gpu-features and gpu-format decide nothing.
var ruleOwned = []string{"nvvm-attach-target", "gpu-to-llvm", "gpu-module-to-binary"}

// gpuTriple is the target triple that Prepare gives a sparsifier that names none: its GPU code
// generation (kernels of parallel loops, cuSPARSE calls with enable-gpu-libgen) needs one.
const gpuTriple = "nvptx64-nvidia-cuda"

// Prepare runs passes (mlir-opt's options, e.g. --convert-linalg-to-parallel-loops or
// --sparsifier=...) over an MLIR program before its GPU lowering and writes the result to out: the
// program as the per-chip lowering and the host compile then read it (gpu_binary's passes).
//
// The chips and the format stay the rules' to decide. When the passes' pipeline (as mlir-opt
// expands it: --dump-pass-pipeline) runs a pass of ruleOwned, Prepare runs that pipeline without
// them, so the gpu.modules reach the per-chip lowering unserialized; a --sparsifier without a
// gpu-triple is given one (see sparsifierArgs for the options it refuses).
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
	if passes, err = sparsifierArgs(passes); err != nil {
		return job.fail(nil, "", err)
	}

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
	args := passes
	if pipeline, cut, err := withoutRuleOwned(printed); err != nil {
		return job.fail(dump, printed, err)
	} else if cut {
		args = []string{"--pass-pipeline=" + pipeline}
	}

	prepared := filepath.Join(tmp, "prepared.mlir")
	cmd := append(append([]string{t.MLIROpt}, args...), src, "-o", prepared)
	if err := job.exec(ctx, prepareStage, cmd...); err != nil {
		return err
	}
	data, err := os.ReadFile(prepared)
	if err != nil {
		return job.fail(nil, "", err)
	}
	if err := atomicfile.Write(out, data); err != nil {
		return job.fail(nil, "", err)
	}
	return nil
}

// sparsifierArgs gives each --sparsifier among passes a gpu-triple when it has none, and refuses
// the options that its pipeline loses once mlir-opt has expanded it to text: its
// sparsification-and-bufferization pass takes enable-runtime-library and
// enable-buffer-initialization only from the sparsifier's code (as text, both are off), and
// create-sparse-deallocs neither (off: the program's temporary sparse buffers live until it
// exits). rules_gpu's runtime has no sparse tensor runtime library anyway.
func sparsifierArgs(passes []string) ([]string, error) {
	out := slices.Clone(passes)
	for i, p := range out {
		name, opts, _ := strings.Cut(strings.TrimLeft(p, "-"), "=")
		if !strings.HasPrefix(p, "-") || name != "sparsifier" {
			continue
		}
		fields := strings.Fields(strings.Trim(opts, `"'`))
		value := func(key, def string) string {
			v := def
			for _, f := range fields {
				if k, val, ok := strings.Cut(f, "="); k == key {
					v = "true"
					if ok {
						v = val
					}
				}
			}
			return v
		}
		if value("enable-runtime-library", "true") != "false" {
			return nil, fmt.Errorf("%s: the sparsifier calls MLIR's sparse tensor runtime library (enable-runtime-library, on unless turned off), which rules_gpu's runtime does not have; fix: add enable-runtime-library=false to its options (its code then keeps sparse tensors in buffers of its own)", p)
		}
		if value("enable-buffer-initialization", "false") != "false" {
			return nil, fmt.Errorf("%s: enable-buffer-initialization is lost when rules_gpu runs the sparsifier's pipeline as text (to leave the chips and format to the rules); fix: remove it, and initialize the buffers the program reads", p)
		}
		if value("gpu-triple", "") == "" {
			fields = append(fields, "gpu-triple="+gpuTriple)
		}
		out[i] = "--sparsifier=" + strings.Join(fields, " ")
	}
	return out, nil
}

// withoutRuleOwned reads the pipeline that mlir-opt's --dump-pass-pipeline printed
// ("Pass Manager with N passes:\nbuiltin.module(\n  pass,\n  func.func(\n ...") and returns it in
// one line without the top-level passes of ruleOwned; cut says whether it had any.
func withoutRuleOwned(printed string) (pipeline string, cut bool, err error) {
	const head = "builtin.module("
	i := strings.Index(printed, head)
	j := strings.LastIndex(printed, ")")
	if i < 0 || j < i {
		return "", false, fmt.Errorf("mlir-opt printed no pass pipeline (--dump-pass-pipeline)")
	}
	var line strings.Builder
	for _, l := range strings.Split(printed[i+len(head):j], "\n") {
		line.WriteString(strings.TrimSpace(l))
	}
	var kept []string
	for _, pass := range splitTopLevel(line.String()) {
		name, _, _ := strings.Cut(pass, "{")
		if slices.Contains(ruleOwned, strings.TrimSpace(name)) {
			cut = true
			continue
		}
		kept = append(kept, pass)
	}
	return head + strings.Join(kept, ",") + ")", cut, nil
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
