package host

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/chip"
	"github.com/rulesgpu/rules_gpu/tools/fatbin"
	"github.com/rulesgpu/rules_gpu/tools/internal/artifact"
	"github.com/rulesgpu/rules_gpu/tools/internal/compile"
	"github.com/rulesgpu/rules_gpu/tools/internal/testtool"
)

// hostTools finds clang and the CUDA toolkit root: from the environment (set by the Bazel test to
// runfiles paths) or under the build environment's names (env/env.sh run go test ./...).
func hostTools(t *testing.T) compile.Tools {
	t.Helper()
	return compile.Tools{Clang: testtool.LLVM(t, "clang"), CUDAPath: testtool.Find(t, "CUDA_PATH", "/usr/lib/cuda")}
}

// deviceTools adds the tools of the device pipeline.
func deviceTools(t *testing.T) compile.Tools {
	t.Helper()
	tools := hostTools(t)
	tools.Ptxas, tools.Llc, tools.Opt = testtool.Find(t, "PTXAS", "ptxas"), testtool.LLVM(t, "llc"), testtool.LLVM(t, "opt")
	tools.LLVMLink = testtool.LLVM(t, "llvm-link")
	tools.Libdevice = testtool.Find(t, "LIBDEVICE", "/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc")
	return tools
}

// sources are a program's CUDA C++ sources: twice.cu defines the __device__ function twice and
// a kernel, use_twice.cu a kernel that calls twice, helpers.cu only a __device__ function, and
// main.cu launches both kernels.
var sources = map[string]string{
	"twice.cu":     "__device__ float twice(float x) { return 2 * x; }\n__global__ void ka(float *x) { x[threadIdx.x] = twice(x[threadIdx.x]); }\n",
	"use_twice.cu": "extern __device__ float twice(float x);\n__global__ void kb(float *x) { x[threadIdx.x] = twice(x[threadIdx.x]) + 1; }\n",
	"helpers.cu":   "__device__ float thrice(float x) { return 3 * x; }\n",
	"main.cu": `#include <cstdio>
__global__ void ka(float *x);
__global__ void kb(float *x);
int main() {
  float *x, h[4] = {1, 2, 3, 4};
  if (cudaMalloc(&x, sizeof h) != cudaSuccess) {
    printf("no GPU\n");
    return 0;
  }
  cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
  ka<<<1, 4>>>(x);
  kb<<<1, 4>>>(x);
  cudaMemcpy(h, x, sizeof h, cudaMemcpyDeviceToHost);
  printf("%g %g %g %g\n", h[0], h[1], h[2], h[3]);
  return 0;
}
`,
}

