package compile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rulesgpu/rules_gpu/tools/chip"
	"github.com/rulesgpu/rules_gpu/tools/internal/artifact"
	"github.com/rulesgpu/rules_gpu/tools/internal/atomicfile"
	"github.com/rulesgpu/rules_gpu/tools/internal/nvcc"
	"github.com/rulesgpu/rules_gpu/tools/kinds"
	"github.com/rulesgpu/rules_gpu/tools/mlir"
)

// Kind is the language of a source file (tools/kinds' table).
type Kind = kinds.Kind

// The source kinds gpubuild compiles.
const (
	KindMLIR = kinds.MLIR // .mlir holding gpu.module ops
	KindLLVM = kinds.LLVM // LLVM IR or NVVM IR, .ll or .bc
	KindPTX  = kinds.PTX  // .ptx
	KindCUDA = kinds.CUDA // CUDA C++, .cu (the device side)
)

// KindOf recognises a source by its extension.
func KindOf(path string) (Kind, error) { return kinds.Of(path) }

// Format is what one compilation produces, named as MLIR's gpu-module-to-binary names them: one of
// tools/kinds' per-chip formats, or one of the two of this package's own.
type Format = kinds.Format

// The per-chip formats.
const (
	FormatOffload = kinds.Offload // LLVM bitcode, libdevice linked, optimised
	FormatISA     = kinds.ISA     // PTX
	FormatBin     = kinds.Bin     // cubin
	// FormatPCH (pch.go) is a precompiled header of clang's CUDA headers.
	// FormatLLVM is an MLIR source's device code as LLVM IR, before any per-chip step: lowering and
	// translation do not depend on the chip, so one action per module can do them for every chip.
	FormatLLVM = kinds.Lowered
)

// ParseFormat reads offload, isa or bin.
func ParseFormat(s string) (Format, error) {
	switch f := Format(s); f {
	case FormatOffload, FormatISA, FormatBin, FormatLLVM, FormatPCH:
		return f, nil
	}
	return "", fmt.Errorf("unknown per-chip format %q: use offload (LLVM IR), isa (PTX), bin (cubin), llvm (an MLIR source's LLVM IR) or pch (a precompiled header of clang's CUDA headers)", s)
}

// Compiler is the device front end of CUDA C++ sources (tools/kinds' table).
type Compiler = kinds.Compiler

// The CUDA C++ front ends.
const (
	// CompilerClang compiles CUDA C++ with clang's CUDA support and LLVM's NVPTX back end.
	CompilerClang = kinds.Clang
	// CompilerNVCC compiles CUDA C++ to PTX with the toolkit's nvcc (code written for nvcc that
	// clang rejects); ptxas then makes the cubin, as for every source.
	CompilerNVCC = kinds.NVCC
)

// ParseCompiler reads clang or nvcc ("" is clang).
func ParseCompiler(s string) (Compiler, error) {
	if s == "" {
		return CompilerClang, nil
	}
	if c := Compiler(s); slices.Contains(kinds.Compilers(), c) {
		return c, nil
	}
	return "", fmt.Errorf("unknown compiler %q: use clang or nvcc", s)
}

// Tools are the external programs of the pipeline. Only the ones a job needs must be set.
type Tools struct {
	Ptxas, Llc, Opt, LLVMLink, Clang, MLIROpt, MLIRTranslate string
	// NVCC is the CUDA toolkit's nvcc, the device front end of CUDA C++ jobs whose Compiler is
	// CompilerNVCC.
	NVCC string
	// NVLink is the CUDA toolkit's nvlink, which links the relocatable cubins of nvcc's relocatable
	// device code for a chip (DeviceLink).
	NVLink string
	// Libdevice is the CUDA toolkit's libdevice.10.bc, linked when the module calls __nv_ functions.
	Libdevice string
	// CUDAPath is the toolkit root that clang's --cuda-path wants (CUDA C++ only).
	CUDAPath string
	// ClangResourceDir is clang's resource directory (its own headers, the CUDA wrappers among
	// them) for CUDA C++ compiles: -resource-dir. Empty: clang finds its own from where its binary
	// is, which a remote executor's copy of it changes.
	ClangResourceDir string
	// Missing says why a tool that a job needs is missing and how to provide it, as an error message
	// that names the tool: tool is its name (ptxas, llc, opt, llvm-link, clang, mlir-opt,
	// mlir-translate, libdevice), path what was configured ("" for nothing; else a path or program
	// name that was not found). When nil, the message names the Bazel toolchain that provides the
	// tool (ToolchainMissing).
	Missing func(tool, path string) string
}

// ToolchainMissing is the Tools.Missing of Bazel actions, whose tools come from the toolchains:
// it names the toolchain type that provides the tool.
func ToolchainMissing(tool, path string) string {
	provider := "the LLVM toolchain (@rules_gpu//toolchain:llvm_toolchain_type, e.g. the llvm module extension's llvm.local())"
	if tool == "ptxas" || tool == "libdevice" || tool == "nvcc" || tool == "nvlink" {
		provider = "the CUDA toolchain (@rules_gpu//toolchain:cuda_toolchain_type, e.g. the cuda module extension's cuda.local())"
	}
	if path == "" {
		name := tool
		if tool == "libdevice" {
			name = "libdevice.10.bc"
		}
		return fmt.Sprintf("no %s configured; %s provides it", name, provider)
	}
	return fmt.Sprintf("%s: %s not found; %s provides it", tool, path, provider)
}

func (t Tools) missing(tool, path string) string {
	if t.Missing == nil {
		return ToolchainMissing(tool, path)
	}
	return t.Missing(tool, path)
}

