package builder

import (
	"context"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/chip"
	"github.com/rulesgpu/rules_gpu/tools/internal/cmdline"
	"github.com/rulesgpu/rules_gpu/tools/internal/compile"
)

const dlinkUsage = `usage: gpubuild dlink --chip CHIP -o OUT.cubin [--nvlink PATH] [--origin SRC]... CUBIN...
  Links the relocatable cubins of nvcc's relocatable device code (gpubuild compile --compiler nvcc
  --rdc of each source, for CHIP) into one cubin for CHIP with the CUDA toolkit's nvlink: a
  __device__ function or variable one source defines can be used by another. Each CUBIN must be
  relocatable and for CHIP. OUT "-" is standard output. By hand, nvlink is found beside ptxas, as
  compile finds the toolkit; with --target (a Bazel action), only --nvlink is used.`

// runDLink links nvcc's relocatable cubins for one chip.
func (h helper) runDLink(ctx context.Context, env cmdline.Env, args []string) error {
	var o cmdline.Common
	var tools compile.Tools
	var origins cmdline.MultiFlag
	c := env.Command("dlink", dlinkUsage)
	o.Register(c, "the cubin `OUT` to write; - for standard output")
	chipName := c.String("chip", "", "the `CHIP` the cubins are for, e.g. sm_90")
	c.StringVar(&tools.NVLink, "nvlink", "", "nvlink (`PATH`; default: found beside ptxas)")
	c.Var(&origins, "origin", "a source of the cubins (`SRC`), as messages name it (repeatable)")
	cubins, err := c.ParseArgs(args, nil)
	if err != nil {
		return err
	}
	switch {
	case len(cubins) == 0:
		return c.UsageError("no cubin to link: give the relocatable cubins of gpubuild compile --compiler nvcc --rdc")
	case *chipName == "":
		return c.UsageError("no chip: give --chip, e.g. --chip sm_90")
	case o.Out == "":
		return c.UsageError("no output: give -o OUT.cubin (- for standard output)")
	}
	ch, err := chip.Parse(*chipName)
	if err != nil {
		return o.Wrap(err)
	}
	tools = h.discover(o.Target, tools)
	if err := o.CheckOut(cubins...); err != nil {
		return err
	}
	job := compile.Job{Target: o.Target, Chip: ch, Out: o.Out, Stdout: env.Stdout, Origin: strings.Join(origins, ", ")}
	return tools.DeviceLink(ctx, job, cubins)
}
