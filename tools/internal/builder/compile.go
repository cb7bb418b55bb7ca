package builder

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/rulesgpu/rules_gpu/tools/chip"
	"github.com/rulesgpu/rules_gpu/tools/internal/cmdline"
	"github.com/rulesgpu/rules_gpu/tools/internal/compile"
)

const compileUsage = `usage: gpubuild compile --chip CHIP -o OUT [--format bin|isa|offload|llvm|pch] [--toolkit 12.4] [--ptx 7.8]
                        [-O 3] [--fast] [--ftz] [--module REGEX] [--rdc] [--pch PCH --pch-headers LIST]
                        [CLANG OPTIONS] [TOOL FLAGS] SRC...
  SRC is .mlir, .ll, .bc, .ptx or .cu; OUT "-" is standard output. Formats: bin (a cubin, the
  default), isa (PTX), offload (LLVM bitcode, libdevice linked, optimised), llvm (an MLIR source's
  device code as LLVM IR, for every chip: no --chip). Several sources must all be LLVM IR: llvm-link
  joins them into one module first.
  Relocatable device code (a source uses a __device__ function or variable that another defines):
  compile each .cu with --rdc (clang's -fgpu-rdc, into LLVM bitcode: format offload, the default
  with --rdc), then all their bitcode for the chip with one gpubuild compile A.bc B.bc; with
  --compiler nvcc, into a relocatable cubin (format bin), then all the cubins for the chip with one
  gpubuild dlink.
  Tools: each tool flag names one; those not named are found as the Bazel toolchains find them: the
  CUDA toolkit in $CUDA_PATH/bin, /usr/local/cuda/bin or /usr/bin (its version, for --toolkit, from
  ptxas --version), LLVM with MLIR in $LLVM_PATH/bin, the newest /usr/lib/llvm-N/bin, /usr/local/bin
  or /usr/bin. With --target (a Bazel action) nothing is looked for: only the flags' tools run.
  CUDA C++ only: -I DIR, -isystem DIR, -iquote DIR, -idirafter DIR, -include FILE, -D NAME[=VALUE],
  -U NAME (each also joined: -IDIR, -DNAME=1) and -std=c++17 go to clang's device compilation, in
  order, as do other clang options given one by one with --clang-opt (--clang-opt=-Wall).
  A precompiled header of the headers clang includes into every CUDA C++ source, for one chip, -O
  and --fast (what clang checks when it loads one): --format pch --pch-headers LIST -o PCH, no SRC;
  LIST is the list of its headers. A clang compile of CUDA C++ to PTX or a cubin with the same
  chip, -O and --fast loads it with --pch PCH --pch-headers LIST instead of parsing the headers
  again (only include directories as clang options; clang refusing the PCH, or an include
  directory holding a file named as one of its headers, means a compile without it).
  --compiler nvcc compiles CUDA C++ to PTX with the toolkit's nvcc instead of clang (code written for
  nvcc that clang rejects), with the same -I/-D/... options and --nvcc-opt; ptxas makes the cubin.
  MLIR programs (--program; host code and gpu.modules or gpu.launch regions, which are outlined):
  --format llvm writes every module's device code as LLVM IR, NAME.ll, into the directory OUT; then
  each chip's compile --program --chip CHIP takes that directory (or one of PTX) as SRC and writes
  a directory of NAME.cubin (bin), NAME.ptx (isa) or NAME.bc (offload). gpubuild link --program
  makes each module's fatbin, and gpubuild host the host side.
  Several chips' PTX of an MLIR source at once (--format isa --chips sm_75,sm_80 -o DIR): one
  mlir-opt lowers the source and writes every chip's PTX (MLIR's nvvm-attach-target per chip and
  gpu-module-to-binary), DIR/CHIP.ptx for each chip (DIR/STEM.CHIP.ptx with --name STEM, as
  the rules name a module's files): a file, or with --program a directory of NAME.ptx per
  module; each chip's cubin is then a compile of that PTX.`

