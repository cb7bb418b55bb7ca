package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/internal/cmdline"
	"github.com/rulesgpu/rules_gpu/tools/mlir"
)

const attachUsage = `usage: gpubuild attach [--module REGEX] [--triple T] [--chip sm_90] [--features +ptx80] [-O 3] [--fast] [--ftz]
                       [-l LIB.bc]... [--ptxas-cmd-options "..."] [--target LABEL] -o OUT.mlir IN.mlir
  As mlir-opt's --nvvm-attach-target, with the same option names and defaults. OUT "-" is standard
  output.`

// runAttach attaches an NVVM target to the gpu.modules of an MLIR file, as mlir-opt's
// --nvvm-attach-target does, with the same option names and defaults.
func runAttach(_ context.Context, env cmdline.Env, args []string) error {
	var o cmdline.Common
	c := env.Command("attach", attachUsage)
	def := mlir.DefaultTarget()
	o.Register(c, "the MLIR file `OUT` to write; - for standard output")
	module := c.String("module", "", "attach to the gpu.modules whose name the regular expression `REGEX` matches (anywhere in the name); empty: all")
	triple := c.String("triple", def.Triple, "the target `TRIPLE`")
	chipName := c.String("chip", def.Chip, "the target `CHIP`")
	features := c.String("features", def.Features, "the target `FEATURES`")
	opt := c.Int("O", def.O, "the optimization `LEVEL`, 0 to 3")
	fast := c.Bool("fast", false, "enable fast math")
	ftz := c.Bool("ftz", false, "flush denormals to zero")
	var link cmdline.MultiFlag
	c.Var(&link, "l", "a bitcode `LIBRARY` to link (repeatable)")
	ptxas := c.String("ptxas-cmd-options", "", "`OPTIONS` for ptxas, one string split as a shell splits it")
	files, err := c.ParseArgs(args, nil)
	if err != nil {
		return err
	}
	switch {
	case o.Out == "":
		return c.UsageError("no output: give -o OUT.mlir (- for standard output)")
	case len(files) != 1:
		return c.UsageError("one MLIR file, please (have %d)", len(files))
	}
	in := files[0]
	if err := o.CheckOut(in); err != nil {
		return err
	}
	t := mlir.Target{Module: *module, Triple: *triple, Chip: *chipName, Features: *features, O: *opt,
		Fast: *fast, FTZ: *ftz, Link: link, PtxasOptions: *ptxas}
	if err := t.Validate(); err != nil {
		return o.Errorf("%s: %w", in, err)
	}
	src, err := os.ReadFile(in)
	if err != nil {
		return o.Wrap(err)
	}
	res, rep, err := mlir.Attach(src, t)
	if err != nil {
		var se *mlir.SyntaxError
		if errors.As(err, &se) {
			return o.Errorf("%s:%w", in, err) // file:line:col: message
		}
		return o.Errorf("%s: %w", in, err)
	}
	if len(rep.Matched()) == 0 {
		return o.Errorf("%s: %s", in, noMatch(rep, *module))
	}
	return o.Write(env.Stdout, res)
}

// noMatch says why no gpu.module took the target, listing the modules there are.
func noMatch(rep mlir.Report, module string) string {
	if len(rep.Modules) == 0 {
		return "no gpu.module in the file"
	}
	var top, nested []string
	for _, m := range rep.Modules {
		s := fmt.Sprintf("@%s (line %d)", m.Name, m.Line)
		if m.Outcome == mlir.Nested {
			nested = append(nested, s)
		} else {
			top = append(top, s)
		}
	}
	if len(top) == 0 {
		return "no gpu.module is a direct child of the top-level module, the only ones --nvvm-attach-target changes; nested: " +
			strings.Join(nested, ", ")
	}
	return fmt.Sprintf("no gpu.module matched --module %q; the gpu.modules: %s", module, strings.Join(top, ", "))
}