// Job is one source compiled for one chip into one artifact: what to compile, into what, for which
// chip, how (Codegen), and the options of the source's language (MLIR, CUDA, LLVM; the others'
// are refused). The option groups are embedded: job.CUDA.RDC is job.CUDA.RDC.
type Job struct {
	// Target is the Bazel label (or any name) that error messages cite.
	Target string
	// Src is the source; Kind its language (KindOf(Src) when empty).
	Src  string
	Kind Kind
	// Origin is the user's source that Src was made from (the MLIR of a lowered .ll, the source of a
	// fatbin's PTX; with Link, the user's sources, ", "-separated), which error messages name
	// instead of Src; "" when Src is the user's.
	Origin string
	// Out is the artifact to write, in Format; "-" writes it to Stdout instead (as clang's -o -).
	// It is written by atomicfile.Write: replaced at once when a regular file, written through
	// when a device or FIFO, and left as it was when the compilation fails.
	Out    string
	Stdout io.Writer
	Format Format
	// Chip is the real architecture, e.g. sm_90.
	Chip chip.Chip
	// Toolkit is the CUDA toolkit's version; when set, the chip and PTX ISA are checked against the
	// chip model first, and the PTX ISA defaults to the chip's minimum.
	Toolkit chip.Toolkit
	// PTX is the PTX ISA version to emit; zero for the default.
	PTX chip.PTX
	Codegen
	MLIR MLIROptions
	CUDA CUDAOptions
	LLVM LLVMOptions
	// NoKernelOK accepts a module that defines no kernel: the device side of a CUDA C++ source whose
	// host code only launches other sources' kernels, or that holds __device__ variables only.
	// Without it such a module is an error, as an artifact to load needs something to launch.
	NoKernelOK bool
	// Log is told what a compile that succeeded has to say (a PCH not used, and why); nil: nothing.
	Log io.Writer
	// Trace, when set, is told each tool run's stage and wall time (for profiling the helper's own
	// overhead: its total time minus the tools').
	Trace func(stage string, d time.Duration)

	missing func(tool, path string) string // Tools.Missing, for the stages
	chips   string                         // the chips of a job for several (LowerToPTX), for messages
	// unset are environment variables the job's tools must not see (LowerToPTX: MLIR's serializer
	// links libdevice from $CUDA_ROOT or $CUDA_PATH besides the one it is given).
	unset []string
	tmp   string // the job's temporary directory while it runs (workDir)
}

// Codegen is how any source is compiled for its chip.
type Codegen struct {
	// O is the optimisation level (0-3), as MLIR's nvvm target's O; default 2 (Opt set by Defaults).
	O int
	// Fast enables fast math; FTZ flushes f32 denormals to zero.
	Fast, FTZ bool
	// PtxasOptions are extra ptxas options.
	PtxasOptions []string
	// Debug is the device debug information to write (DebugFull needs O 0).
	Debug Debug
}

// Debug is the device debug information a compile writes into its PTX and cubin.
type Debug string

// The kinds of device debug information.
const (
	// DebugNone writes none (what the PTX carries of its own reaches the cubin).
	DebugNone Debug = ""
	// DebugLines writes line tables, for profilers and compute-sanitizer in optimised code: clang's
	// -gline-tables-only, nvcc's and ptxas's -lineinfo.
	DebugLines Debug = "lines"
	// DebugFull makes debuggable device code, at O 0: clang's -g, nvcc's -G, ptxas's -g.
	DebugFull Debug = "full"
)

// ParseDebug parses the name of a kind of debug information ("", lines or full).
func ParseDebug(s string) (Debug, error) {
	switch d := Debug(s); d {
	case DebugNone, DebugLines, DebugFull:
		return d, nil
	}
	return "", fmt.Errorf("unknown debug information %q: use lines (line tables) or full (debuggable code, with -O 0)", s)
}

// Check says what is wrong with the options, or nil.
func (c Codegen) Check() error {
	if c.Debug == DebugFull && c.O != 0 {
		return fmt.Errorf("full debug information needs -O 0 (ptxas cannot optimise debuggable code), and -O is %d: use -O 0, or line tables (lines) for optimised code", c.O)
	}
	return nil
}

// MLIROptions are an MLIR source's.
type MLIROptions struct {
	// Module selects, by regular expression, which gpu.module of an MLIR source to compile; the
	// source must then hold exactly one match. Empty: the source must hold exactly one gpu.module.
	Module string
	// Attribute says that Module is a rule's module attribute: messages name the attribute
	// (module = "..."), not the --module flag.
	Attribute bool
}

// selection names the module selection in messages: the --module flag, or the rule's attribute.
func (o MLIROptions) selection() string {
	if o.Attribute {
		return fmt.Sprintf("module = %q", o.Module)
	}
	return fmt.Sprintf("--module %q", o.Module)
}

// CUDAOptions are a CUDA C++ source's.
type CUDAOptions struct {
	// Compiler is the device front end: CompilerClang (the default) or CompilerNVCC. nvcc takes
	// ClangOptions' preprocessor options (-I, -D, -U, -include, -isystem, -std=; -iquote and
	// -idirafter become -I) and NvccOptions.
	Compiler Compiler
	// RDC compiles the source as relocatable device code (clang's -fgpu-rdc) into LLVM bitcode
	// (FormatOffload, with clang as the Compiler), whose __device__ functions and variables other
	// sources may use: a later job links the sources' bitcode (LLVMOptions.Link) and compiles the
	// module. Clang optimises it at O and links libdevice itself; no opt runs, and no check for a
	// kernel (a source may hold only __device__ functions).
	RDC bool
	// ClangOptions are extra options of clang's device compilation (-I, -D, -include, -std=, ...),
	// in order, after rules_gpu's own; NvccOptions, of nvcc's (CompilerNVCC only).
	ClangOptions, NvccOptions []string
	// ArchList are the chips of every compile of the source (its module's, nvcc only): each per-chip
	// compile then defines the __CUDA_ARCH_LIST__ of all of them, as the host compile does
	// (nvcc.ArchListOptions), and CCCL's namespaces agree between the two. None: nvcc's own, this
	// job's chip alone.
	ArchList []chip.Chip
	// PCH is a precompiled header of clang's CUDA headers (made by a FormatPCH job for the same
	// chip, optimisation level and fast math) that a compile with clang to PTX or a cubin loads
	// instead of parsing them (pch.go); PCHHeaders is the list of its headers, which a FormatPCH
	// job writes beside it. A PCH that clang refuses is not used (a warning to Log).
	PCH, PCHHeaders string
}

// LLVMOptions are an LLVM IR source's.
type LLVMOptions struct {
	// Link are more LLVM IR modules (.ll, .bc) that llvm-link joins with Src into one module before
	// the pipeline runs on it: the per-chip bitcode of the sources of relocatable device code
	// (RDC), whose __device__ functions and variables one source defines and another uses.
	Link []string
}

// Compile runs the pipeline for one job: MLIR → LLVM IR → PTX → cubin, entering at the source's kind
// and stopping at the job's format. The artifact appears at job.Out only when every stage succeeded;
// intermediate files live in a temporary directory that is removed.
func (t Tools) Compile(ctx context.Context, job Job) error {
	job.missing = t.Missing
	if job.Format == FormatPCH && job.Src == "" {
		job.Kind = KindCUDA // the PCH's main file is /dev/null
		if job.Origin == "" {
			job.Origin = "clang's CUDA headers (a precompiled header)"
		}
	}
	if job.Kind == "" {
		k, err := KindOf(job.Src)
		if err != nil {
			return job.fail(nil, "", err)
		}
		job.Kind = k
	}
	if job.Format == FormatLLVM {
		return t.lower(ctx, job)
	}
	if job.Chip.Virtual {
		return job.fail(nil, "", chip.VirtualError(job.Chip))
	}
	if job.CUDA.Compiler == "" {
		job.CUDA.Compiler = CompilerClang
	}
	if err := kinds.Check(job.Kind, job.sources(), job.Format, job.CUDA.Compiler, job.CUDA.RDC); err != nil {
		return job.fail(nil, "", err)
	}
	if err := job.checkRDC(); err != nil {
		return job.fail(nil, "", err)
	}
	if err := job.checkPCH(); err != nil {
		return job.fail(nil, "", err)
	}
	if err := job.Codegen.Check(); err != nil {
		return job.fail(nil, "", err)
	}
	if len(job.CUDA.NvccOptions) > 0 && job.CUDA.Compiler != CompilerNVCC {
		return job.fail(nil, "", fmt.Errorf("nvcc options (%s) apply when nvcc is the compiler", strings.Join(job.CUDA.NvccOptions, " ")))
	}
	if len(job.CUDA.ClangOptions) > 0 && job.Kind != KindCUDA {
		return job.fail(nil, "", fmt.Errorf("clang options (%s) apply to CUDA C++ sources only; this is a %s source", strings.Join(job.CUDA.ClangOptions, " "), job.Kind))
	}
	ptx, err := job.ptxVersion()
	if err != nil {
		return job.fail(nil, "", err)
	}
	if err := t.check(job); err != nil {
		return err
	}
	tmp, err := job.workDir()
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	if job.Format == FormatPCH {
		return t.makePCH(ctx, job, ptx, tmp)
	}
	w := work(tmp)
	front, err := t.front(ctx, job, ptx, w)
	if err != nil {
		return err
	}
	return t.backEnd(ctx, job, ptx, front, w)
}

// work is a job's temporary directory, where its stages write their files.
type work string

// file is the path of the stage's file named name.
func (w work) file(name string) string { return filepath.Join(string(w), name) }

// stage is what a front end hands the back end: a file of LLVM IR (text or bitcode) or of PTX;
// done when it is the job's artifact already.
type stage struct {
	path string
	ir   bool
	done bool
}

// front takes the job's source to the common back end (LLVM IR or PTX), or straight to the job's
// artifact, by its kind's front end. Which formats and compilers each kind may have, tools/kinds'
// table says (Compile checks it first).
func (t Tools) front(ctx context.Context, job Job, ptx chip.PTX, w work) (stage, error) {
	switch job.Kind {
	case KindMLIR:
		return t.mlirFront(ctx, job, w)
	case KindCUDA:
		return t.cudaFront(ctx, job, ptx, w)
	case KindLLVM:
		return t.llvmFront(ctx, job, w)
	}
	return stage{path: job.Src}, nil // PTX, as it is (checkPTXSource has read its ISA and target)
}

// mlirFront lowers an MLIR source's gpu.module to LLVM IR (mlir.go).
func (t Tools) mlirFront(ctx context.Context, job Job, w work) (stage, error) {
	ll, err := t.mlirToLLVM(ctx, job, job.Src, w.file)
	return stage{path: ll, ir: true}, err
}

// cudaFront compiles the device side of a CUDA C++ source: with nvcc, or clang for PTX, to PTX; as
// relocatable device code, to the job's LLVM bitcode itself (optimised by clang, with no kernel to
// check for: a source may hold only __device__ functions); for an offload artifact, to LLVM IR.
func (t Tools) cudaFront(ctx context.Context, job Job, ptx chip.PTX, w work) (stage, error) {
	switch {
	case job.CUDA.Compiler == CompilerNVCC:
		out := w.file("k.ptx")
		return stage{path: out}, t.nvcc(ctx, job, job.Src, out)
	case job.CUDA.RDC:
		bc, err := t.cudaToLLVM(ctx, job, job.Src, w.file("cuda.bc"))
		return stage{path: bc, done: true}, err
	case job.Format != FormatOffload:
		out := w.file("k.ptx")
		return stage{path: out}, t.cudaToPTX(ctx, job, ptx, job.Src, out, string(w))
	}
	ll, err := t.cudaToLLVM(ctx, job, job.Src, w.file("cuda.ll"))
	return stage{path: ll, ir: true}, err
}

// llvmFront takes an LLVM IR source as it is, or linked with the job's other modules (Link) into
// one.
func (t Tools) llvmFront(ctx context.Context, job Job, w work) (stage, error) {
	if len(job.LLVM.Link) == 0 {
		return stage{path: job.Src, ir: true}, nil
	}
	out := w.file("sources.bc")
	return stage{path: out, ir: true}, job.exec(ctx, "link sources", append(append([]string{t.LLVMLink, job.Src}, job.LLVM.Link...), "-o", out)...)
}

// backEnd takes LLVM IR to PTX (in one clang process, or through opt and llc: irToPTXInOne), or to
// optimised bitcode for an offload artifact, and PTX to a cubin with ptxas, stopping at the job's
// format.
func (t Tools) backEnd(ctx context.Context, job Job, ptx chip.PTX, s stage, w work) error {
	if s.done {
		return finish(job, s.path)
	}
	cur := s.path
	if s.ir {
		next := w.file("k.ptx")
		if t.irToPTXInOne(job) {
			if err := t.irToPTX(ctx, job, ptx, cur, next, w.file); err != nil {
				return err
			}
		} else {
			opt, err := t.optimise(ctx, job, cur, w.file)
			if err != nil {
				return err
			}
			if job.Format == FormatOffload {
				return finish(job, opt)
			}
			if err := t.llc(ctx, job, ptx, opt, next); err != nil {
				return err
			}
		}
		cur = next
	}
	if job.Format == FormatISA {
		return finish(job, cur)
	}
	cubin := w.file("k.cubin")
	if err := t.ptxas(ctx, job, cur, cubin); err != nil {
		return err
	}
	return finish(job, cubin)
}

// lower writes an MLIR source's device code as LLVM IR (FormatLLVM), for any chip.
func (t Tools) lower(ctx context.Context, job Job) error {
	if job.Kind != KindMLIR {
		return job.fail(nil, "", fmt.Errorf("format %s is for MLIR sources, whose device code does not depend on the chip until it is optimised; this is a %s source", FormatLLVM, job.Kind))
	}
	if err := t.check(job); err != nil {
		return err
	}
	tmp, err := job.workDir()
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	ll, err := t.mlirToLLVM(ctx, job, job.Src, func(name string) string { return filepath.Join(tmp, name) })
	if err != nil {
		return err
	}
	return finish(job, ll)
}

// noKernel says that a module defines no kernel, and how to mark one.
const noKernel = "the module defines no kernel, so there is nothing to launch; mark the entry points: `kernel` on a gpu.func (MLIR), __global__ (CUDA C++), .entry (PTX), ptx_kernel calling convention (LLVM IR)"

// kernelIn fails when the PTX or cubin at path defines no kernel (unless job.NoKernelOK).
func (job Job) kernelIn(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return job.fail(nil, "", err)
	}
	return job.checkKernels(data)
}

// checkKernels fails when PTX or a cubin defines no kernel (unless job.NoKernelOK).
func (job Job) checkKernels(data []byte) error {
	a, err := artifact.Parse(data)
	if err != nil {
		return job.fail(nil, "", err)
	}
	kernels, err := a.Kernels()
	if err != nil {
		return job.fail(nil, "", err)
	}
	if len(kernels) == 0 && !job.NoKernelOK {
		return job.fail(nil, "", errors.New(noKernel))
	}
	return nil
}

// finish moves the last stage's output to job.Out, after checking that PTX and cubins define a
// kernel: a module without one loads, but there is nothing to launch, which is always a mistake
// (a missing `kernel` attribute on a gpu.func, or __device__ where __global__ was meant).
func finish(job Job, path string) error {
	// A relocatable source may hold only __device__ functions; its module is checked once linked.
	if job.Format != FormatOffload && job.Format != FormatLLVM && !job.CUDA.RDC {
		if err := job.kernelIn(path); err != nil {
			return err
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return job.fail(nil, "", err)
	}
	if err := atomicfile.Output(job.Out, job.Stdout, data); err != nil {
		return job.fail(nil, "", err)
	}
	return nil
}

// workDir makes the temporary directory of a job's intermediate files: beside the output when that
// is a regular file (in Bazel's output tree, on the output's file system), else (a device, a FIFO,
// standard output) in the system's temporary directory. The caller removes it.
// It becomes the TMPDIR of every tool the job runs (toolEnv).
func (job *Job) workDir() (string, error) {
	tmp, err := atomicfile.MkdirTemp(job.Out)
	if err != nil {
		return "", job.fail(nil, "", err)
	}
	job.tmp = tmp
	return tmp, nil
}

// ToolEnv is the environment of a tool that a job runs: this process's, with TMPDIR set to the
// job's temporary directory tmp (when not ""). nvcc (and clang, and ptxas) write their own
// intermediate files under TMPDIR, /tmp by default, named after their process ID: two actions on
// one machine that share /tmp (a remote executor, --spawn_strategy=local) and run in PID namespaces
// of their own can pick the same name and overwrite each other's files. Under the job's directory,
// which is inside its action's outputs, no other action can see them.
func ToolEnv(tmp string) []string {
	if tmp == "" {
		return nil // the process's own environment
	}
	return append(os.Environ(), "TMPDIR="+tmp)
}

// check fails when an MLIR job's --module pattern is one MLIR would read otherwise, or a tool that
// the job needs for sure is not configured or not found, before any runs. (llvm-link is needed for
// sure only to link sources; otherwise only for bitcode and libdevice calls: its stages check it
// when they run.)
func (t Tools) check(job Job) error {
	if job.Kind == KindMLIR {
		// A pattern MLIR would read otherwise is refused before mlir-opt runs (moduleBody uses it after).
		if _, err := mlir.NewModuleMatcher(job.MLIR.Module); err != nil {
			return job.fail(nil, "", fmt.Errorf("--module %q: %w", job.MLIR.Module, err))
		}
	}
	var need [][2]string
	switch job.Kind {
	case KindMLIR:
		need = append(need, [2]string{"mlir-opt", t.MLIROpt}, [2]string{"mlir-translate", t.MLIRTranslate})
	case KindCUDA:
		if job.CUDA.Compiler == CompilerNVCC {
			need = append(need, [2]string{"nvcc", t.NVCC})
		} else {
			need = append(need, [2]string{"clang", t.Clang})
		}
	}
	if len(job.LLVM.Link) > 0 {
		need = append(need, [2]string{"llvm-link", t.LLVMLink})
	}
	// opt (and llc) optimise LLVM IR: MLIR's lowered, an LLVM IR source, or clang's of a CUDA C++
	// source for an offload artifact; clang alone does when it can (irToPTXInOne).
	ir := job.Kind == KindMLIR || job.Kind == KindLLVM ||
		(job.Kind == KindCUDA && job.CUDA.Compiler == CompilerClang && !job.CUDA.RDC && job.Format == FormatOffload)
	if ir && job.Format != FormatLLVM && !t.irToPTXInOne(job) {
		need = append(need, [2]string{"opt", t.Opt})
		if job.Format != FormatOffload {
			need = append(need, [2]string{"llc", t.Llc})
		}
	}
	if job.Format == FormatBin {
		need = append(need, [2]string{"ptxas", t.Ptxas})
	}
	for _, n := range need {
		if !Found(n[1]) {
			return job.fail(nil, "", errors.New(t.missing(n[0], n[1])))
		}
	}
	return nil
}

// Found says whether a tool is configured and found: an existing path, or a program on PATH.
func Found(tool string) bool {
	if tool == "" {
		return false
	}
	if _, err := os.Stat(tool); err == nil {
		return true
	}
	_, err := exec.LookPath(tool)
	return err == nil
}

// ptxVersion is the PTX ISA to emit: the job's, checked, or the chip's minimum for the toolkit.
func (job Job) ptxVersion() (chip.PTX, error) {
	if job.Toolkit.IsZero() {
		if job.PTX.IsZero() && job.Kind != KindPTX {
			return chip.PTX{}, errors.New("no PTX ISA version: give the toolkit version (--toolkit) or the PTX ISA (--ptx)")
		}
		return job.PTX, nil
	}
	if err := job.Toolkit.Check(job.Chip); err != nil {
		return chip.PTX{}, err
	}
	if job.Kind == KindPTX {
		return chip.PTX{}, checkPTXSource(job)
	}
	if job.PTX.IsZero() {
		return chip.DefaultPTX(job.Chip, job.Toolkit)
	}
	return job.PTX, job.Toolkit.CheckPTX(job.Chip, job.PTX)
}

// checkRDC refuses what relocatable device code and linked sources cannot be, before any tool runs.
func (job Job) checkRDC() error {
	if job.CUDA.RDC {
		switch {
		case job.Kind == KindLLVM: // the other kinds' rules are tools/kinds'
			return errors.New("relocatable device code (RDC) is compiled from CUDA C++ sources; LLVM IR modules link as they are: give them all to one compilation")
		case job.CUDA.Compiler == CompilerNVCC && job.Format != FormatBin:
			return fmt.Errorf("relocatable device code (RDC) compiled by nvcc becomes a relocatable cubin (format bin) to link with the other sources' for the chip (gpubuild dlink), not %s", job.Format)
		case job.CUDA.Compiler != CompilerNVCC && job.Format != FormatOffload:
			return fmt.Errorf("relocatable device code (RDC) becomes LLVM bitcode (format offload) to link with the other sources' bitcode for the chip, not %s; compile each source to format offload, then their bitcode together into the %s", job.Format, job.Format)
		}
	}
	if len(job.LLVM.Link) > 0 {
		if job.Kind != KindLLVM {
			return fmt.Errorf("only LLVM IR sources (.ll, .bc) link into one module; %s is a %s source", job.Src, job.Kind)
		}
		for _, l := range job.LLVM.Link {
			if k, err := KindOf(l); err != nil || k != KindLLVM {
				return fmt.Errorf("only LLVM IR sources (.ll, .bc) link into one module; %s is not LLVM IR", l)
			}
		}
	}
	return nil
}

// sources names the job's sources for messages: Origin, or Src and the modules linked with it.
func (job Job) sources() string {
	if job.Origin != "" {
		return job.Origin
	}
	return strings.Join(append([]string{job.Src}, job.LLVM.Link...), ", ")
}

func (job Job) fail(cmd []string, stderr string, err error) error {
	src := job.sources()
	chip := job.Chip.String()
	switch {
	case job.Format == FormatLLVM:
		chip = "every chip"
	case job.chips != "":
		chip = job.chips
	}
	return &Error{Target: job.Target, Src: src, Chip: chip, Command: cmd, Stderr: stderr, Err: err}
}

// toolOf names the tool that runs a stage of the pipeline, for messages.
func toolOf(stage string) string {
	switch stage {
	case "lower to NVVM", "lower to PTX", prepareStage:
		return "mlir-opt"
	case "translate to LLVM IR":
		return "mlir-translate"
	case "optimise":
		return "opt"
	case "link libdevice", "read bitcode", "link sources":
		return "llvm-link"
	}
	return stage // ptxas, llc, clang
}

// exec runs one tool of the pipeline; a failure carries the command and what the tool printed.
func (job Job) exec(ctx context.Context, stage string, cmd ...string) error {
	_, err := job.run(ctx, stage, cmd...)
	return err
}

// run is exec, and returns what the tool printed (standard output and error) when it succeeds.
func (job Job) run(ctx context.Context, stage string, cmd ...string) (string, error) {
	return job.runEnv(ctx, stage, nil, cmd...)
}

// missingTool says that the tool of stage, at path, is not configured or not found, and how to
// provide it.
func (job Job) missingTool(stage, path string) string {
	explain := job.missing
	if explain == nil {
		explain = ToolchainMissing
	}
	msg := explain(toolOf(stage), path)
	if toolOf(stage) != stage {
		msg = stage + ": " + msg
	}
	return msg
}

// runEnv is run with the assignments env (NAME=VALUE) added to the tool's environment.
func (job Job) runEnv(ctx context.Context, stage string, env []string, cmd ...string) (string, error) {
	if !Found(cmd[0]) {
		return "", job.fail(nil, "", errors.New(job.missingTool(stage, cmd[0])))
	}
	c := exec.CommandContext(ctx, cmd[0], cmd[1:]...)
	c.Env = ToolEnv(job.tmp)
	if len(env) > 0 {
		if c.Env == nil {
			c.Env = os.Environ()
		}
		c.Env = append(slices.Clone(c.Env), env...)
	}
	if len(job.unset) > 0 {
		if c.Env == nil {
			c.Env = os.Environ()
		}
		c.Env = slices.DeleteFunc(slices.Clone(c.Env), func(kv string) bool {
			name, _, _ := strings.Cut(kv, "=")
			return slices.Contains(job.unset, name)
		})
	}
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, &out
	start := time.Now()
	err := c.Run()
	if job.Trace != nil {
		job.Trace(stage, time.Since(start))
	}
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			err = fmt.Errorf("%s: %s exited with status %d", stage, filepath.Base(cmd[0]), exit.ExitCode())
		}
		return "", job.fail(cmd, out.String(), err)
	}
	return out.String(), nil
}

// optimise links libdevice when the module calls __nv_ functions and runs opt at the job's level;
// with FTZ, __nvvm_reflect("__CUDA_FTZ") becomes 1 so libdevice takes its flush-to-zero paths.
func (t Tools) optimise(ctx context.Context, job Job, src string, step func(string) string) (string, error) {
	cur := src
	ir, err := t.readIR(ctx, job, src, step("k.ll"))
	if err != nil {
		return "", err
	}
	if bytes.Contains(ir, []byte("@__nv_")) {
		if !Found(t.Libdevice) {
			return "", job.fail(nil, "", errors.New("the module calls libdevice (__nv_ functions) but "+t.missing("libdevice", t.Libdevice)))
		}
		linked := step("linked.bc")
		if err := job.exec(ctx, "link libdevice", t.LLVMLink, "--only-needed", "--internalize", cur, t.Libdevice, "-o", linked); err != nil {
			return "", err
		}
		cur = linked
	}
	out := step("opt.bc")
	// -mcpu lets NVVMReflect run for the chip, so libdevice's reflection strings are folded away.
	args := []string{t.Opt, "-O" + strconv.Itoa(job.O), "-mtriple=nvptx64-nvidia-cuda", "-mcpu=" + job.Chip.String(), cur, "-o", out}
	if job.FTZ {
		args = append(args, "--nvvm-reflect-add=__CUDA_FTZ=1", "--denormal-fp-math-f32=preserve-sign")
	}
	if job.Fast {
		args = append(args, "--fp-contract=fast", "--enable-unsafe-fp-math")
	}
	if err := job.exec(ctx, "optimise", args...); err != nil {
		return "", err
	}
	return out, nil
}

// irToPTXInOne says whether LLVM IR becomes PTX in one clang process (irToPTX) rather than through
// llvm-link, opt and llc: when clang is configured (the toolchain has it), PTX is wanted, and neither
// fast math nor flush-to-zero is asked for. (clang reads no language options for LLVM IR input, so
// it cannot give the module's functions the denormal and fast-math attributes that opt and llc's
// flags do.)
func (t Tools) irToPTXInOne(job Job) bool {
	return (job.Format == FormatISA || job.Format == FormatBin) && !job.FTZ && !job.Fast && t.Clang != ""
}

