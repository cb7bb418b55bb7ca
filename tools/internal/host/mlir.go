package host

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/internal/atomicfile"
	"github.com/rulesgpu/rules_gpu/tools/internal/compile"
	"github.com/rulesgpu/rules_gpu/tools/mlir"
)

// HostPipeline (mlir-opt's option) lowers a program's host code once its gpu.modules are gpu.binary
// ops: the pipeline that MLIR's integration tests run (whose device passes find no gpu.module left
// to serialize).
const HostPipeline = "--gpu-lower-to-nvvm-pipeline"

// AsyncPipeline (mlir-opt's option) runs before HostPipeline over the host code of a program that
// uses the async dialect (async.execute, async.await, groups), in the order of MLIR's CUDA
// integration test of it (mlir/test/Integration/GPU/CUDA/async.mlir): gpu-async-region gives the
// GPU ops inside async.execute regions tokens (their streams), gpu-to-llvm lowers them (and the
// async ops' operands and results of GPU types), then the async dialect becomes coroutines and
// calls of the async runtime (mlirAsyncRuntime*, package mlirrt), reference counted. HostPipeline
// lowers what is left (scf, vector, the outlined regions' functions).
const AsyncPipeline = "--pass-pipeline=builtin.module(func.func(gpu-async-region),gpu-to-llvm,async-to-async-runtime," +
	"async-runtime-ref-counting,async-runtime-ref-counting-opt,convert-async-to-llvm)"

// CoroPasses (opt's option) split the LLVM coroutines of lowered async.execute regions into their
// resume functions, as LLVM's O0 pipeline (which mlir-runner runs) does: llc cannot compile a
// coroutine that is not split.
const CoroPasses = "-passes=coro-early,cgscc(coro-split),coro-cleanup,globaldce"

// asyncOp is an op or type of the async dialect in MLIR's printed form (no comments; not the async
// keyword of GPU ops, nor !gpu.async.token).
var asyncOp = regexp.MustCompile(`(^|[^A-Za-z0-9_.$])!?async\.[a-z_]`)

// MLIRJob is the host side of an MLIR program: its source, the artifacts of its modules, and the
// object file to write.
type MLIRJob struct {
	// Target is the Bazel label (or any name) that error messages cite; Src is the program (.mlir).
	Target, Src string
	// Binaries maps each gpu.module of the program (outlined gpu.launch regions included) to its
	// artifact: the fatbin that the program loads at run time.
	Binaries map[string][]byte
	// Chip is the chip that the objects' #nvvm.target names (the lowest the artifacts are for).
	Chip string
	// O is llc's optimisation level for the host code.
	O int
	// Out is the object file to write (x86-64 ELF, position independent).
	Out string
}

