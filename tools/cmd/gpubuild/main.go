// Command gpubuild is rules_gpu's helper: the one binary that Bazel actions run. Each verb is a thin
// layer of flags over a package under tools/.
//
//	gpubuild compile --chip sm_90 --ptxas PATH --out OUT.cubin SRC.ptx
//	gpubuild link -o OUT.fatbin [--compress lz4] [--compress-all] [CHIP=]IMAGE...
//	gpubuild inspect [--json] FILE...
//	gpubuild extract -o DIR FILE
//	gpubuild check --runs-on sm_75,sm_90 [--driver 13.0] [--json] FILE...
//
// Arguments may come from Bazel parameter files ("--params=FILE").
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/rulesgpu/rules_gpu/tools/chip"
	"github.com/rulesgpu/rules_gpu/tools/compile"
	"github.com/rulesgpu/rules_gpu/tools/params"
)

type verb struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

func verbs() map[string]verb {
	return map[string]verb{
		"compile": {"compile one source for one chip (PTX → cubin with ptxas)", runCompile},
		"link":    {"join cubins and PTX into one fatbin", runLink},
		"inspect": {"list the images in fatbins, cubins and PTX files", runInspect},
		"extract": {"write each image of a fatbin to a file, decompressed", runExtract},
		"check":   {"say whether artifacts load on runner chips (and drivers), and why not", runCheck},
	}
}

// errUsage marks errors whose message is a usage text already printed.
var errUsage = errors.New("usage")

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	args, err := params.Expand(args)
	if err != nil {
		fmt.Fprintf(stderr, "gpubuild: %v\n", err)
		return 2
	}
	vs := verbs()
	if len(args) == 0 || vs[args[0]].run == nil {
		fmt.Fprintln(stderr, "usage: gpubuild VERB [FLAGS] [ARGS]\n\nverbs:")
		for _, name := range []string{"compile", "link", "inspect", "extract", "check"} {
			fmt.Fprintf(stderr, "  %-10s %s\n", name, vs[name].summary)
		}
		return 2
	}
	if err := vs[args[0]].run(ctx, args[1:], stdout, stderr); err != nil {
		if errors.Is(err, errUsage) || errors.Is(err, flag.ErrHelp) {
			return 2
		}
		fmt.Fprintf(stderr, "gpubuild %s: %v\n", args[0], err)
		return 1
	}
	return 0
}

func runCompile(ctx context.Context, args []string, _, stderr io.Writer) error {
	fs := flag.NewFlagSet("compile", flag.ContinueOnError)
	fs.SetOutput(stderr)
	target := fs.String("target", "", "the Bazel label, for error messages")
	chipName := fs.String("chip", "", "the chip to compile for, e.g. sm_90")
	ptxas := fs.String("ptxas", "ptxas", "the ptxas binary")
	out := fs.String("out", "", "the cubin to write")
	toolkit := fs.String("toolkit", "", "the CUDA toolkit's version (e.g. 12.4): check the chip and the PTX against it first")
	var opts multiFlag
	fs.Var(&opts, "ptxas_opt", "an extra ptxas option (repeatable)")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() != 1 || *out == "" || *chipName == "" {
		fmt.Fprintln(stderr, "usage: gpubuild compile --chip CHIP --out OUT.cubin [--ptxas PATH] [--toolkit 12.4] [--target LABEL] SRC.ptx")
		return errUsage
	}
	name := *target
	if name == "" {
		name = fs.Arg(0)
	}
	c, err := chip.Parse(*chipName)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	var tk chip.Toolkit
	if *toolkit != "" {
		if tk, err = chip.ParseToolkit(*toolkit); err != nil {
			return fmt.Errorf("%s: toolkit: %w", name, err)
		}
	}
	return compile.Ptxas{Path: *ptxas}.Compile(ctx, compile.Request{
		Target: name, Src: fs.Arg(0), Out: *out, Chip: c, Options: opts, Toolkit: tk,
	})
}

type multiFlag []string

func (m *multiFlag) String() string     { return fmt.Sprint(*m) }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }
