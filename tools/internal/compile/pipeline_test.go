package compile

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/chip"
	"github.com/rulesgpu/rules_gpu/tools/internal/artifact"
	"github.com/rulesgpu/rules_gpu/tools/internal/testtool"
)

// findTools finds the pipeline's tools: from the environment (set by the Bazel test to runfiles
// paths) or on PATH under the build environment's names (env/env.sh run go test ./...).
func findTools(t *testing.T) Tools {
	t.Helper()
	find := func(env, name string) string { return testtool.Find(t, env, name) }
	return Tools{
		Ptxas: find("PTXAS", "ptxas"), Llc: testtool.LLVM(t, "llc"), Opt: testtool.LLVM(t, "opt"),
		LLVMLink: testtool.LLVM(t, "llvm-link"), Clang: testtool.LLVM(t, "clang"),
		MLIROpt: testtool.LLVM(t, "mlir-opt"), MLIRTranslate: testtool.LLVM(t, "mlir-translate"),
		Libdevice: find("LIBDEVICE", "/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc"),
		CUDAPath:  find("CUDA_PATH", "/usr/lib/cuda"),
		NVCC:      find("NVCC", "nvcc"),
		NVLink:    find("NVLINK", "nvlink"),
	}
}

// Every kind of source becomes every per-chip format, and each result is what it claims to be.
func TestPipeline(t *testing.T) {
	tools := findTools(t)
	tk := chip.Toolkit{Major: 12, Minor: 4}
	for _, src := range []struct{ file, kernel string }{
		{"testdata/saxpy.mlir", "saxpy"},
		{"testdata/saxpy.cu", "saxpy"},
		{"testdata/softplus.ll", "softplus"},
		{"testdata/launch.mlir", "main_kernel"}, // a gpu.launch, outlined
	} {
		for _, format := range []Format{FormatOffload, FormatISA, FormatBin} {
			for _, c := range []string{"sm_80", "sm_90"} {
				t.Run(filepath.Base(src.file)+"/"+string(format)+"/"+c, func(t *testing.T) {
					out := filepath.Join(t.TempDir(), "k."+string(format))
					job := Job{Target: "//t:k", Src: src.file, Out: out, Format: format, Chip: mustChip(t, c), Toolkit: tk, Codegen: Codegen{O: 3}}
					if err := tools.Compile(context.Background(), job); err != nil {
						t.Fatal(err)
					}
					data, err := os.ReadFile(out)
					if err != nil {
						t.Fatal(err)
					}
					switch format {
					case FormatOffload:
						if !bytes.HasPrefix(data, []byte("BC\xc0\xde")) {
							t.Errorf("offload output is not LLVM bitcode: %q", data[:min(8, len(data))])
						}
					case FormatISA:
						for _, want := range []string{".target " + c, ".entry " + src.kernel} {
							if !bytes.Contains(data, []byte(want)) {
								t.Errorf("PTX lacks %q", want)
							}
						}
						if bytes.Contains(data, []byte("__nv_")) {
							t.Errorf("PTX still calls libdevice: it was not linked")
						}
					case FormatBin:
						img, err := artifact.CubinImage(data)
						if err != nil {
							t.Fatal(err)
						}
						if img.ArchName() != c {
							t.Errorf("cubin for %s, want %s", img.ArchName(), c)
						}
					}
				})
			}
		}
	}
}