// MLIR builds the host side of an MLIR program into an object file with tools.MLIROpt,
// tools.MLIRTranslate and tools.Llc: the nvgpu lowering and gpu-kernel-outlining
// (compile.OutlinePasses, as the device side's lowering, so the modules have the same names and
// their kernels the same parameters: a TMA descriptor a launch captures is a pointer on both
// sides), each gpu.module replaced by a
// gpu.binary holding its artifact (mlir.ToBinaries), MLIR's GPU lowering of the host code to
// calls of the runtime (mgpuModuleLoad, mgpuLaunchKernel, ...), mlir-translate, main given an exit
// status, and llc. A program that uses the async dialect has it lowered first (AsyncPipeline), and
// its coroutines split by tools.Opt before llc (CoroPasses); other programs are lowered without
// either.
//
// MLIR lowers func.func @main() to a C function `void main()`, whose exit status is whatever the
// last call left in a register. A @main that returns nothing is therefore renamed and called by a
// `int main(int, char **)` that returns 0 (the runtime exits 1 itself on a CUDA error); one that
// returns i32 is kept, its value the exit status. @main may take (i32, !llvm.ptr): argc and argv.
func MLIR(ctx context.Context, tools compile.Tools, job MLIRJob) error {
	fail := func(cmd []string, stderr string, err error) error {
		return hostError(job.Target, job.Src, cmd, stderr, err)
	}
	if err := need(tools, [2]string{"mlir-opt", tools.MLIROpt}, [2]string{"mlir-translate", tools.MLIRTranslate}, [2]string{"llc", tools.Llc}); err != nil {
		return fail(nil, "", err)
	}
	tmp, err := atomicfile.MkdirTemp(job.Out)
	if err != nil {
		return fail(nil, "", err)
	}
	defer os.RemoveAll(tmp)
	step := func(name string) string { return filepath.Join(tmp, name) }
	exec := func(stage string, cmd ...string) error { return run(ctx, tmp, stage, cmd, fail) }

	outlined := step("outlined.mlir")
	if err := exec("outline gpu.launch", tools.MLIROpt, "--pass-pipeline=builtin.module("+compile.OutlinePasses+")", job.Src, "-o", outlined); err != nil {
		return err
	}
	text, err := os.ReadFile(outlined)
	if err != nil {
		return fail(nil, "", err)
	}
	withBinaries, err := mlir.ToBinaries(text, fmt.Sprintf("#nvvm.target<chip = %q>", job.Chip), job.Binaries)
	if err != nil {
		return fail(nil, "", fmt.Errorf("after outlining: %w", err))
	}
	host := step("host.mlir")
	if err := os.WriteFile(host, withBinaries, 0o644); err != nil {
		return fail(nil, "", err)
	}
	source, err := os.ReadFile(job.Src)
	if err != nil {
		return fail(nil, "", err)
	}
	async := asyncOp.Match(withBinaries)
	pipeline := HostPipeline
	if async {
		pipeline = AsyncPipeline + " then " + HostPipeline
		if err := need(tools, [2]string{"opt", tools.Opt}); err != nil {
			return fail(nil, "", fmt.Errorf("the program uses the async dialect, whose coroutines opt splits: %w", err))
		}
		lowered := step("async.mlir")
		if err := exec("lower the async dialect", tools.MLIROpt, AsyncPipeline, host, "-o", lowered); err != nil {
			return explainUnlowered(err, source, job.Src, AsyncPipeline)
		}
		host = lowered
	}
	lowered := step("lowered.mlir")
	if err := exec("lower the host code", tools.MLIROpt, HostPipeline, host, "-o", lowered); err != nil {
		return explainUnlowered(err, source, job.Src, pipeline)
	}
	ll := step("host.ll")
	if err := exec("translate to LLVM IR", tools.MLIRTranslate, "--mlir-to-llvmir", lowered, "-o", ll); err != nil {
		return explainUnlowered(err, source, job.Src, pipeline)
	}
	ir, err := os.ReadFile(ll)
	if err != nil {
		return fail(nil, "", err)
	}
	if ir, err = wrapMain(ir); err != nil {
		return fail(nil, "", err)
	}
	if err := os.WriteFile(ll, ir, 0o644); err != nil {
		return fail(nil, "", err)
	}
	if async {
		split := step("host.coro.bc")
		if err := exec("split the coroutines", tools.Opt, CoroPasses, ll, "-o", split); err != nil {
			return err
		}
		ll = split
	}
	obj := step("host.o")
	if err := exec("llc", tools.Llc, "-filetype=obj", "-relocation-model=pic", "-O"+strconv.Itoa(min(job.O, 3)), ll, "-o", obj); err != nil {
		return err
	}
	return output(obj, job.Out, nil, fail)
}

// userMain is what a @main that returns nothing is renamed to.
const userMain = "__rules_gpu_user_main"

var (
	defineMain = regexp.MustCompile(`(?m)^define ([^@\n]*?)@main\(([^)]*)\)`)
	mainRef    = regexp.MustCompile(`@main([^A-Za-z0-9_$.]|$)`)
)

// wrapMain gives a program's LLVM IR an `i32 main`: see Host.
func wrapMain(ir []byte) ([]byte, error) {
	m := defineMain.FindSubmatch(ir)
	if m == nil {
		return nil, errors.New("the program has no func.func @main: define the host entry point, func.func @main() (or @main(%argc: i32, %argv: !llvm.ptr))")
	}
	// The result type is the last word before @main (after linkage and attributes), or an
	// aggregate { ... } (a memref, a tuple).
	head := strings.TrimSpace(string(m[1]))
	var ret string
	if i := strings.Index(head, "{"); i >= 0 {
		ret = head[i:]
	} else if f := strings.Fields(head); len(f) > 0 {
		ret = f[len(f)-1]
	} else {
		return nil, errors.New("cannot read the result type of @main in the lowered program")
	}
	var types []string
	for _, p := range strings.Split(string(m[2]), ",") {
		if f := strings.Fields(p); len(f) > 0 {
			types = append(types, f[0])
		}
	}
	sig := strings.Join(types, ", ")
	if sig != "" && sig != "i32, ptr" {
		return nil, fmt.Errorf("@main takes (%s) once lowered; it may take nothing, or (i32, !llvm.ptr): argc and argv", sig)
	}
	switch ret {
	case "i32":
		return ir, nil
	case "void":
	default:
		return nil, fmt.Errorf("@main returns %s; return nothing (exit status 0) or i32 (the exit status)", ret)
	}
	out := mainRef.ReplaceAll(ir, []byte("@"+userMain+"$1"))
	args := ""
	if sig != "" {
		args = "i32 %argc, ptr %argv"
	}
	wrapper := fmt.Sprintf("\n; rules_gpu: @main returned nothing; the program's exit status is 0.\ndefine i32 @main(i32 %%argc, ptr %%argv) {\n  call void @%s(%s)\n  ret i32 0\n}\n", userMain, args)
	return append(out, wrapper...), nil
}