// clangOption names the clang option at args[0] ("" when it is none) and says how many arguments it
// takes. compile takes these as clang spells them, with their value apart ("-I dir") or joined
// ("-Idir"), and -std= (joined only).
func clangOption(args []string) (name string, n int) {
	a := args[0]
	if strings.HasPrefix(a, "-std=") {
		return "-std=", 1
	}
	for _, o := range []string{"-I", "-D", "-U", "-include", "-isystem", "-iquote", "-idirafter"} {
		if strings.HasPrefix(a, o) && len(o) > len(name) {
			name = o // the longest: -isystemDIR is -isystem, not -i...
		}
	}
	switch {
	case name == "":
		return "", 0
	case a == name && len(args) > 1:
		return name, 2
	default:
		return name, 1 // joined, or missing its value (clang says so)
	}
}

// compileFlags are compile's flags, and the helper that runs them.
type compileFlags struct {
	helper
	cmdline.Common
	chip, chips, name, format, toolkit, ptx, module, trace string
	moduleAttr                                             bool
	debug                                                  compile.Debug
	pch, pchHeaders                                        string
	opt                                                    int
	fast, ftz, rdc, noKernelOK, program                    bool
	tools                                                  compile.Tools
	ptxasOpts, nvccOpts, origins                           cmdline.MultiFlag
	compiler, archList                                     string
	clangOpts                                              []string // clang options, in order; clangFirst names the first
	clangFirst                                             string
	clangOnly                                              bool // a --clang-opt was given
}

