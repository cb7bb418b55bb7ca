package compile

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	"github.com/rulesgpu/rules_gpu/tools/internal/atomicfile"
)

// prepareStage names the step Prepare runs, in messages.
const prepareStage = "run the passes before the GPU lowering"

// Prepare runs passes (mlir-opt's options, e.g. --convert-linalg-to-parallel-loops or
// --sparsifier=...) over an MLIR program before its GPU lowering and writes the result to out: the
// program as the per-chip lowering and the host compile then read it (gpu_binary's passes). The
// chips and format stay the rules' to decide: passes that serialize modules themselves (a
// pipeline's gpu-module-to-binary) leave nothing for the lowering to build for them.
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
	prepared := filepath.Join(tmp, "prepared.mlir")
	cmd := append(append([]string{t.MLIROpt}, passes...), src, "-o", prepared)
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