// LLVM IR becomes PTX in one clang process (irToPTX) with the same bytes as through llvm-link, opt
// and llc (the pipeline without clang), for MLIR's lowered modules and LLVM IR sources, with and
// without libdevice, at every level; FTZ and fast math, which that process cannot apply to LLVM
// IR, still take opt and llc, and reach the code.
func TestPipelineIRInOneProcess(t *testing.T) {
	tools := findTools(t)
	split := tools
	split.Clang = ""
	tk := chip.Toolkit{Major: 12, Minor: 4}
	compile := func(t *testing.T, tl Tools, job Job) []byte {
		t.Helper()
		job.Out = filepath.Join(t.TempDir(), "k.ptx")
		if err := tl.Compile(context.Background(), job); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(job.Out)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	for _, tc := range []struct {
		src  string
		chip string
		o    int
	}{
		{"testdata/softplus.ll", "sm_80", 3}, // calls libdevice
		{"testdata/softplus.ll", "sm_90", 0},
		{"testdata/saxpy.mlir", "sm_80", 3},
		{"testdata/reduce.mlir", "sm_90", 2},
		{"testdata/launch.mlir", "sm_80", 1},
	} {
		t.Run(fmt.Sprintf("%s/%s/O%d", filepath.Base(tc.src), tc.chip, tc.o), func(t *testing.T) {
			job := Job{Target: "//t:k", Src: tc.src, Format: FormatISA, Chip: mustChip(t, tc.chip), Toolkit: tk, Codegen: Codegen{O: tc.o}}
			if !tools.irToPTXInOne(job) || split.irToPTXInOne(job) {
				t.Fatal("irToPTXInOne: want clang alone with clang, llvm-link+opt+llc without")
			}
			one, three := compile(t, tools, job), compile(t, split, job)
			if !bytes.Equal(one, three) {
				t.Errorf("clang's PTX differs from llvm-link+opt+llc's:\n%s\n---\n%s", one, three)
			}
		})
	}
	job := Job{Target: "//t:k", Src: "testdata/saxpy.mlir", Format: FormatISA, Chip: mustChip(t, "sm_80"), Toolkit: tk, Codegen: Codegen{O: 3, FTZ: true}}
	if tools.irToPTXInOne(job) {
		t.Fatal("FTZ took clang alone")
	}
	if ptx := compile(t, tools, job); !bytes.Contains(ptx, []byte(".ftz.f32")) {
		t.Errorf("FTZ: PTX has no .ftz.f32:\n%s", ptx)
	}
}

// FTZ reaches the generated code: the f32 fma becomes fma.rn.ftz.f32.
func TestPipelineFTZ(t *testing.T) {
	tools := findTools(t)
	for _, ftz := range []bool{false, true} {
		out := filepath.Join(t.TempDir(), "k.ptx")
		job := Job{Target: "//t:k", Src: "testdata/saxpy.cu", Out: out, Format: FormatISA, Chip: mustChip(t, "sm_80"), Toolkit: chip.Toolkit{Major: 12, Minor: 4}, Codegen: Codegen{O: 3, FTZ: ftz}}
		if err := tools.Compile(context.Background(), job); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(out)
		if got := bytes.Contains(data, []byte(".ftz.f32")); got != ftz {
			t.Errorf("ftz=%v: PTX has .ftz.f32 = %v", ftz, got)
		}
	}
}

// Fast math reaches the generated code: IEEE division (div.rn.f32) becomes an approximate one.
func TestPipelineFastMath(t *testing.T) {
	tools := findTools(t)
	for _, fast := range []bool{false, true} {
		out := filepath.Join(t.TempDir(), "k.ptx")
		job := Job{Target: "//t:k", Src: "testdata/divide.cu", Out: out, Format: FormatISA, Chip: mustChip(t, "sm_80"), Toolkit: chip.Toolkit{Major: 12, Minor: 4}, Codegen: Codegen{O: 3, Fast: fast}}
		if err := tools.Compile(context.Background(), job); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(out)
		if got := bytes.Contains(data, []byte("div.rn.f32")); got == fast {
			t.Errorf("fast=%v: PTX has div.rn.f32 = %v", fast, got)
		}
	}
}

// Device debug information reaches the cubin, from clang and from nvcc: line tables (lines) in
// optimised code, full DWARF (full) at -O 0; none without. Full debug information at -O 2 is refused
// before any tool runs (ptxas: "Optimized debugging not supported").
func TestPipelineDebug(t *testing.T) {
	tools := findTools(t)
	// section reports whether the cubin has a section of that name: its name in the section names'
	// string table. (debug/elf refuses cubins: their ELF version is CUDA's own.)
	section := func(cubin []byte, name string) bool { return bytes.Contains(cubin, []byte("\x00"+name+"\x00")) }
	for _, tc := range []struct {
		compiler   Compiler
		debug      Debug
		o          int
		lines, all bool // .nv_debug_line_sass (SASS to source lines), .debug_info (variables, types)
	}{
		{CompilerClang, DebugNone, 2, false, false},
		{CompilerClang, DebugLines, 2, true, false},
		{CompilerClang, DebugFull, 0, true, true},
		{CompilerNVCC, DebugNone, 2, false, false},
		{CompilerNVCC, DebugLines, 2, true, false},
		{CompilerNVCC, DebugFull, 0, true, true},
	} {
		t.Run(fmt.Sprintf("%s/%s", tc.compiler, cmp.Or(string(tc.debug), "none")), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "k.cubin")
			job := Job{Target: "//t:k", Src: "testdata/saxpy.cu", Out: out, Format: FormatBin, Chip: mustChip(t, "sm_90"),
				Toolkit: chip.Toolkit{Major: 12, Minor: 4}, Codegen: Codegen{O: tc.o, Debug: tc.debug}, CUDA: CUDAOptions{Compiler: tc.compiler}}
			if err := tools.Compile(context.Background(), job); err != nil {
				t.Fatal(err)
			}
			cubin, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if lines, all := section(cubin, ".nv_debug_line_sass"), section(cubin, ".debug_info"); lines != tc.lines || all != tc.all {
				t.Errorf("cubin has .nv_debug_line_sass = %v, .debug_info = %v; want %v, %v", lines, all, tc.lines, tc.all)
			}
			// The same bytes wherever the build runs (a sandbox's path changes from build to build).
			if wd, _ := os.Getwd(); tc.compiler == CompilerClang && bytes.Contains(cubin, []byte(wd)) {
				t.Errorf("the cubin names the working directory %s", wd)
			}
		})
	}
	out := filepath.Join(t.TempDir(), "k.cubin")
	job := Job{Target: "//t:k", Src: "testdata/saxpy.cu", Out: out, Format: FormatBin, Chip: mustChip(t, "sm_90"),
		Toolkit: chip.Toolkit{Major: 12, Minor: 4}, Codegen: Codegen{O: 2, Debug: DebugFull}}
	err := tools.Compile(context.Background(), job)
	if err == nil || !strings.Contains(err.Error(), "full debug information needs -O 0") || !strings.Contains(err.Error(), "//t:k") {
		t.Errorf("full debug information at -O 2: %v", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s was written", out)
	}
}