func (h helper) runCompile(ctx context.Context, env cmdline.Env, args []string) error {
	f := compileFlags{helper: h}
	c := env.Command("compile", compileUsage)
	f.Register(c, "the artifact `OUT` to write; - for standard output")
	c.StringVar(&f.Out, "out", "", "the same as -o `OUT`")
	c.StringVar(&f.chip, "chip", "", "the `CHIP` to compile for, e.g. sm_90")
	c.StringVar(&f.chips, "chips", "", "MLIR, format isa: lower once and write the PTX of each of these `CHIPS` (comma-separated) in the directory OUT (see above)")
	c.StringVar(&f.name, "name", "", "with --chips, name each chip's PTX `STEM`.CHIP.ptx (default CHIP.ptx)")
	c.StringVar(&f.format, "format", "bin", "what to produce (`FORMAT`): bin, isa, offload or llvm (see above)")
	c.Var(&f.origins, "origin", "the user's `FILE` that SRC was made from, for error messages (with several sources: once for each, in order)")
	c.StringVar(&f.toolkit, "toolkit", "", "the CUDA toolkit's `VERSION` (e.g. 12.4): check the chip and the PTX against it, and pick the PTX ISA (default: ptxas --version)")
	c.StringVar(&f.ptx, "ptx", "", "the PTX ISA `VERSION` to emit (default: the oldest the chip accepts)")
	c.StringVar(&f.module, "module", "", "MLIR: a regular expression (`REGEX`) selecting the gpu.module to compile")
	c.BoolVar(&f.moduleAttr, "module-is-attribute", false, "messages name --module as the rule's module attribute (Bazel actions)")
	c.IntVar(&f.opt, "O", 2, "the optimisation `LEVEL`, 0 to 3")
	c.BoolVar(&f.fast, "fast", false, "fast math")
	c.BoolVar(&f.ftz, "ftz", false, "flush f32 denormals to zero")
	c.Func("debug", "device debug information (`KIND`): lines (line tables, for profilers and compute-sanitizer) or full (debuggable code: clang -g, nvcc -G, ptxas -g; needs -O 0)", func(v string) (err error) {
		f.debug, err = compile.ParseDebug(v)
		return err
	})
	c.BoolVar(&f.rdc, "rdc", false, "compile a CUDA C++ source as relocatable device code: LLVM bitcode (format offload) to link with other sources' (see above)")
	c.BoolVar(&f.program, "program", false, "an MLIR program's modules, each its own file: SRC (format llvm: the .mlir; else a directory) and OUT are directories (see above)")
	c.BoolVar(&f.noKernelOK, "no-kernel-ok", false, "accept a module that defines no kernel (the device side of host code that launches other sources' kernels)")
	c.StringVar(&f.tools.Ptxas, "ptxas", "", "ptxas (`PATH`; default: found in the CUDA toolkit, see above)")
	c.StringVar(&f.tools.Llc, "llc", "", "llc (`PATH`; default: found with LLVM, see above)")
	c.StringVar(&f.tools.Opt, "opt", "", "LLVM's opt (`PATH`; default: found with LLVM)")
	c.StringVar(&f.tools.LLVMLink, "llvm-link", "", "llvm-link (`PATH`; default: found with LLVM)")
	c.StringVar(&f.tools.Clang, "clang", "", "clang (`PATH`; default: found with LLVM), for CUDA C++ sources and for LLVM IR (and lowered MLIR) to PTX")
	c.StringVar(&f.tools.MLIROpt, "mlir-opt", "", "mlir-opt (`PATH`; default: found with LLVM), for MLIR sources")
	c.StringVar(&f.tools.MLIRTranslate, "mlir-translate", "", "mlir-translate (`PATH`; default: found with LLVM), for MLIR sources")
	c.StringVar(&f.tools.Libdevice, "libdevice", "", "the CUDA toolkit's libdevice.10.bc (`PATH`; default: found with ptxas)")
	c.StringVar(&f.tools.ClangResourceDir, "clang-resource-dir", "", "clang's resource directory (`DIR`, its own headers) for CUDA C++ sources (default: clang's own)")
	c.StringVar(&f.tools.CUDAPath, "cuda-path", "", "the CUDA toolkit root (`DIR`) for clang's --cuda-path (default: found with ptxas)")
	c.StringVar(&f.tools.NVCC, "nvcc", "", "nvcc (`PATH`; default: found beside ptxas), for CUDA C++ sources with --compiler nvcc")
	c.StringVar(&f.compiler, "compiler", "clang", "the device front end (`COMPILER`) of CUDA C++ sources: clang, or nvcc for code written for nvcc")
	c.Var(&f.nvccOpts, "nvcc-opt", "an extra nvcc `OPTION` for CUDA C++ sources with --compiler nvcc (repeatable)")
	c.StringVar(&f.archList, "arch-list", "", "with --compiler nvcc, every `CHIPS` the source is compiled for (comma-separated): its __CUDA_ARCH_LIST__, the same in every compile of it")
	c.Var(&f.ptxasOpts, "ptxas-opt", "an extra ptxas `OPTION` (repeatable)")
	c.Func("clang-opt", "an extra clang `OPTION` for CUDA C++ sources (repeatable)", func(v string) error {
		f.clangOnly = true
		f.keepClang("--clang-opt", v)
		return nil
	})
	c.StringVar(&f.pch, "pch", "", "CUDA C++ with clang: load this precompiled header (`PCH`, made by --format pch for the same chip, -O and --fast)")
	c.StringVar(&f.pchHeaders, "pch-headers", "", "the list (`FILE`) of the headers in the PCH: written with --format pch, read with --pch")
	c.StringVar(&f.trace, "trace", "", "append one JSON line with the helper's wall time and each tool's to this `FILE` (profiling)")
	srcs, err := c.ParseArgs(args, func(args []string) int {
		name, n := clangOption(args)
		if n > 0 {
			f.keepClang(name, args[:n]...)
		}
		return n
	})
	if err != nil {
		return err
	}
	if err := f.CheckOut(append(srcs, f.pch, f.pchHeaders)...); err != nil {
		return err
	}
	pch := f.format == string(compile.FormatPCH)
	switch {
	case len(srcs) == 0 && !pch:
		return c.UsageError("no source: give SRC (several only when all are LLVM IR)")
	case len(srcs) > 0 && pch:
		return c.UsageError("--format pch takes no SRC: the PCH holds the headers clang includes into every CUDA C++ source")
	case (f.pch != "" || f.pchHeaders != "") && (f.chips != "" || f.program):
		return c.UsageError("--pch and --pch-headers are for CUDA C++ compiles, not --chips or --program")
	case len(f.origins) > 0 && len(f.origins) != len(srcs):
		return c.UsageError("--origin %d times for %d sources: give it once for each source, or not at all", len(f.origins), len(srcs))
	case f.Out == "":
		return c.UsageError("no output: give -o OUT (- for standard output)")
	case f.chips != "":
		return f.compileChips(ctx, c, srcs)
	case f.chip == "" && f.format != string(compile.FormatLLVM):
		return c.UsageError("no chip: give --chip, e.g. --chip sm_90")
	case f.opt < 0 || f.opt > 3:
		return c.UsageError("-O %d: use 0 to 3", f.opt)
	}
	job := compile.Job{Target: f.Target, Origin: strings.Join(f.origins, ", "), Out: f.Out, Stdout: env.Stdout,
		Codegen:    compile.Codegen{O: f.opt, Fast: f.fast, FTZ: f.ftz, PtxasOptions: f.ptxasOpts, Debug: f.debug},
		MLIR:       compile.MLIROptions{Module: f.module, Attribute: f.moduleAttr},
		CUDA:       compile.CUDAOptions{RDC: f.rdc, ClangOptions: f.clangOpts, PCH: f.pch, PCHHeaders: f.pchHeaders},
		NoKernelOK: f.noKernelOK, Log: env.Stderr}
	if pch {
		job.Kind = compile.KindCUDA
	} else {
		job.Src, job.LLVM.Link = srcs[0], srcs[1:]
	}
	if f.program {
		return f.compileProgram(ctx, c, srcs)
	}
	for _, src := range srcs {
		kind, err := compile.KindOf(src)
		if err != nil {
			return f.Wrap(err)
		}
		if len(srcs) > 1 && kind != compile.KindLLVM {
			return c.UsageError("several sources (%s) link into one module only when all are LLVM IR (.ll, .bc); %s is %s: compile it alone (CUDA C++ with --rdc, into bitcode to link)", strings.Join(srcs, " "), src, kind.Name())
		}
		if job.Kind == "" {
			job.Kind = kind
		}
	}
	if len(job.LLVM.Link) == 0 {
		job.LLVM.Link = nil
	}
	if job.CUDA.Compiler, err = compile.ParseCompiler(f.compiler); err != nil {
		return c.UsageError("--compiler: %v", err)
	}
	job.CUDA.NvccOptions = f.nvccOpts
	if job.CUDA.Compiler == compile.CompilerNVCC && f.clangOnly {
		return c.UsageError("--clang-opt is for clang; with --compiler nvcc, give nvcc's options with --nvcc-opt")
	}
	if len(f.nvccOpts) > 0 && job.CUDA.Compiler != compile.CompilerNVCC {
		return c.UsageError("--nvcc-opt is for nvcc: add --compiler nvcc, or give clang's options with --clang-opt")
	}
	if f.archList != "" {
		if job.CUDA.Compiler != compile.CompilerNVCC {
			return c.UsageError("--arch-list is for nvcc, which defines __CUDA_ARCH_LIST__: add --compiler nvcc, or leave it out")
		}
		if job.CUDA.ArchList, err = chip.ParseList(f.archList, "--arch-list"); err != nil {
			return c.UsageError("%v", err)
		}
	}
	if f.clangFirst != "" && job.Kind != compile.KindCUDA {
		return c.UsageError("%s applies to CUDA C++ (.cu) sources only; %s is %s", f.clangFirst, job.Src, job.Kind.Name())
	}
	if f.chip != "" {
		if job.Chip, err = chip.Parse(f.chip); err != nil {
			return f.Wrap(err)
		}
	}
	if f.rdc && !c.IsSet("format") && job.CUDA.Compiler != compile.CompilerNVCC {
		f.format = string(compile.FormatOffload)
	}
	if job.Format, err = compile.ParseFormat(f.format); err != nil {
		return f.Wrap(err)
	}
	if f.ptx != "" {
		if job.PTX, err = chip.ParsePTX(f.ptx); err != nil {
			return f.Errorf("--ptx: %w", err)
		}
	}
	// By hand: find what the flags do not name, as the toolchains' local discovery does. (An
	// action passes the toolchain's tools and --target, and must run no other.)
	tools, needVersion := f.findTools(job)
	// A PTX source's version is checked against the toolkit's when it is known.
	if err := f.setToolkit(ctx, &job, tools, needVersion || job.Kind == compile.KindPTX || f.ptx != "", needVersion, isaHint); err != nil {
		return err
	}
	if err := f.checkPTX(job); err != nil {
		return err
	}
	if f.trace == "" {
		return tools.Compile(ctx, job) // its errors name the target
	}
	return f.traced(ctx, tools, job)
}

