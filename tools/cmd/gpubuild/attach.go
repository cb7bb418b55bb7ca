package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/internal/artifact"
	"github.com/rulesgpu/rules_gpu/tools/internal/mlir"
)

// runAttach attaches an NVVM target to the gpu.modules of an MLIR file, as mlir-opt's
// --nvvm-attach-target does, with the same option names and defaults.
func runAttach(_ context.Context, args []string, _, stderr io.Writer) error {
	fs := flag.NewFlagSet("attach", flag.ContinueOnError)
	fs.SetOutput(stderr)
	def := mlir.DefaultTarget()
	out := fs.String("o", "", "the MLIR file to write")
	label := fs.String("target", "", "the Bazel label, for error messages")
	module := fs.String("module", "", "attach to the gpu.modules whose name this regular expression matches (anywhere in the name); empty: all")
	triple := fs.String("triple", def.Triple, "the target triple")
	chipName := fs.String("chip", def.Chip, "the target chip")
	features := fs.String("features", def.Features, "the target features")
	opt := fs.Int("O", def.O, "the optimization level, 0 to 3")
	fast := fs.Bool("fast", false, "enable fast math")
	ftz := fs.Bool("ftz", false, "flush denormals to zero")
	var link multiFlag
	fs.Var(&link, "l", "a bitcode library to link (repeatable)")
	ptxas := fs.String("ptxas-cmd-options", "", "options for ptxas, one string split as a shell splits it")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() != 1 || *out == "" {
		fmt.Fprintln(stderr, "usage: gpubuild attach [--module REGEX] [--triple T] [--chip sm_90] [--features +ptx80] [-O 3] [--fast] [--ftz]\n"+
			"                       [-l LIB.bc]... [--ptxas-cmd-options \"...\"] [--target LABEL] -o OUT.mlir IN.mlir")
		return errUsage
	}
	in := fs.Arg(0)
	prefix := ""
	if *label != "" {
		prefix = *label + ": "
	}
	t := mlir.Target{Module: *module, Triple: *triple, Chip: *chipName, Features: *features, O: *opt,
		Fast: *fast, FTZ: *ftz, Link: link, PtxasOptions: *ptxas}
	if err := t.Validate(); err != nil {
		return fmt.Errorf("%s%s: %w", prefix, in, err)
	}
	src, err := os.ReadFile(in)
	if err != nil {
		return fmt.Errorf("%s%w", prefix, err)
	}
	res, rep, err := mlir.Attach(src, t)
	if err != nil {
		var se *mlir.SyntaxError
		if errors.As(err, &se) {
			return fmt.Errorf("%s%s:%w", prefix, in, err) // file:line:col: message
		}
		return fmt.Errorf("%s%s: %w", prefix, in, err)
	}
	if len(rep.Matched()) == 0 {
		return fmt.Errorf("%s%s: %s", prefix, in, noMatch(rep, *module))
	}
	if err := artifact.WriteFileAtomic(*out, res); err != nil {
		return fmt.Errorf("%s%w", prefix, err)
	}
	return nil
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