// Failures name the target, the file, the chip and the failing stage, show the tool's message, and
// leave nothing behind.
func TestPipelineErrors(t *testing.T) {
	tools := findTools(t)
	dir := t.TempDir()
	write := func(name, text string) string { return testtool.WriteFile(t, dir, name, text) }
	two := write("two.mlir", "module attributes {gpu.container_module} {\n  gpu.module @a {\n  }\n  gpu.module @b {\n  }\n}\n")
	for _, tc := range []struct {
		name   string
		src    string
		module string
		tools  Tools
		want   []string
	}{
		{name: "malformed MLIR", src: write("bad.mlir", "module {\n  gpu.module @k {\n    gpu.func @f( kernel {\n"),
			want: []string{"lower to NVVM", "mlir-opt", "bad.mlir"}},
		{name: "no gpu.module", src: write("none.mlir", "module {\n}\n"), want: []string{"no gpu.module or gpu.launch in the source"}},
		{name: "two modules, none selected", src: two, want: []string{"2 gpu.modules match", "@a, @b"}},
		{name: "module regex matches none", src: two, module: "^c$", want: []string{`no gpu.module matches --module "^c$"`, "@a, @b"}},
		{name: "malformed LLVM IR", src: write("bad.ll", "define void @k( {\n"), want: []string{"clang", "bad.ll", "expected type"}},
		{name: "CUDA syntax error", src: write("bad.cu", "__global__ void k() { int x = ; }\n"), want: []string{"clang", "bad.cu", "expected expression"}},
		{name: "CUDA header missing", src: write("uses.cu", "#include <stdint.h>\n#include \"project/vec.h\"\n__global__ void k(float *x) { x[0] = 1; }\n"),
			want: []string{"uses.cu:2: #include \"project/vec.h\": no such header", "fix: add the target that provides it to deps"}},
		{name: "system header missing", src: write("uses_omp.cu", "#include <cstdio>\n#include <no_such_library/omp.h>\n__global__ void k(float *x) { x[0] = 1; }\n"),
			want: []string{"uses_omp.cu:2: #include <no_such_library/omp.h>: no such header", "a system library's header needs its directory in copts (-isystem DIR)"}},
		{name: "included .cu missing", src: write("includes_cu.cu", "#include \"project/part.cu\"\n__global__ void k(float *x) { x[0] = 1; }\n"),
			want: []string{"includes_cu.cu:1: #include \"project/part.cu\": no such header", "fix: list it in textual_hdrs"}},
		{name: "CUDA header missing, by hand", src: write("uses_cli.cu", "#include \"project/vec.h\"\n__global__ void k(float *x) { x[0] = 1; }\n"),
			tools: func() Tools { t := tools; t.Missing = func(tool, path string) string { return tool }; return t }(),
			want:  []string{"uses_cli.cu:1: #include \"project/vec.h\": no such header", "fix: pass the directory that holds it with -I DIR"}},
		{name: "libdevice missing", src: "testdata/softplus.ll", tools: func() Tools { t := tools; t.Libdevice = ""; return t }(),
			want: []string{"calls libdevice", "no libdevice.10.bc"}},
		{name: "unknown kind", src: write("k.c", "int x;"), want: []string{"unknown source kind"}},
		{name: "no kernel (MLIR)", src: write("helper.mlir", "module attributes {gpu.container_module} {\n  gpu.module @k {\n    gpu.func @helper(%n: i32) -> i32 {\n      gpu.return %n : i32\n    }\n  }\n}\n"),
			want: []string{"helper.mlir", "the module defines no kernel", "`kernel` on a gpu.func"}},
		{name: "no kernel (CUDA)", src: write("helper.cu", "__device__ float twice(float x) { return 2 * x; }\n"),
			want: []string{"helper.cu", "the module defines no kernel", "__global__"}},
		{name: "no kernel (PTX)", src: write("helper.ptx", ".version 7.0\n.target sm_80\n.address_size 64\n\n.visible .func (.reg .f32 %r) twice(.reg .f32 %a)\n{\n\tadd.f32 %r, %a, %a;\n\tret;\n}\n"),
			want: []string{"helper.ptx", "the module defines no kernel", ".entry (PTX)"}},
		{name: "PTX ISA too low for its target", src: write("low.ptx", ".version 7.0\n.target sm_90\n.address_size 64\n\n.visible .entry k()\n{\n\tret;\n}\n"),
			want: []string{"low.ptx", "PTX ISA 7.0", "sm_90 needs PTX ISA 7.8 or newer", "change the .version directive"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tl := tools
			if tc.tools.Ptxas != "" {
				tl = tc.tools
			}
			outDir := t.TempDir()
			out := filepath.Join(outDir, "k.cubin")
			err := tl.Compile(context.Background(), Job{Target: "//t:k", Src: tc.src, Out: out, Format: FormatBin, Chip: mustChip(t, "sm_80"),
				Toolkit: chip.Toolkit{Major: 12, Minor: 4}, MLIR: MLIROptions{Module: tc.module}})
			if err == nil {
				t.Fatal("compiled")
			}
			for _, want := range append([]string{"//t:k", "sm_80"}, tc.want...) {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error does not contain %q:\n%v", want, err)
				}
			}
			if entries, _ := os.ReadDir(outDir); len(entries) != 0 {
				t.Errorf("left behind: %v", entries)
			}
		})
	}
}