// isaHint says how to choose the PTX ISA by hand, for setToolkit's messages.
const isaHint = "--toolkit 12.4, or the ISA itself: --ptx 8.4"

// setToolkit sets job.Toolkit, the CUDA version that checks the chip and picks the PTX ISA, from
// --toolkit, or for a compile by hand (no --target) that wants it, from what the toolkit's ptxas
// --version says. need: the job cannot go on without it; hint: how to give it instead.
func (f *compileFlags) setToolkit(ctx context.Context, job *compile.Job, tools compile.Tools, want, need bool, hint string) error {
	if f.toolkit == "" && f.find != nil && f.Target == "" && want {
		switch _, err := exec.LookPath(tools.Ptxas); {
		case tools.Ptxas != "" && err == nil:
			v, err := f.find.PtxasVersion(ctx, tools.Ptxas)
			if err != nil && need {
				return fmt.Errorf("cannot choose the PTX ISA: %w; give the CUDA version (%s)", err, hint)
			}
			f.toolkit = v
		case tools.Ptxas != "":
			return errors.New(tools.Missing("ptxas", tools.Ptxas)) // --ptxas names nothing
		case need:
			return fmt.Errorf("cannot choose the PTX ISA: no CUDA version given (%s), and none to read from ptxas --version: %s", hint, tools.Missing("ptxas", ""))
		}
	}
	if f.toolkit == "" {
		return nil
	}
	var err error
	if job.Toolkit, err = chip.ParseToolkit(f.toolkit); err != nil {
		return f.Errorf("toolkit: %w", err)
	}
	return nil
}

