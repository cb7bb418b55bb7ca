package compile

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/chip"
	"github.com/rulesgpu/rules_gpu/tools/internal/artifact"
)

// rdcSources are CUDA C++ sources whose device code uses what another source defines: twice.cu
// defines the __device__ function twice (and a kernel), use_twice.cu only declares it; scale.cu
// defines the __device__ variable scale, use_scale.cu declares it; helpers.cu holds only a
// __device__ function, no kernel.
var rdcSources = map[string]string{
	"twice.cu":     "__device__ float twice(float x) { return 2 * x; }\n__global__ void ka(float *x) { x[threadIdx.x] = twice(x[threadIdx.x]); }\n",
	"use_twice.cu": "extern __device__ float twice(float x);\n__global__ void kb(float *x) { x[threadIdx.x] = twice(x[threadIdx.x]) + 1; }\n",
	"scale.cu":     "__device__ float scale = 2;\n",
	"use_scale.cu": "extern __device__ float scale;\n__global__ void kv(float *x) { x[threadIdx.x] *= scale; }\n",
	"helpers.cu":   "__device__ float thrice(float x) { return 3 * x; }\n",
}

// writeRDCSources writes rdcSources into a new directory and returns it.
func writeRDCSources(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range rdcSources {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Relocatable device code: each source becomes LLVM bitcode for the chip (a source with no kernel
// too), and the sources' bitcode, linked, becomes a cubin and PTX with every kernel.
func TestRDC(t *testing.T) {
	tools := findTools(t)
	dir := writeRDCSources(t)
	sm90 := mustChip(t, "sm_90")
	tk := chip.Toolkit{Major: 12, Minor: 4}
	bc := map[string]string{}
	for name := range rdcSources {
		out := filepath.Join(dir, strings.TrimSuffix(name, ".cu")+".sm_90.bc")
		job := Job{Target: "//t:k", Src: filepath.Join(dir, name), Out: out, Format: FormatOffload, Chip: sm90, Toolkit: tk, Codegen: Codegen{O: 3}, CUDA: CUDAOptions{RDC: true}}
		if err := tools.Compile(context.Background(), job); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(data, []byte("BC\xc0\xde")) {
			t.Errorf("%s: the output is not LLVM bitcode: %q", name, data[:min(8, len(data))])
		}
		bc[name] = out
	}
	for _, tc := range []struct {
		srcs    []string
		kernels []string
	}{
		{[]string{"use_twice.cu", "twice.cu"}, []string{"_Z2kaPf", "_Z2kbPf"}},
		{[]string{"use_scale.cu", "scale.cu", "helpers.cu"}, []string{"_Z2kvPf"}},
	} {
		for _, format := range []Format{FormatBin, FormatISA} {
			job := Job{Target: "//t:k", Src: bc[tc.srcs[0]], Out: filepath.Join(t.TempDir(), "k"), Format: format, Chip: sm90, Toolkit: tk, Codegen: Codegen{O: 3}}
			for _, s := range tc.srcs[1:] {
				job.LLVM.Link = append(job.LLVM.Link, bc[s])
			}
			if err := tools.Compile(context.Background(), job); err != nil {
				t.Fatalf("%s linked, %s: %v", tc.srcs, format, err)
			}
			a, err := artifact.Open(job.Out)
			if err != nil {
				t.Fatal(err)
			}
			if k, err := a.Kernels(); err != nil || !slices.Equal(k, tc.kernels) {
				t.Errorf("%s linked, %s: kernels %q (%v), want %q", tc.srcs, format, k, err, tc.kernels)
			}
		}
	}
}

// A __device__ function or variable that the module uses and no source of it defines fails ptxas
// (for a variable ptxas only warns, and makes it a zeroed one of the module's own): the error names
// it, keeps ptxas's command and message, and says how to link the source that defines it; nothing
// is left behind.
func TestUnresolvedExtern(t *testing.T) {
	tools := findTools(t)
	dir := writeRDCSources(t)
	sm90 := mustChip(t, "sm_90")
	tk := chip.Toolkit{Major: 12, Minor: 4}
	byHand := tools
	byHand.Missing = func(tool, path string) string { return tool }
	rdc := func(name string) string {
		out := filepath.Join(t.TempDir(), name+".bc")
		if err := tools.Compile(context.Background(), Job{Src: filepath.Join(dir, name), Out: out, Format: FormatOffload, Chip: sm90, Toolkit: tk, CUDA: CUDAOptions{RDC: true}}); err != nil {
			t.Fatal(err)
		}
		return out
	}
	isa := func(name string) string {
		out := filepath.Join(t.TempDir(), name+".ptx")
		if err := tools.Compile(context.Background(), Job{Src: filepath.Join(dir, name), Out: out, Format: FormatISA, Chip: sm90, Toolkit: tk}); err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		tools Tools
		job   Job
		want  []string
	}{
		// A fatbin's cubin is its PTX through ptxas: the CUDA C++ origin still leads to rdc.
		{"PTX of CUDA C++", tools, Job{Src: isa("use_twice.cu"), Origin: "use_twice.cu"},
			[]string{"compiling use_twice.cu for sm_90", `"_Z5twicef"`, "set rdc = True on the target"}},
		{"function", tools, Job{Src: filepath.Join(dir, "use_twice.cu")},
			[]string{`uses the __device__ function "_Z5twicef", which no source of this module defines`, "set rdc = True on the target",
				"ptxas fatal   : Unresolved extern function '_Z5twicef'", "command: " + tools.Ptxas}},
		{"variable", tools, Job{Src: filepath.Join(dir, "use_scale.cu")},
			[]string{`uses the __device__ variable "scale"`, "set rdc = True", "Unresolved extern variable 'scale'", "command: " + tools.Ptxas}},
		{"by hand", byHand, Job{Src: filepath.Join(dir, "use_twice.cu")},
			[]string{`"_Z5twicef"`, "compile each source with gpubuild compile --rdc --format offload, then their bitcode together"}},
		{"nvcc", tools, Job{Src: filepath.Join(dir, "use_twice.cu"), CUDA: CUDAOptions{Compiler: CompilerNVCC}},
			[]string{`"_Z5twicef"`, "define it in this source, or, when another source of the target defines it, set rdc = True on the target"}},
		{"nvcc by hand", byHand, Job{Src: filepath.Join(dir, "use_twice.cu"), CUDA: CUDAOptions{Compiler: CompilerNVCC}},
			[]string{`"_Z5twicef"`, "compile each source with gpubuild compile --compiler nvcc --rdc (a relocatable cubin), then the cubins together with gpubuild dlink"}},
		{"linked", tools, Job{Src: rdc("use_twice.cu"), Origin: "use_twice.cu, helpers.cu", LLVM: LLVMOptions{Link: []string{rdc("helpers.cu")}}},
			[]string{"compiling use_twice.cu, helpers.cu for sm_90", `"_Z5twicef"`, "define it in one of the sources"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			outDir := t.TempDir()
			job := tc.job
			job.Target, job.Out, job.Format, job.Chip, job.Toolkit = "//t:k", filepath.Join(outDir, "k.cubin"), FormatBin, sm90, tk
			err := tc.tools.Compile(context.Background(), job)
			if err == nil {
				t.Fatal("compiled")
			}
			for _, want := range append([]string{"//t:k: ", "sm_90"}, tc.want...) {
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

// What relocatable device code and linked sources cannot be is refused before any tool is looked
// for (no tool is configured here).
func TestRDCRefused(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		job  Job
		want string
	}{
		{"nvcc offload", Job{Src: "k.cu", Format: FormatOffload, CUDA: CUDAOptions{Compiler: CompilerNVCC, RDC: true}}, "rdc with nvcc links each chip's relocatable cubins with nvlink, and the linked module is a cubin only: format offload needs"},
		{"nvcc isa", Job{Src: "k.cu", Format: FormatISA, CUDA: CUDAOptions{Compiler: CompilerNVCC, RDC: true}}, "format isa needs its PTX or bitcode"},
		{"format bin", Job{Src: "k.cu", Format: FormatBin, CUDA: CUDAOptions{RDC: true}}, "relocatable device code (RDC) becomes LLVM bitcode (format offload) to link with the other sources' bitcode for the chip, not bin"},
		{"LLVM IR", Job{Src: "k.ll", Format: FormatOffload, CUDA: CUDAOptions{RDC: true}}, "relocatable device code (RDC) is compiled from CUDA C++ sources; LLVM IR modules link as they are"},
		{"MLIR", Job{Src: "k.mlir", Format: FormatOffload, CUDA: CUDAOptions{RDC: true}}, "rdc links CUDA C++ and LLVM IR sources, and k.mlir is MLIR: give it a module of its own, without rdc"},
		{"link CUDA C++", Job{Src: "k.cu", Format: FormatBin, LLVM: LLVMOptions{Link: []string{"b.bc"}}}, "only LLVM IR sources (.ll, .bc) link into one module; k.cu is a cuda source"},
		{"link PTX", Job{Src: "k.bc", Format: FormatBin, LLVM: LLVMOptions{Link: []string{"b.bc", "c.ptx"}}}, "compiling k.bc, b.bc, c.ptx for sm_90: only LLVM IR sources (.ll, .bc) link into one module; c.ptx is not LLVM IR"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			job := tc.job
			job.Target, job.Out, job.Chip, job.Toolkit = "//t:k", filepath.Join(dir, "out"), mustChip(t, "sm_90"), chip.Toolkit{Major: 12, Minor: 4}
			err := Tools{}.Compile(context.Background(), job)
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "configured") {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// Linking sources needs llvm-link, which is checked before any tool runs.
func TestLinkNeedsLLVMLink(t *testing.T) {
	err := Tools{Opt: "/bin/sh", Llc: "/bin/sh", Ptxas: "/bin/sh"}.Compile(context.Background(), Job{Target: "//t:k", Src: "a.bc",
		Out: filepath.Join(t.TempDir(), "k.cubin"), Format: FormatBin, Chip: mustChip(t, "sm_90"), Toolkit: chip.Toolkit{Major: 12, Minor: 4}, LLVM: LLVMOptions{Link: []string{"b.ll"}}})
	if err == nil || !strings.Contains(err.Error(), "compiling a.bc, b.ll for sm_90: no llvm-link configured") {
		t.Errorf("error %v", err)
	}
}

// Relocatable device code as nvcc makes it: each source a relocatable cubin for the chip (ptxas -c;
// one with no kernel too), and the chip's cubins linked by nvlink into one that the driver loads,
// with every kernel; the device link refuses what nvlink cannot link, before it runs, and names
// what no source defines.
func TestDeviceLink(t *testing.T) {
	tools := findTools(t)
	dir := writeRDCSources(t)
	sm90, sm80 := mustChip(t, "sm_90"), mustChip(t, "sm_80")
	tk := chip.Toolkit{Major: 12, Minor: 4}
	cubin := func(name string, c chip.Chip) string {
		out := filepath.Join(dir, strings.TrimSuffix(name, ".cu")+"."+c.String()+".cubin")
		job := Job{Target: "//t:k", Src: filepath.Join(dir, name), Out: out, Format: FormatBin, Chip: c, Toolkit: tk, Codegen: Codegen{O: 3},
			CUDA: CUDAOptions{Compiler: CompilerNVCC, RDC: true}}
		if err := tools.Compile(context.Background(), job); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) < 0x12 || data[0x10] != elfRelocatable {
			t.Fatalf("%s: not a relocatable cubin", name)
		}
		return out
	}
	var all []string
	for _, name := range []string{"twice.cu", "use_twice.cu", "scale.cu", "use_scale.cu", "helpers.cu"} {
		all = append(all, cubin(name, sm90))
	}
	out := filepath.Join(dir, "k.sm_90.cubin")
	if err := tools.DeviceLink(context.Background(), Job{Target: "//t:k", Chip: sm90, Out: out}, all); err != nil {
		t.Fatal(err)
	}
	a, err := artifact.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	kernels, err := a.Kernels()
	slices.Sort(kernels)
	if want := []string{"_Z2kaPf", "_Z2kbPf", "_Z2kvPf"}; err != nil || !slices.Equal(kernels, want) {
		t.Errorf("the linked cubin's kernels: %q (%v), want %q", kernels, err, want)
	}
	if data, _ := os.ReadFile(out); data[0x10] != elfExecutable {
		t.Errorf("the linked cubin is not executable (ELF type %d)", data[0x10])
	}

	for _, tc := range []struct {
		name   string
		cubins []string
		want   []string
	}{
		{"undefined", []string{all[1]}, []string{`nvlink: the device code uses the __device__ function or variable "_Z5twicef", which no source of this module defines; fix: define it in one of the sources`,
			"Undefined reference to '_Z5twicef'", "command: " + tools.NVLink}},
		{"linked already", []string{all[0], out}, []string{out + " is a cubin linked already (ELF type 2, not relocatable)"}},
		{"another chip", []string{all[0], cubin("use_twice.cu", sm80)}, []string{"use_twice.sm_80.cubin is for sm_80, not sm_90: link the cubins of one chip together"}},
		{"not a cubin", []string{filepath.Join(dir, "twice.cu")}, []string{"twice.cu: cubin: not an ELF file; a device link takes the relocatable cubins"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			outDir := t.TempDir()
			err := tools.DeviceLink(context.Background(), Job{Target: "//t:k", Chip: sm90, Out: filepath.Join(outDir, "k.cubin"), Origin: "a.cu, b.cu"}, tc.cubins)
			if err == nil {
				t.Fatal("linked")
			}
			for _, want := range append([]string{"//t:k: compiling a.cu, b.cu for sm_90: "}, tc.want...) {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error does not contain %q:\n%v", want, err)
				}
			}
			if entries, _ := os.ReadDir(outDir); len(entries) != 0 {
				t.Errorf("left %d files behind", len(entries))
			}
		})
	}
}