// A tool that the job needs and that is not configured, or not there, fails the job before any
// tool runs: by default naming the Bazel toolchain that provides it, else as Tools.Missing says.
func TestMissingTools(t *testing.T) {
	ll := filepath.Join(t.TempDir(), "k.ll")
	if err := os.WriteFile(ll, []byte("define void @k() { ret void }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cli := func(tool, path string) string { return "no " + tool + " (" + path + "); pass --" + tool }
	for _, tc := range []struct {
		name   string
		tools  Tools
		src    string
		format Format
		want   string
	}{
		{"ptxas, Bazel", Tools{}, writePTX(t, "7.0", "sm_75"), FormatBin,
			"no ptxas configured; the CUDA toolchain (@rules_gpu//toolchain:cuda_toolchain_type"},
		{"ptxas not there, Bazel", Tools{Ptxas: "/nonexistent/ptxas"}, writePTX(t, "7.0", "sm_75"), FormatBin,
			"ptxas: /nonexistent/ptxas not found; the CUDA toolchain"},
		{"opt, Bazel", Tools{}, ll, FormatISA, "no opt configured; the LLVM toolchain (@rules_gpu//toolchain:llvm_toolchain_type"},
		{"ptxas, by hand", Tools{Missing: cli}, writePTX(t, "7.0", "sm_75"), FormatBin, "no ptxas (); pass --ptxas"},
		{"llc, by hand", Tools{Missing: cli, Opt: "/bin/sh"}, ll, FormatISA, "no llc (); pass --llc"},
		{"opt not there, by hand", Tools{Missing: cli, Opt: "/nonexistent/opt"}, ll, FormatOffload, "no opt (/nonexistent/opt); pass --opt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "out")
			err := tc.tools.Compile(context.Background(), Job{Target: "//t:k", Src: tc.src, Out: out, Format: tc.format,
				Chip: mustChip(t, "sm_80"), Toolkit: chip.Toolkit{Major: 12, Minor: 4}})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("left behind: %v", entries)
			}
		})
	}
}