// checkPTX refuses a --ptx that the chip table does not know, or that the job's chip does not
// accept with its toolkit (known or not), before anything runs: a tool would ignore it.
func (f *compileFlags) checkPTX(job compile.Job) error {
	if job.PTX.IsZero() || job.Chip.IsZero() {
		return nil
	}
	err := chip.CheckPTXFor(job.Chip, job.Toolkit, job.PTX)
	if err == nil {
		return nil
	}
	with := "the chip table's PTX ISA versions"
	if !job.Toolkit.IsZero() {
		with = "CUDA " + job.Toolkit.String()
	}
	if lo, hi, rerr := chip.PTXRange(job.Chip, job.Toolkit); rerr == nil {
		return f.Errorf("--ptx %s: %w; %s accepts PTX ISA %s to %s with %s: give one of them, or leave --ptx out (the chip's lowest)", f.ptx, err, job.Chip, lo, hi, with)
	}
	return f.Errorf("--ptx %s: %w", f.ptx, err)
}

// keepClang keeps a clang option and its value; name (-I, --clang-opt) is for messages.
func (f *compileFlags) keepClang(name string, opt ...string) {
	if f.clangFirst == "" {
		f.clangFirst = name
	}
	f.clangOpts = append(f.clangOpts, opt...)
}

// findTools completes, by hand, the tools that the flags do not name with those found on the
// machine, and says whether the job needs the toolkit's version (to choose the PTX ISA); an
// action's tools are its flags'.
func (f *compileFlags) findTools(job compile.Job) (compile.Tools, bool) {
	if f.find == nil || f.Target != "" {
		return f.tools, false
	}
	needVersion := job.Kind != compile.KindPTX && job.Format != compile.FormatLLVM && job.PTX.IsZero()
	return f.find.Tools(f.tools), needVersion
}