// irToPTX turns LLVM IR into PTX for the job's chip and PTX ISA in one clang process: clang links
// libdevice as opt's pipeline would (only what is called, internalized: -mlink-builtin-bitcode),
// optimises at the job's level and writes PTX, the same PTX as llvm-link, opt and llc write, in
// three quarters of their time (tests/bench/cudapipe.sh measures it).
func (t Tools) irToPTX(ctx context.Context, job Job, ptx chip.PTX, src, out string, step func(string) string) error {
	ir, err := t.readIR(ctx, job, src, step("k.ll"))
	if err != nil {
		return err
	}
	args := []string{t.Clang, "-cc1", "-triple", "nvptx64-nvidia-cuda", "-target-cpu", job.Chip.String(),
		"-target-feature", fmt.Sprintf("+ptx%d%d", ptx.Major, ptx.Minor), "-O" + strconv.Itoa(min(job.O, 3)),
		"-S", "-x", "ir", src, "-o", out}
	if bytes.Contains(ir, []byte("@__nv_")) {
		if !Found(t.Libdevice) {
			return job.fail(nil, "", errors.New("the module calls libdevice (__nv_ functions) but "+t.missing("libdevice", t.Libdevice)))
		}
		args = append(args, "-mlink-builtin-bitcode", t.Libdevice)
	}
	return job.exec(ctx, "clang", args...)
}

// readIR returns the module as text (disassembling bitcode with llvm-link -S), to look for libdevice
// calls.
func (t Tools) readIR(ctx context.Context, job Job, src, text string) ([]byte, error) {
	data, err := os.ReadFile(src)
	if err != nil {
		return nil, job.fail(nil, "", err)
	}
	if !bytes.HasPrefix(data, []byte("BC\xc0\xde")) {
		return data, nil
	}
	if err := job.exec(ctx, "read bitcode", t.LLVMLink, "-S", src, "-o", text); err != nil {
		return nil, err
	}
	data, err = os.ReadFile(text)
	if err != nil {
		return nil, job.fail(nil, "", err)
	}
	return data, nil
}

// llc turns LLVM IR into PTX for the job's chip and PTX ISA.
func (t Tools) llc(ctx context.Context, job Job, ptx chip.PTX, src, out string) error {
	args := []string{t.Llc, "-march=nvptx64", "-mcpu=" + job.Chip.String(),
		fmt.Sprintf("-mattr=+ptx%d%d", ptx.Major, ptx.Minor), "-O" + strconv.Itoa(min(job.O, 3)), src, "-o", out}
	if job.FTZ {
		args = append(args, "--denormal-fp-math-f32=preserve-sign")
	}
	if job.Fast {
		args = append(args, "--nvptx-prec-divf32=0", "--nvptx-prec-sqrtf32=0", "--enable-unsafe-fp-math", "--fp-contract=fast")
	}
	return job.exec(ctx, "llc", args...)
}

// cudaToLLVM compiles the device side of a CUDA C++ source to LLVM IR with clang (which links
// libdevice itself from --cuda-path); as relocatable device code (job.CUDA.RDC), to LLVM bitcode.
func (t Tools) cudaToLLVM(ctx context.Context, job Job, src, out string) (string, error) {
	emit := []string{"-S", "-emit-llvm"}
	if job.CUDA.RDC {
		emit = []string{"-fgpu-rdc", "-c", "-emit-llvm"}
	}
	return out, t.clangDevice(ctx, job, src, out, emit...)
}

// cudaToPTX compiles the device side of a CUDA C++ source to PTX at the ISA ptx with clang alone: its
// own middle and back end optimise the module at the job's level (after linking libdevice) and
// write the PTX, in one process. (Through LLVM IR, opt would optimise it a second time and llc
// would read it back: 40 % more time per chip for the same kind of code.)
// With a PCH (job.CUDA.PCH), it loads it (usePCH).
func (t Tools) cudaToPTX(ctx context.Context, job Job, ptx chip.PTX, src, out, tmp string) error {
	if job.CUDA.PCH != "" {
		return t.usePCH(ctx, job, src, out, tmp, "-S", ptxFeature(ptx))
	}
	return t.clangDevice(ctx, job, src, out, "-S", ptxFeature(ptx))
}

// ptxFeature is clang's option for the PTX ISA to write.
func ptxFeature(ptx chip.PTX) string {
	return fmt.Sprintf("--cuda-feature=+ptx%d%d", ptx.Major, ptx.Minor)
}

// clangDevice runs clang's device-side compilation of a CUDA C++ source for the job's chip, writing
// what emit asks for to out.
func (t Tools) clangDevice(ctx context.Context, job Job, src, out string, emit ...string) error {
	args := []string{t.Clang, "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=" + job.Chip.String(),
		"-O" + strconv.Itoa(min(job.O, 3))}
	args = append(append(args, emit...), "-o", out, src)
	if t.CUDAPath != "" {
		// clang's driver searches the toolkit's include directory after the machine's own system
		// directories, so a machine with CUDA headers in /usr/include (Debian's nvidia-cuda-dev)
		// would give a hermetic toolkit's compile those instead; -isystem puts the toolkit first.
		args = append(args, "--cuda-path="+t.CUDAPath, "-isystem", filepath.Join(t.CUDAPath, "include"))
	}
	if t.ClangResourceDir != "" {
		args = append(args, "-resource-dir", t.ClangResourceDir)
	}
	if job.FTZ {
		args = append(args, "-fgpu-flush-denormals-to-zero")
	}
	if job.Fast {
		args = append(args, "-ffast-math")
	}
	switch job.Debug {
	case DebugLines:
		args = append(args, "-gline-tables-only")
	case DebugFull:
		args = append(args, "-g") // at -O0, clang writes full device debug information
	}
	if job.Debug != DebugNone {
		// The debug information names directories relative to the working directory (a Bazel
		// action's execution root), not the sandbox's path, which changes from build to build.
		wd, err := os.Getwd()
		if err != nil {
			return job.fail(nil, "", err)
		}
		args = append(args, "-fdebug-compilation-dir=.", "-fdebug-prefix-map="+wd+"=.")
	}
	args = append(args, job.CUDA.ClangOptions...) // last, so that they override rules_gpu's
	if err := job.exec(ctx, "clang", args...); err != nil {
		return t.ExplainMissingHeader(err)
	}
	return nil
}