// Clang options are for CUDA C++ sources; an error without a target names no target.
func TestClangOptionsCUDAOnly(t *testing.T) {
	err := Tools{}.Compile(context.Background(), Job{Src: writePTX(t, "7.0", "sm_75"), Out: filepath.Join(t.TempDir(), "k.cubin"),
		Format: FormatBin, Chip: mustChip(t, "sm_80"), CUDA: CUDAOptions{ClangOptions: []string{"-DX"}}})
	if err == nil || !strings.HasPrefix(err.Error(), "compiling ") || !strings.Contains(err.Error(), "clang options (-DX) apply to CUDA C++ sources only; this is a ptx source") {
		t.Errorf("error %v", err)
	}
}

// CUDA C++ written for nvcc that clang rejects (__stcs on a float*, isfinite without <math.h>)
// compiles with Compiler nvcc, to PTX and to a cubin that define the same kernel; nvcc's missing
// header is explained as clang's is; clang-only and nvcc-only requests are refused.
func TestNVCC(t *testing.T) {
	tools := findTools(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "nvcc_only.cu")
	if err := os.WriteFile(src, []byte(`extern "C" __global__ void scale_finite(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && isfinite(x[i])) __stcs(&x[i], x[i] * SCALE);
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	job := Job{Target: "//t:k", Src: src, Chip: mustChip(t, "sm_90"), Toolkit: chip.Toolkit{Major: 12, Minor: 4}, Codegen: Codegen{O: 3}, CUDA: CUDAOptions{ClangOptions: []string{"-DSCALE=2.0f", "-iquote", dir}}}
	clangJob := job
	clangJob.Out, clangJob.Format = filepath.Join(dir, "clang.ptx"), FormatISA
	if err := tools.Compile(context.Background(), clangJob); err == nil || !strings.Contains(err.Error(), "__stcs") {
		t.Fatalf("clang compiled code it rejects in practice, or failed otherwise: %v", err)
	}
	job.CUDA.Compiler = CompilerNVCC
	for _, f := range []Format{FormatISA, FormatBin} {
		j := job
		j.Format, j.Out = f, filepath.Join(dir, "k."+string(f))
		if err := tools.Compile(context.Background(), j); err != nil {
			t.Fatalf("nvcc, %s: %v", f, err)
		}
		a, err := artifact.Open(j.Out)
		if err != nil {
			t.Fatal(err)
		}
		if k, err := a.Kernels(); err != nil || len(k) != 1 || k[0] != "scale_finite" {
			t.Errorf("nvcc, %s: kernels %q (%v), want [scale_finite]", f, k, err)
		}
	}

	missing := filepath.Join(dir, "missing.cu")
	if err := os.WriteFile(missing, []byte("#include \"vec/vec.h\"\n__global__ void k() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	j := job
	j.Src, j.Format, j.Out = missing, FormatBin, filepath.Join(dir, "missing.cubin")
	err := tools.Compile(context.Background(), j)
	if err == nil || !strings.Contains(err.Error(), `missing.cu:1: #include "vec/vec.h": no such header`) {
		t.Errorf("a missing header with nvcc: %v", err)
	}
	j = job
	j.Format, j.Out = FormatOffload, filepath.Join(dir, "k.bc")
	if err := tools.Compile(context.Background(), j); err == nil || !strings.Contains(err.Error(), "format offload (LLVM bitcode) needs clang") {
		t.Errorf("offload with nvcc: %v", err)
	}
	j = clangJob
	j.CUDA.NvccOptions = []string{"-lineinfo"}
	if err := tools.Compile(context.Background(), j); err == nil || !strings.Contains(err.Error(), "nvcc options (-lineinfo) apply when nvcc is the compiler") {
		t.Errorf("nvcc options with clang: %v", err)
	}
}

// The tools write their own temporary files (nvcc's tmpxft_PID_..., named after a process ID that
// repeats across PID namespaces) in the job's directory, not in the machine's TMPDIR, which actions
// without a private /tmp share: with TMPDIR a directory that does not exist, nvcc alone fails
// ("Could not open output file '/.../tmpxft_...'"), while the job succeeds for every source kind.
func TestToolsTempInsideTheJob(t *testing.T) {
	tools := findTools(t)
	dir := t.TempDir()
	cu := filepath.Join(dir, "k.cu")
	if err := os.WriteFile(cu, []byte("extern \"C\" __global__ void k(float *x) { x[threadIdx.x] *= 2.0f; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", filepath.Join(dir, "no-such-dir"))
	for _, tc := range []struct {
		name     string
		src      string
		compiler Compiler
	}{
		{"nvcc", cu, CompilerNVCC},
		{"clang", cu, CompilerClang},
		{"mlir", "testdata/saxpy.mlir", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			job := Job{Target: "//t:k", Src: tc.src, Chip: mustChip(t, "sm_80"), Toolkit: chip.Toolkit{Major: 12, Minor: 4},
				Format: FormatBin, Out: filepath.Join(dir, tc.name+".cubin"), CUDA: CUDAOptions{Compiler: tc.compiler}}
			if err := tools.Compile(context.Background(), job); err != nil {
				t.Fatalf("with TMPDIR=%s: %v", os.Getenv("TMPDIR"), err)
			}
			if _, err := os.Stat(os.Getenv("TMPDIR")); !os.IsNotExist(err) {
				t.Errorf("TMPDIR %s was made: %v", os.Getenv("TMPDIR"), err)
			}
		})
	}
}

// A --module pattern that MLIR's module option would read otherwise is refused before any tool runs:
// here no tool is configured at all, and the pattern is what the error names.
func TestModulePatternCheckedFirst(t *testing.T) {
	src := filepath.Join(t.TempDir(), "k.mlir")
	if err := os.WriteFile(src, []byte("module {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := Tools{}.Compile(context.Background(), Job{Target: "//t:k", Src: src, Out: src + ".ll", Format: FormatLLVM, MLIR: MLIROptions{Module: `kernels\d`}})
	if err == nil || !strings.Contains(err.Error(), `--module "kernels\\d"`) || strings.Contains(err.Error(), "mlir-opt") {
		t.Fatalf("error %v, want the pattern refused before mlir-opt is looked for", err)
	}
}

// An #include <omp.h> that the compile cannot find names OpenMP's fix, not a deps.
func TestExplainMissingOpenMP(t *testing.T) {
	dir := t.TempDir()
	src := testtool.WriteFile(t, dir, "omp_user.cu", "#include <cstdio>\n#include <omp.h>\n")
	err := Tools{}.ExplainMissingHeader(&Error{Target: "//t:k", Src: src, Chip: "the host", Err: errors.New("clang exited with status 1"),
		Stderr: src + ":2:10: fatal error: 'omp.h' file not found"})
	for _, want := range []string{"omp_user.cu:2: #include <omp.h>: no such header", "it is OpenMP's: add -fopenmp to host_copts", "libomp-N-dev"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error does not contain %q:\n%v", want, err)
		}
	}
}

// A job's PTX ISA (the rules' ptx_isa) is the .version of the PTX every kind of source compiles to,
// in place of the chip's lowest for the toolkit; one the toolkit's ptxas cannot read is refused.
func TestPipelinePTXISA(t *testing.T) {
	tools := findTools(t)
	tk := chip.Toolkit{Major: 12, Minor: 4}
	for _, src := range []string{"testdata/saxpy.mlir", "testdata/saxpy.cu", "testdata/softplus.ll"} {
		t.Run(filepath.Base(src), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "k.ptx")
			job := Job{Target: "//t:k", Src: src, Out: out, Format: FormatISA, Chip: mustChip(t, "sm_80"), Toolkit: tk,
				PTX: chip.PTX{Major: 8, Minor: 0}, Codegen: Codegen{O: 2}}
			if err := tools.Compile(context.Background(), job); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(data, []byte("\n.version 8.0\n")) {
				t.Errorf("the PTX is not ISA 8.0 (the sm_80 default is 7.0): %s", data[:min(300, len(data))])
			}
		})
	}
	job := Job{Target: "//t:k", Src: "testdata/saxpy.cu", Out: filepath.Join(t.TempDir(), "k.ptx"), Format: FormatISA,
		Chip: mustChip(t, "sm_80"), Toolkit: tk, PTX: chip.PTX{Major: 9, Minor: 0}}
	err := tools.Compile(context.Background(), job)
	if err == nil || !strings.Contains(err.Error(), "9.0") {
		t.Errorf("PTX ISA 9.0 with CUDA 12.4: got %v, want an error naming the ISA", err)
	}
}