// traced compiles and appends one JSON line to --trace: the helper's wall time, the tools' total,
// and each tool run as [stage, ms].
func (f *compileFlags) traced(ctx context.Context, tools compile.Tools, job compile.Job) error {
	rec := struct {
		Target  string  `json:"target"`
		Chip    string  `json:"chip"`
		TotalMS float64 `json:"total_ms"`
		ToolsMS float64 `json:"tools_ms"`
		Stages  [][]any `json:"stages_ms"`
	}{Target: f.Target, Chip: job.Chip.String()}
	if rec.Target == "" {
		rec.Target = job.Src
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	job.Trace = func(stage string, d time.Duration) {
		rec.Stages = append(rec.Stages, []any{stage, ms(d)})
		rec.ToolsMS += ms(d)
	}
	start := time.Now()
	err := tools.Compile(ctx, job)
	rec.TotalMS = ms(time.Since(start))
	line, _ := json.Marshal(rec)
	file, ferr := os.OpenFile(f.trace, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if ferr != nil {
		return errors.Join(err, f.Errorf("--trace: %w", ferr))
	}
	_, werr := file.Write(append(line, '\n'))
	err = errors.Join(err, werr)
	return errors.Join(err, file.Close())
}

// compileProgram is compile --program: every module of an MLIR program, each its own file, in
// directories (see compileUsage).
func (f *compileFlags) compileProgram(ctx context.Context, c *cmdline.Command, srcs []string) error {
	switch {
	case len(srcs) != 1:
		return c.UsageError("--program takes one SRC: the program (.mlir) with --format llvm, else the directory of its modules")
	case f.Out == "-":
		return c.UsageError("--program writes a directory: give -o DIR")
	case f.rdc || f.clangFirst != "" || len(f.nvccOpts) > 0 || f.module != "":
		return c.UsageError("--program compiles an MLIR program's modules: --rdc, --module and CUDA C++ options do not apply")
	}
	format, err := compile.ParseFormat(f.format)
	if err != nil {
		return f.Wrap(err)
	}
	job := compile.Job{Target: f.Target, Src: srcs[0], Origin: strings.Join(f.origins, ", "), Out: f.Out, Stdout: c.Stdout(),
		Format: format, NoKernelOK: f.noKernelOK, Codegen: compile.Codegen{O: f.opt, Fast: f.fast, FTZ: f.ftz, PtxasOptions: f.ptxasOpts, Debug: f.debug}}
	tools := f.helper.discover(f.Target, f.tools)
	if format == compile.FormatLLVM {
		if kind, err := compile.KindOf(srcs[0]); err != nil || kind != compile.KindMLIR {
			return c.UsageError("--program --format llvm lowers an MLIR program (.mlir); %s is not one", srcs[0])
		}
		_, err := tools.LowerProgram(ctx, job)
		return err
	}
	if job.Chip, err = chip.Parse(f.chip); err != nil {
		return f.Wrap(err)
	}
	if f.ptx != "" {
		if job.PTX, err = chip.ParsePTX(f.ptx); err != nil {
			return f.Errorf("--ptx: %w", err)
		}
	}
	if err := f.setToolkit(ctx, &job, tools, true, job.PTX.IsZero(), isaHint); err != nil {
		return err
	}
	if err := f.checkPTX(job); err != nil {
		return err
	}
	return tools.CompileProgram(ctx, job)
}

// compileChips writes several chips' PTX of an MLIR source or program (--chips) in one mlir-opt.
func (f *compileFlags) compileChips(ctx context.Context, c *cmdline.Command, srcs []string) error {
	switch {
	case len(srcs) != 1:
		return c.UsageError("--chips takes one SRC, an MLIR source")
	case f.chip != "":
		return c.UsageError("--chip and --chips: give one chip with --chip, or several with --chips")
	case f.format != string(compile.FormatISA):
		return c.UsageError("--chips writes PTX (--format isa), not %s: each chip's cubin is a compile of its PTX", f.format)
	case f.Out == "-":
		return c.UsageError("--chips writes a directory: give -o DIR")
	case f.name != "" && (f.program || strings.ContainsAny(f.name, "/\x00")):
		return c.UsageError("--name %q: a file name stem for a kernel source's PTX (not with --program, whose modules name their files)", f.name)
	case f.rdc || f.clangFirst != "" || len(f.nvccOpts) > 0 || f.ptx != "":
		return c.UsageError("--chips lowers an MLIR source: --rdc, --ptx and CUDA C++ options do not apply")
	}
	if kind, err := compile.KindOf(srcs[0]); err != nil || kind != compile.KindMLIR {
		return c.UsageError("--chips lowers an MLIR source (.mlir); %s is not one", srcs[0])
	}
	chips, err := chip.ParseList(f.chips, "--chips")
	if err != nil {
		return f.Wrap(err)
	}
	job := compile.Job{Target: f.Target, Src: srcs[0], Origin: strings.Join(f.origins, ", "), Format: compile.FormatISA,
		NoKernelOK: f.noKernelOK, Codegen: compile.Codegen{O: f.opt, Fast: f.fast, FTZ: f.ftz}, MLIR: compile.MLIROptions{Module: f.module, Attribute: f.moduleAttr}}
	tools := f.helper.discover(f.Target, f.tools)
	if err := f.setToolkit(ctx, &job, tools, true, true, "--toolkit 12.4"); err != nil {
		return err
	}
	if f.toolkit == "" {
		return c.UsageError("--chips picks each chip's PTX ISA from the toolkit: give --toolkit")
	}
	return tools.LowerToPTX(ctx, job, chips, f.Out, f.name, f.program)
}