// writeSources writes sources into a new directory and returns it.
func writeSources(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range sources {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// cudaProgram links objects into a program with the CUDA runtime, and returns its path.
func cudaProgram(t *testing.T, dir string, objects ...string) string {
	t.Helper()
	cxx := testtool.Find(t, "CXX", "g++")
	cudart := testtool.Find(t, "CUDART_STATIC", "/usr/lib/x86_64-linux-gnu/libcudart_static.a")
	prog := filepath.Join(dir, "prog")
	args := append(append([]string{"-o", prog}, objects...), cudart, "-ldl", "-lpthread", "-lrt")
	if out, err := exec.Command(cxx, args...).CombinedOutput(); err != nil {
		t.Fatalf("linking the program: %v\n%s %s\n%s", err, cxx, strings.Join(args, " "), out)
	}
	return prog
}

// The sources of relocatable device code: each one's device code as bitcode, linked for sm_90 into
// a fatbin; each one's host object (helpers.cu's too, though it defines nothing the host sees)
// calls its registration; gpubuild register's C source compiles as C and as C++ with every warning
// an error and links them into a program, which cuobjdump sees the cubin in.
func TestRDCProgram(t *testing.T) {
	tools := deviceTools(t)
	cc := testtool.Find(t, "CC", "gcc")
	dir := writeSources(t)
	ctx := context.Background()
	sm90, err := chip.Parse("sm_90")
	if err != nil {
		t.Fatal(err)
	}
	var bitcode, objects []string
	for _, name := range []string{"twice.cu", "use_twice.cu", "helpers.cu", "main.cu"} {
		src := filepath.Join(dir, name)
		bc := strings.TrimSuffix(src, ".cu") + ".sm_90.bc"
		if err := tools.Compile(ctx, compile.Job{Target: "//t:k", Src: src, Out: bc, Format: compile.FormatOffload, Chip: sm90,
			Toolkit: chip.Toolkit{Major: 12, Minor: 4}, Codegen: compile.Codegen{O: 2}, CUDA: compile.CUDAOptions{RDC: true}}); err != nil {
			t.Fatal(err)
		}
		bitcode = append(bitcode, bc)
		obj := strings.TrimSuffix(src, ".cu") + ".o"
		if err := CUDA(ctx, tools, CUDAJob{Target: "//t:k", Src: src, Out: obj, RDC: true, O: 2}); err != nil {
			t.Fatal(err)
		}
		if ids, err := ModuleIDs(obj); err != nil || len(ids) != 1 || !strings.HasPrefix(ids[0], "__nv_") {
			t.Errorf("%s: module ids %q (%v), want one __nv_ id", name, ids, err)
		}
		objects = append(objects, obj)
	}
	cubin := filepath.Join(dir, "k.sm_90.cubin")
	if err := tools.Compile(ctx, compile.Job{Target: "//t:k", Src: bitcode[0], Out: cubin, Format: compile.FormatBin, Chip: sm90,
		Toolkit: chip.Toolkit{Major: 12, Minor: 4}, Codegen: compile.Codegen{O: 2}, LLVM: compile.LLVMOptions{Link: bitcode[1:]}}); err != nil {
		t.Fatal(err)
	}
	img, err := artifact.ReadImage(cubin, 0)
	if err != nil {
		t.Fatal(err)
	}
	fb, err := artifact.Link([]fatbin.Entry{img}, artifact.LinkOptions{})
	if err != nil {
		t.Fatal(err)
	}

	var stub bytes.Buffer
	if err := Register(&stub, "//t:k", fb, objects); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(stub.String(), "\nvoid __cudaRegisterLinkedBinary__nv_"); n != 4 || !strings.Contains(stub.String(), "== 4) {") {
		t.Errorf("the registration defines %d functions, want 4 and a count of 4:\n%s", n, stub.String())
	}
	stubC := filepath.Join(dir, "register.c")
	if err := os.WriteFile(stubC, stub.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	stubO := filepath.Join(dir, "register.o")
	for _, lang := range []string{"c++", "c"} { // the C object last: it is the one linked
		args := []string{"-x", lang, "-fPIC", "-Wall", "-Wextra", "-Werror", "-c", "-o", stubO, stubC}
		if out, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
			t.Fatalf("compiling the registration as %s: %v\n%s", lang, err, out)
		}
	}
	prog := cudaProgram(t, dir, append(objects, stubO)...)
	// It runs: on a GPU that sm_90 code runs on, ka and kb compute 2x and 2(2x)+1; elsewhere the
	// registration at start-up still succeeds, and the program says it found no GPU.
	if out, err := exec.Command(prog).CombinedOutput(); err != nil || string(out) != "5 9 13 17\n" && string(out) != "no GPU\n" {
		t.Errorf("the program: %v\n%s", err, out)
	} else {
		t.Logf("the program: %s", out)
	}
	if cuobjdump, err := exec.LookPath("cuobjdump"); err == nil {
		out, err := exec.Command(cuobjdump, "--list-elf", prog).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "sm_90") {
			t.Errorf("cuobjdump --list-elf of the program: %v\n%s", err, out)
		}
	}

	// Registering an object twice is refused: its module id comes twice.
	if err := Register(&stub, "//t:k", fb, []string{objects[0], objects[1], objects[0]}); err == nil ||
		!strings.Contains(err.Error(), objects[0]+" and "+objects[0]+" have the same module id __nv_") {
		t.Errorf("an object twice: %v", err)
	}
}

// Without relocatable device code the host object embeds the source's own fatbin, calls no
// registration, and links into a program alone; registering it is refused.
func TestFatbinProgram(t *testing.T) {
	tools := deviceTools(t)
	dir := writeSources(t)
	ctx := context.Background()
	src := filepath.Join(dir, "twice.cu")
	sm90, err := chip.Parse("sm_90")
	if err != nil {
		t.Fatal(err)
	}
	cubin := filepath.Join(dir, "twice.sm_90.cubin")
	if err := tools.Compile(ctx, compile.Job{Target: "//t:k", Src: src, Out: cubin, Format: compile.FormatBin, Chip: sm90, Toolkit: chip.Toolkit{Major: 12, Minor: 4}}); err != nil {
		t.Fatal(err)
	}
	img, err := artifact.ReadImage(cubin, 0)
	if err != nil {
		t.Fatal(err)
	}
	fb, err := artifact.Link([]fatbin.Entry{img}, artifact.LinkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fbPath := filepath.Join(dir, "twice.fatbin")
	if err := os.WriteFile(fbPath, fb, 0o644); err != nil {
		t.Fatal(err)
	}
	obj := filepath.Join(dir, "twice.o")
	if err := CUDA(ctx, tools, CUDAJob{Target: "//t:k", Src: src, Out: obj, Fatbin: fbPath, O: 2}); err != nil {
		t.Fatal(err)
	}
	if ids, err := ModuleIDs(obj); err != nil || len(ids) != 0 {
		t.Errorf("module ids %q (%v), want none", ids, err)
	}
	data, _ := os.ReadFile(obj)
	if !bytes.Contains(data, fb) {
		t.Error("the object does not embed the fatbin")
	}
	mainC := filepath.Join(dir, "main.c")
	if err := os.WriteFile(mainC, []byte("int main(void) { return 0; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cudaProgram(t, dir, obj, mainC)
	if err := Register(&bytes.Buffer{}, "//t:k", fb, []string{obj}); err == nil || !strings.Contains(err.Error(), obj+" was not compiled with relocatable device code") {
		t.Errorf("registering an object with its own fatbin: %v", err)
	}
}

// Failures name the target, the source and "the host", keep clang's command and message, and leave
// the output as it was; a missing header is explained as compile explains it; a missing clang is
// named as the toolchain's.
func TestHostErrors(t *testing.T) {
	tools := hostTools(t)
	dir := t.TempDir()
	write := func(name, text string) string { return testtool.WriteFile(t, dir, name, text) }
	ok := write("ok.cu", "__global__ void k() {}\n")
	byHand := tools
	byHand.Missing = func(tool, path string) string { return "no " + tool + "; pass --" + tool }
	for _, tc := range []struct {
		name  string
		tools compile.Tools
		job   CUDAJob
		want  []string
	}{
		{"syntax error", tools, CUDAJob{Src: write("bad.cu", "void f() { int x = ; }\n"), RDC: true},
			[]string{"clang: ", "exited with status 1", "command: " + tools.Clang + " -x cuda --cuda-host-only", "expected expression"}},
		{"missing header", tools, CUDAJob{Src: write("uses.cu", "#include \"project/vec.h\"\n__global__ void k() {}\n"), RDC: true},
			[]string{"uses.cu:1: #include \"project/vec.h\": no such header", "fix: add the target that provides it to deps"}},
		{"missing header, by hand", byHand, CUDAJob{Src: filepath.Join(dir, "uses.cu"), RDC: true},
			[]string{"fix: pass the directory that holds it with -I DIR"}},
		{"no clang", compile.Tools{}, CUDAJob{Src: ok, RDC: true}, []string{"no clang configured; the LLVM toolchain"}},
		{"no clang, by hand", compile.Tools{Missing: byHand.Missing}, CUDAJob{Src: ok, RDC: true}, []string{"no clang; pass --clang"}},
		{"no fatbin", tools, CUDAJob{Src: ok, Fatbin: filepath.Join(dir, "missing.fatbin")}, []string{"the source's fatbin: ", "missing.fatbin"}},
		{"fatbin and RDC", tools, CUDAJob{Src: ok, Fatbin: ok, RDC: true}, []string{"give the source's fatbin, or compile it as relocatable device code (RDC), not both or neither"}},
		{"neither", tools, CUDAJob{Src: ok}, []string{"not both or neither"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			outDir := t.TempDir()
			out := filepath.Join(outDir, "k.o")
			if err := os.WriteFile(out, []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}
			job := tc.job
			job.Target, job.Out = "//t:k", out
			err := CUDA(context.Background(), tc.tools, job)
			if err == nil {
				t.Fatal("compiled")
			}
			for _, want := range append([]string{"//t:k: compiling " + job.Src + " for the host: "}, tc.want...) {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error does not contain %q:\n%v", want, err)
				}
			}
			if got, _ := os.ReadFile(out); string(got) != "old" {
				t.Errorf("the output holds %q", got)
			}
			if entries, _ := os.ReadDir(outDir); len(entries) != 1 {
				t.Errorf("left beside the output: %v", entries)
			}
		})
	}
}

// The preprocessor options and the host options reach clang, in that order, after rules_gpu's.
func TestHostOptions(t *testing.T) {
	tools := hostTools(t)
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "inc"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "inc", "n.h"), []byte("#define N M\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(dir, "k.cu")
	if err := os.WriteFile(src, []byte("#include \"n.h\"\nint n() { return N; }\n#ifndef HOST\n#error HOST\n#endif\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "k.o")
	var stdout bytes.Buffer
	job := CUDAJob{Target: "//t:k", Src: src, Out: "-", Stdout: &stdout, RDC: true, ClangOptions: []string{"-I", filepath.Join(dir, "inc"), "-DM=7"}, HostOptions: []string{"-DHOST"}}
	if err := CUDA(context.Background(), tools, job); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, stdout.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	ids, err := ModuleIDs(out)
	if err != nil || len(ids) != 1 {
		t.Errorf("module ids %q (%v)", ids, err)
	}
	if !slices.Contains(job.HostOptions, "-DHOST") {
		t.Fatal("unreachable")
	}
}
