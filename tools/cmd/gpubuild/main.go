// Command gpubuild is rules_gpu's helper: the one binary that Bazel actions run. Each verb is a thin
// layer of flags over a package under tools/.
//
//	gpubuild compile --chip sm_90 [--format offload|isa|bin] --out OUT [TOOL FLAGS] SRC.{mlir,ll,bc,ptx,cu}
//	gpubuild link -o OUT.fatbin [--compress lz4] [--compress-all] [CHIP=]IMAGE...
//	gpubuild inspect [--json] FILE...
//	gpubuild extract -o DIR FILE
//	gpubuild check --runs-on sm_75,sm_90 [--driver 13.0] [--json] FILE...
//	gpubuild embed --lang go|c [...] ARTIFACT
//	gpubuild chips [--repo DIR] [--json | --set|--add|--remove sm_80,sm_90 | --toolkit 13.0] [--dry-run] [PATTERN...]
//
// Arguments may come from Bazel parameter files ("--params=FILE").
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/rulesgpu/rules_gpu/tools/chip"
	"github.com/rulesgpu/rules_gpu/tools/internal/compile"
	"github.com/rulesgpu/rules_gpu/tools/internal/params"
)

type verb struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

func verbs() map[string]verb {
	return map[string]verb{
		"compile": {"compile one source (MLIR, LLVM IR, PTX, CUDA C++) for one chip: LLVM IR, PTX or cubin", runCompile},
		"link":    {"join cubins and PTX into one fatbin", runLink},
		"inspect": {"list the images in fatbins, cubins and PTX files", runInspect},
		"extract": {"write each image of a fatbin to a file, decompressed", runExtract},
		"check":   {"say whether artifacts load on runner chips (and drivers), and why not", runCheck},
		"attach":  {"attach an NVVM target to the gpu.modules of an MLIR file (as --nvvm-attach-target)", runAttach},
		"embed":   {"write a Go file or a C header and source that carry an artifact in a host program", runEmbed},
		"chips":   {"list and edit the chips of the gpu_module targets in BUILD files", runChips},
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
		for _, name := range []string{"compile", "link", "inspect", "extract", "check", "attach", "embed", "chips"} {
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
	format := fs.String("format", "bin", "what to produce: offload (LLVM bitcode), isa (PTX), bin (cubin), or llvm (an MLIR source's LLVM IR, for every chip)")
	origin := fs.String("origin", "", "the user's source that SRC was made from, for error messages")
	out := fs.String("out", "", "the artifact to write")
	toolkit := fs.String("toolkit", "", "the CUDA toolkit's version (e.g. 12.4): check the chip and the PTX against it, and pick the PTX ISA")
	ptxVersion := fs.String("ptx", "", "the PTX ISA version to emit (default: the oldest the chip accepts)")
	module := fs.String("module", "", "MLIR: regular expression selecting the gpu.module to compile")
	opt := fs.Int("O", 2, "optimisation level, 0-3")
	fast := fs.Bool("fast", false, "fast math")
	ftz := fs.Bool("ftz", false, "flush f32 denormals to zero")
	var tools compile.Tools
	fs.StringVar(&tools.Ptxas, "ptxas", "ptxas", "ptxas")
	fs.StringVar(&tools.Llc, "llc", "llc", "llc")
	fs.StringVar(&tools.Opt, "opt", "opt", "LLVM opt")
	fs.StringVar(&tools.LLVMLink, "llvm-link", "llvm-link", "llvm-link")
	fs.StringVar(&tools.Clang, "clang", "clang", "clang (CUDA C++ sources)")
	fs.StringVar(&tools.MLIROpt, "mlir-opt", "mlir-opt", "mlir-opt (MLIR sources)")
	fs.StringVar(&tools.MLIRTranslate, "mlir-translate", "mlir-translate", "mlir-translate (MLIR sources)")
	fs.StringVar(&tools.Libdevice, "libdevice", "", "the CUDA toolkit's libdevice.10.bc")
	fs.StringVar(&tools.CUDAPath, "cuda-path", "", "the CUDA toolkit root, for clang's --cuda-path")
	var ptxasOpts multiFlag
	fs.Var(&ptxasOpts, "ptxas_opt", "an extra ptxas option (repeatable)")
	trace := fs.String("trace", "", "append one JSON line with the helper's wall time and each tool's to this file (profiling)")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() != 1 || *out == "" || (*chipName == "" && *format != "llvm") {
		fmt.Fprintln(stderr, "usage: gpubuild compile --chip CHIP --out OUT [--format offload|isa|bin|llvm] [--toolkit 12.4] [--ptx 7.8] [-O 3] [--fast] [--ftz] [--module REGEX] [TOOL FLAGS] SRC\n"+
			"  SRC is .mlir, .ll, .bc, .ptx or .cu")
		return errUsage
	}
	name := *target
	if name == "" {
		name = fs.Arg(0)
	}
	job := compile.Job{Target: name, Src: fs.Arg(0), Origin: *origin, Out: *out, O: *opt, Fast: *fast, FTZ: *ftz, PtxasOptions: ptxasOpts, Module: *module}
	var err error
	if *chipName != "" {
		if job.Chip, err = chip.Parse(*chipName); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	if job.Format, err = compile.ParseFormat(*format); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if *toolkit != "" {
		if job.Toolkit, err = chip.ParseToolkit(*toolkit); err != nil {
			return fmt.Errorf("%s: toolkit: %w", name, err)
		}
	}
	if *ptxVersion != "" {
		if job.PTX, err = chip.ParsePTX(*ptxVersion); err != nil {
			return fmt.Errorf("%s: --ptx: %w", name, err)
		}
	}
	if *opt < 0 || *opt > 3 {
		return fmt.Errorf("%s: -O %d: use 0 to 3", name, *opt)
	}
	if *trace == "" {
		return tools.Compile(ctx, job)
	}
	// One JSON line: the helper's wall time, the tools' total, and each tool run as [stage, ms].
	rec := struct {
		Target  string  `json:"target"`
		Chip    string  `json:"chip"`
		TotalMS float64 `json:"total_ms"`
		ToolsMS float64 `json:"tools_ms"`
		Stages  [][]any `json:"stages_ms"`
	}{Target: name, Chip: job.Chip.String()}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	job.Trace = func(stage string, d time.Duration) {
		rec.Stages = append(rec.Stages, []any{stage, ms(d)})
		rec.ToolsMS += ms(d)
	}
	start := time.Now()
	err = tools.Compile(ctx, job)
	rec.TotalMS = ms(time.Since(start))
	line, _ := json.Marshal(rec)
	f, ferr := os.OpenFile(*trace, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if ferr != nil {
		return errors.Join(err, fmt.Errorf("%s: --trace: %w", name, ferr))
	}
	_, werr := f.Write(append(line, '\n'))
	err = errors.Join(err, werr)
	return errors.Join(err, f.Close())
}

type multiFlag []string

func (m *multiFlag) String() string     { return fmt.Sprint(*m) }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }
