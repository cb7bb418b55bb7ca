package main

import (
	"context"
	"io"

	"github.com/rulesgpu/rules_gpu/tools/internal/compile"
	"github.com/rulesgpu/rules_gpu/tools/internal/cudahost"
)

const hostUsage = `usage: gpubuild host (--fatbin FATBIN | --rdc) -o OUT.o [-O 2] [--clang PATH] [--cuda-path DIR]
                     [CLANG OPTIONS] [--host-opt OPTION]... SRC.cu
  Compiles the host side of a CUDA C++ source with clang into a position-independent object file
  (OUT "-" is standard output). With --fatbin, the object embeds FATBIN, the source's own device
  code (gpubuild link of its cubins and PTX), and registers it at start-up. With --rdc (relocatable
  device code), it embeds none, and calls the registration of the fatbin of all the sources' device
  code linked for each chip, which gpubuild register writes.
  -I DIR, -isystem DIR, -iquote DIR, -idirafter DIR, -include FILE, -D NAME[=VALUE], -U NAME and
  -std=c++17 go to clang as with compile (give them the device compilation's values); --host-opt
  gives other clang options of the host compilation, one by one. By hand, clang and the CUDA toolkit
  root are found as compile finds them; with --target (a Bazel action), only the flags' are used.`

// runHost compiles the host side of a CUDA C++ source.
func runHost(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var o common
	var hostOpts multiFlag
	var clangOpts []string
	var tools compile.Tools
	c := newCommand("host", hostUsage, stdout, stderr)
	o.register(c, "the object file `OUT` to write; - for standard output")
	fatbin := c.String("fatbin", "", "the source's own device code (`FATBIN`), which the object embeds")
	rdc := c.Bool("rdc", false, "compile the source as relocatable device code: the object registers the linked fatbin (gpubuild register)")
	opt := c.Int("O", 2, "the host code's optimisation `LEVEL`, 0 to 3")
	c.StringVar(&tools.Clang, "clang", "", "clang (`PATH`; default: found with LLVM, as compile finds it)")
	c.StringVar(&tools.CUDAPath, "cuda-path", "", "the CUDA toolkit root (`DIR`) for clang's --cuda-path (default: found as compile finds it)")
	c.Var(&hostOpts, "host-opt", "an extra clang `OPTION` of the host compilation (repeatable)")
	srcs, err := c.parse(args, func(args []string) int {
		_, n := clangOption(args)
		clangOpts = append(clangOpts, args[:n]...)
		return n
	})
	if err != nil {
		return err
	}
	switch {
	case len(srcs) != 1:
		return c.usageError("one CUDA C++ source, please (have %d)", len(srcs))
	case o.out == "":
		return c.usageError("no output: give -o OUT.o (- for standard output)")
	case *rdc == (*fatbin != ""):
		return c.usageError("give --fatbin FATBIN (the source's own device code) or --rdc (relocatable device code), one of them")
	case *opt < 0 || *opt > 3:
		return c.usageError("-O %d: use 0 to 3", *opt)
	}
	if kind, err := compile.KindOf(srcs[0]); err != nil || kind != compile.KindCUDA {
		return c.usageError("%s: the source is CUDA C++ (.cu)", srcs[0])
	}
	if o.target == "" {
		tools = discoverTools(tools) // by hand: find what the flags do not name
	}
	return cudahost.Compile(ctx, tools, cudahost.Job{Target: o.target, Src: srcs[0], Out: o.out, Stdout: stdout, Fatbin: *fatbin, RDC: *rdc,
		O: *opt, ClangOptions: clangOpts, HostOptions: hostOpts})
}
