package builder

import (
	"context"
	"os"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/chip"
	"github.com/rulesgpu/rules_gpu/tools/internal/cmdline"
	"github.com/rulesgpu/rules_gpu/tools/internal/compile"
	"github.com/rulesgpu/rules_gpu/tools/internal/host"
	programs "github.com/rulesgpu/rules_gpu/tools/internal/modules"
	"github.com/rulesgpu/rules_gpu/tools/kinds"
)

const hostUsage = `usage: gpubuild host (--fatbin FATBIN | --rdc) -o OUT.o [-O 2] [--clang PATH] [--cuda-path DIR]
                     [CLANG OPTIONS] [--host-opt OPTION]... SRC.cu
       gpubuild host --compiler nvcc (--fatbin FATBIN | --rdc) --chip CHIP -o OUT.o [-O 2] [--nvcc PATH]
                     [--ccbin PATH] [--arch-list CHIPS] [CLANG OPTIONS] [--nvcc-opt OPTION]...
                     [--host-opt OPTION]... SRC.cu
       gpubuild host --modules DIR --chip CHIP -o OUT.o [-O 2] [--mlir-opt PATH] [--mlir-translate PATH]
                     [--llc PATH] [--opt PATH] SRC.mlir
  Compiles the host side of a CUDA C++ source with clang into a position-independent object file
  (OUT "-" is standard output). With --fatbin, the object embeds FATBIN, the source's own device
  code (gpubuild link of its cubins and PTX), and registers it at start-up. With --rdc (relocatable
  device code), it embeds none, and calls the registration of the fatbin of all the sources' device
  code linked for each chip, which gpubuild register writes.
  -I DIR, -isystem DIR, -iquote DIR, -idirafter DIR, -include FILE, -D NAME[=VALUE], -U NAME and
  -std=c++17 go to clang as with compile (give them the device compilation's values); --host-opt
  gives other clang options of the host compilation, one by one. By hand, clang and the CUDA toolkit
  root are found as compile finds them; with --target (a Bazel action), only the flags' are used.
  With --compiler nvcc, nvcc compiles the host side as nvcc -c does, with the host compiler PATH
  (--ccbin; the C++ toolchain's), each --host-opt passed to it with -Xcompiler, and the object
  carries FATBIN in place of nvcc's own device code (with --rdc, none: nvcc -rdc=true -c, registered
  as with clang); nvcc's front end runs once more, for CHIP (the source's lowest chip), to write the
  code that registers the kernels.
  An MLIR program (SRC.mlir: host code, and gpu.modules or gpu.launch regions) takes the directory
  of its modules' artifacts (DIR/NAME.fatbin: gpubuild link --program), which replace its
  gpu.modules as gpu.binary ops for CHIP's #nvvm.Target; MLIR lowers the host code, llc makes the
  object; a program that uses the async dialect has its coroutines split by opt. A @main that
  returns nothing gets exit status 0. Link the object with the runtime
  (@rules_gpu//tools/internal/mlirrt/archive, a C archive of package mlirrt) and -lcuda.`