// nvcc compiles the device side of a CUDA C++ source to PTX for the job's chip with the toolkit's
// nvcc, for code written for nvcc that clang rejects. nvcc writes the PTX ISA of its own toolkit. It
// runs nvcc's steps itself (package nvcc), with the source's path as the job names it: the names of
// internal-linkage kernels then do not depend on where the action runs, and match the host compile's.
func (t Tools) nvcc(ctx context.Context, job Job, src, out string) error {
	args := []string{"-x", "cu", "-ptx", "-arch=" + job.Chip.String(), "-O" + strconv.Itoa(min(job.O, 3)), "-o", out}
	if job.CUDA.RDC {
		args = append(args, "-rdc=true") // PTX with .extern declarations, for ptxas -c
	}
	if job.FTZ {
		args = append(args, "-ftz=true")
	}
	if job.Fast {
		args = append(args, "--use_fast_math")
	}
	switch job.Debug {
	case DebugLines:
		args = append(args, "-lineinfo")
	case DebugFull:
		args = append(args, "-G")
	}
	args = append(args, nvcc.ArchListOptions(job.CUDA.ArchList)...)
	args = append(args, nvcc.PreprocessorOptions(job.CUDA.ClangOptions)...)
	args = append(args, job.CUDA.NvccOptions...)
	args = append(args, src)
	if err := job.nvccPlan(ctx, t.NVCC, args, src); err != nil {
		return t.ExplainMissingHeader(err)
	}
	return nil
}

// nvccPlan runs nvcc (the program at path nvcc) with args as its --dryrun plan (nvcc.Compile),
// with src as the source's path.
func (job Job) nvccPlan(ctx context.Context, path string, args []string, src string) error {
	if !Found(path) {
		return job.fail(nil, "", errors.New(job.missingTool("nvcc", path)))
	}
	err := nvcc.Compile(ctx, path, args, ToolEnv(job.tmp), job.tmp, src, nil, func(cmd, env []string) error {
		_, err := job.runEnv(ctx, "nvcc", env, cmd...)
		return err
	})
	var e *nvcc.Error
	if errors.As(err, &e) {
		return job.fail(e.Command, e.Output, err)
	}
	return err
}

// missingHeader is clang's line for an #include it cannot find: file:line:col: fatal error: 'h' file not found.
// gcc's preprocessor, which nvcc runs, says: file:line:col: fatal error: h: No such file or directory.
var missingHeader = regexp.MustCompile(`(?m)^(.+?):(\d+):\d+: fatal error: (?:'([^']+)' file not found|([^:\n]+): No such file or directory)`)

// ExplainMissingHeader turns a compiler's "file not found" for an #include, in the Stderr of an
// *Error, into one line that names the source, the line and the header, and says how to make the
// header visible: in a Bazel action (the tools come from the toolchains: t.Missing is nil) by a
// dependency that provides it; by hand, by -I. Other errors it returns as they are.
func (t Tools) ExplainMissingHeader(err error) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	m := missingHeader.FindStringSubmatch(e.Stderr)
	if m == nil {
		return err
	}
	header := m[3] + m[4]
	include := strconv.Quote(header) // as the source names it: "h" or <h>
	if angleInclude(m[1], m[2], header) {
		include = "<" + header + ">"
	}
	fix := "pass the directory that holds it with -I DIR (or -isystem DIR)"
	switch {
	case t.Missing == nil && !kinds.IsHeader(header):
		// A source that another includes (a .cu): hdrs takes headers only.
		fix = "list it in textual_hdrs (a file that is included, not compiled on its own), or add the target that provides it to deps; its directory goes in includes when the #include does not name it from the repository root"
	case header == "omp.h":
		// OpenMP's header, in clang's resource directory when LLVM's OpenMP runtime is installed.
		fix = "it is OpenMP's: add -fopenmp to host_copts (with compiler nvcc, -Xcompiler -fopenmp to copts), and use an LLVM toolchain with its OpenMP runtime (Debian's and Ubuntu's libomp-N-dev put omp.h in clang's resource directory; docs/cuda.md, OpenMP host code)"
	case t.Missing == nil && include[0] == '<':
		// A system library's header (omp.h) or one of the repository's, named as a system header.
		fix = "add the target that provides it to deps (a cc_library with it in hdrs, its directory in includes); a system library's header needs its directory in copts (-isystem DIR) and the library in linkopts"
	case t.Missing == nil:
		fix = "add the target that provides it to deps (a cc_library with it in hdrs), or list it in hdrs; its directory goes in includes when the #include does not name it from the repository root"
	}
	e.Err = fmt.Errorf("%s:%s: #include %s: no such header among the headers this compile can see; fix: %s", m[1], m[2], include, fix)
	return e
}

// angleInclude reports whether line `line` of the source file names header in angle brackets
// (#include <h>). A file it cannot read, it takes for a quoted include.
func angleInclude(file, line, header string) bool {
	data, err := os.ReadFile(file)
	n, _ := strconv.Atoi(line)
	if err != nil || n < 1 {
		return false
	}
	lines := strings.Split(string(data), "\n")
	return n <= len(lines) && strings.Contains(lines[n-1], "<"+header+">")
}
