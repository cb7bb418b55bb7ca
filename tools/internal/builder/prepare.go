package builder

import (
	"context"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/internal/cmdline"
	"github.com/rulesgpu/rules_gpu/tools/internal/compile"
)

const prepareUsage = `usage: gpubuild prepare --pass OPTION [--pass OPTION]... -o OUT.mlir [--mlir-opt PATH] SRC.mlir
  Runs mlir-opt with the passes (each --pass one of its options, e.g.
  --pass=--convert-linalg-to-parallel-loops) over an MLIR program before its GPU lowering, as a
  RUN line's first mlir-opt does, and writes the program that compile --chips and host then read.
  The chips and the format stay theirs to decide.`

// runPrepare runs the passes a program needs before its GPU lowering.
func (h helper) runPrepare(ctx context.Context, env cmdline.Env, args []string) error {
	var o cmdline.Common
	var passes cmdline.MultiFlag
	var tools compile.Tools
	c := env.Command("prepare", prepareUsage)
	o.Register(c, "the MLIR file `OUT` to write")
	c.Var(&passes, "pass", "an mlir-opt `OPTION` to run, in order (repeatable)")
	c.StringVar(&tools.MLIROpt, "mlir-opt", "", "mlir-opt (`PATH`; default: found with LLVM)")
	srcs, err := c.ParseArgs(args, nil)
	if err != nil {
		return err
	}
	switch {
	case len(srcs) != 1 || !strings.HasSuffix(srcs[0], ".mlir"):
		return c.UsageError("give one MLIR source (SRC.mlir)")
	case o.Out == "" || o.Out == "-":
		return c.UsageError("give -o OUT.mlir")
	case len(passes) == 0:
		return c.UsageError("give the passes to run: --pass OPTION, e.g. --pass=--convert-linalg-to-parallel-loops")
	}
	tools = h.discover(o.Target, tools)
	if err := o.CheckOut(srcs...); err != nil {
		return err
	}
	return tools.Prepare(ctx, o.Target, srcs[0], passes, o.Out)
}