// Prepare runs mlir-opt's passes over a program before its GPU lowering: linalg becomes loops; a
// pass mlir-opt does not know fails naming the target, the source and the step, leaving no output.

// A failed tool's error lines come before its command line and the rest of what it printed
// (clang's warning about the CUDA version first, say): what to read is at the top.
func TestErrorFirst(t *testing.T) {
	warn := "clang: warning: CUDA version 12.4 is only partially supported [-Wunknown-cuda-version]"
	for _, tc := range []struct {
		stderr string
		first  string // the line expected right after the first line; "" when none is brought forward
	}{
		{warn + "\nk.cu:3:5: error: use of undeclared identifier 'foo'\n1 error generated.", "k.cu:3:5: error: use of undeclared identifier 'foo'"},
		{"ptxas warning : x\nptxas fatal   : Unresolved extern function 'f'", "ptxas fatal   : Unresolved extern function 'f'"},
		{"k.cu:3:5: error: only this", ""},
		{warn, ""},
	} {
		e := &Error{Target: "//t:k", Src: "k.cu", Chip: "sm_90", Command: []string{"clang", "-c", "k.cu"}, Stderr: tc.stderr, Err: errors.New("clang failed")}
		lines := strings.Split(e.Error(), "\n")
		want := tc.first
		if want == "" {
			want = "command: clang -c k.cu"
		}
		if len(lines) < 2 || lines[1] != want {
			t.Errorf("stderr %q: second line %q, want %q\n%s", tc.stderr, lines[1], want, e.Error())
		}
		if !strings.Contains(e.Error(), tc.stderr) {
			t.Errorf("stderr %q: the tool's whole output is not in the message", tc.stderr)
		}
	}
}