// runHost compiles the host side of a CUDA C++ source.
func (h helper) runHost(ctx context.Context, env cmdline.Env, args []string) error {
	var o cmdline.Common
	var hostOpts cmdline.MultiFlag
	var clangOpts []string
	var tools compile.Tools
	c := env.Command("host", hostUsage)
	o.Register(c, "the object file `OUT` to write; - for standard output")
	fatbin := c.String("fatbin", "", "the source's own device code (`FATBIN`), which the object embeds")
	rdc := c.Bool("rdc", false, "compile the source as relocatable device code: the object registers the linked fatbin (gpubuild register)")
	opt := c.Int("O", 2, "the host code's optimisation `LEVEL`, 0 to 3")
	c.StringVar(&tools.Clang, "clang", "", "clang (`PATH`; default: found with LLVM, as compile finds it)")
	c.StringVar(&tools.CUDAPath, "cuda-path", "", "the CUDA toolkit root (`DIR`) for clang's --cuda-path (default: found as compile finds it)")
	c.Var(&hostOpts, "host-opt", "an extra `OPTION` of the host compilation: clang's, or with --compiler nvcc its host compiler's (repeatable)")
	compiler := c.String("compiler", "clang", "what compiles the host side (`COMPILER`): clang, or nvcc (code written for nvcc)")
	c.StringVar(&tools.NVCC, "nvcc", "", "nvcc (`PATH`; default: found beside ptxas), with --compiler nvcc")
	ccbin := c.String("ccbin", "", "nvcc's host compiler (`PATH`: the C++ toolchain's), with --compiler nvcc")
	var nvccOpts cmdline.MultiFlag
	c.Var(&nvccOpts, "nvcc-opt", "an extra nvcc `OPTION`, with --compiler nvcc (repeatable)")
	modules := c.String("modules", "", "MLIR: the `DIR` of the program's modules' artifacts, NAME.fatbin")
	archList := c.String("arch-list", "", "with --compiler nvcc, every `CHIPS` the source's device code is compiled for (comma-separated): its __CUDA_ARCH_LIST__, as the device compiles define it")
	chipName := c.String("chip", "", "the lowest of the `CHIP`s: MLIR, the one the gpu.binary objects' targets name; nvcc, its registration code's")
	c.StringVar(&tools.MLIROpt, "mlir-opt", "", "MLIR: mlir-opt (`PATH`; default: found with LLVM)")
	c.StringVar(&tools.MLIRTranslate, "mlir-translate", "", "MLIR: mlir-translate (`PATH`; default: found with LLVM)")
	c.StringVar(&tools.Llc, "llc", "", "MLIR: llc (`PATH`; default: found with LLVM)")
	c.StringVar(&tools.Opt, "opt", "", "MLIR: opt, for programs that use the async dialect (`PATH`; default: found with LLVM)")
	srcs, err := c.ParseArgs(args, func(args []string) int {
		_, n := clangOption(args)
		clangOpts = append(clangOpts, args[:n]...)
		return n
	})
	if err != nil {
		return err
	}
	if err := o.CheckOut(append(srcs, *fatbin)...); err != nil {
		return err
	}
	if len(srcs) == 1 && strings.HasSuffix(srcs[0], ".mlir") {
		return h.hostMLIR(ctx, c, o, tools, srcs[0], *modules, *chipName, *opt)
	}
	comp, err := compile.ParseCompiler(*compiler)
	if err != nil {
		return c.UsageError("--compiler: %v", err)
	}
	var lowest chip.Chip
	switch {
	case *modules != "":
		return c.UsageError("--modules is for an MLIR program (SRC.mlir)")
	case comp != compile.CompilerNVCC && (*chipName != "" || *ccbin != "" || len(nvccOpts) > 0 || *archList != ""):
		return c.UsageError("--chip, --ccbin, --arch-list and --nvcc-opt are for --compiler nvcc (or --chip for an MLIR program)")
	case comp == compile.CompilerNVCC && *chipName == "":
		return c.UsageError("--compiler nvcc needs --chip CHIP, the lowest of the source's chips")
	case len(srcs) != 1:
		return c.UsageError("one CUDA C++ source, please (have %d)", len(srcs))
	case o.Out == "":
		return c.UsageError("no output: give -o OUT.o (- for standard output)")
	case *rdc == (*fatbin != ""):
		return c.UsageError("give --fatbin FATBIN (the source's own device code) or --rdc (relocatable device code), one of them")
	case *opt < 0 || *opt > 3:
		return c.UsageError("-O %d: use 0 to 3", *opt)
	}
	var arch []chip.Chip
	if comp == compile.CompilerNVCC {
		if lowest, err = chip.Parse(*chipName); err != nil {
			return c.UsageError("--chip: %v", err)
		}
		if *archList != "" {
			if arch, err = chip.ParseList(*archList, "--arch-list"); err != nil {
				return c.UsageError("%v", err)
			}
		}
	}
	if kind, err := compile.KindOf(srcs[0]); err != nil || kind != compile.KindCUDA {
		return c.UsageError("%s: the source is CUDA C++ (.cu)", srcs[0])
	}
	tools = h.discover(o.Target, tools) // by hand: find what the flags do not name
	return host.CUDA(ctx, tools, host.CUDAJob{Target: o.Target, Src: srcs[0], Out: o.Out, Stdout: env.Stdout, Fatbin: *fatbin, RDC: *rdc,
		O: *opt, ClangOptions: clangOpts, HostOptions: hostOpts,
		Compiler: comp, HostCompiler: *ccbin, Chip: lowest, ArchList: arch, NvccOptions: nvccOpts})
}

// hostMLIR compiles the host side of an MLIR program (see hostUsage).
func (h helper) hostMLIR(ctx context.Context, c *cmdline.Command, o cmdline.Common, tools compile.Tools, src, modules, chipName string, opt int) error {
	switch {
	case modules == "" || chipName == "":
		return c.UsageError("an MLIR program needs --modules DIR (its modules' fatbins) and --chip CHIP")
	case o.Out == "" || o.Out == "-":
		return c.UsageError("give -o OUT.o")
	case opt < 0 || opt > 3:
		return c.UsageError("-O %d: use 0 to 3", opt)
	}
	if ch, err := chip.Parse(chipName); err != nil {
		return o.Wrap(err)
	} else if ch.Virtual {
		return c.UsageError("--chip %v", chip.VirtualError(ch))
	}
	mods, err := programs.Read(modules, kinds.Fatbin.Extension())
	if err != nil {
		return o.Wrap(err)
	}
	binaries := map[string][]byte{}
	for _, m := range mods {
		if binaries[m.Name], err = os.ReadFile(m.Path); err != nil {
			return o.Wrap(err)
		}
	}
	tools = h.discover(o.Target, tools)
	return host.MLIR(ctx, tools, host.MLIRJob{Target: o.Target, Src: src, Binaries: binaries, Chip: chipName, O: opt, Out: o.Out})
}
