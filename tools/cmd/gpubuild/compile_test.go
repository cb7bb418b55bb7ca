package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/internal/atomicfile/atomicfiletest"
	"github.com/rulesgpu/rules_gpu/tools/internal/testtool"
	"github.com/rulesgpu/rules_gpu/tools/internal/toolfind"
)

// fakePTX is what the fake llc writes.
const fakePTX = ".version 7.8\n.target sm_90\n.address_size 64\n.visible .entry k() { ret; }\n"

// fakeTool is a shell script standing in for a tool of the pipeline: it records its arguments, one
// per line, in DIR/NAME.args, and writes output to the file after -o. As ptxas, it answers
// --version as CUDA 12.4's does.
func fakeTool(t *testing.T, dir, name, output string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	script := "#!/bin/sh\n" +
		"if [ \"$1\" = --version ]; then echo 'Cuda compilation tools, release 12.4, V12.4.131'; exit 0; fi\n" +
		"printf '%s\\n' \"$@\" > '" + p + ".args'\n" +
		"out=; prev=\nfor a in \"$@\"; do [ \"$prev\" = -o ] && out=$a; prev=$a; done\n" +
		"printf '%s' '" + output + "' > \"$out\"\n"
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// fakeMachine makes a CUDA toolkit and an LLVM of fake tools and points $CUDA_PATH and $LLVM_PATH
// at them, so that compile, run without tool flags, finds them first. It returns the directory of
// each tool's .args file, and the root.
func fakeMachine(t *testing.T) (cudaBin, llvmBin string) {
	t.Helper()
	root := t.TempDir()
	cudaBin, llvmBin = filepath.Join(root, "cuda", "bin"), filepath.Join(root, "llvm", "bin")
	fakeTool(t, cudaBin, "ptxas", "not a cubin")
	lib := filepath.Join(root, "cuda", "nvvm", "libdevice", "libdevice.10.bc")
	if err := os.MkdirAll(filepath.Dir(lib), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lib, []byte("BC"), 0o644); err != nil {
		t.Fatal(err)
	}
	fakeTool(t, llvmBin, "llc", fakePTX)
	fakeTool(t, llvmBin, "opt", "; optimised\n")
	fakeTool(t, llvmBin, "llvm-link", "; linked\n")
	fakeTool(t, llvmBin, "clang", fakePTX) // CUDA C++ compiles to PTX in clang alone
	fakeTool(t, llvmBin, "mlir-opt", "")
	fakeTool(t, llvmBin, "mlir-translate", "")
	t.Setenv("CUDA_PATH", filepath.Join(root, "cuda"))
	t.Setenv("LLVM_PATH", filepath.Join(root, "llvm"))
	return cudaBin, llvmBin
}

// writeSource writes a source file into a new directory and returns its path.
func writeSource(t *testing.T, name, text string) string {
	t.Helper()
	return testtool.WriteFile(t, t.TempDir(), name, text)
}

// toolArgs reads the arguments a fake tool was run with.
func toolArgs(t *testing.T, bin, name string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(bin, name+".args"))
	if err != nil {
		t.Fatalf("%s did not run: %v", name, err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// By hand, compile needs no tool flag: it finds the tools as the toolchains do, and reads the CUDA
// version from ptxas to choose the PTX ISA (7.8 is sm_90's oldest, with CUDA 12.4). Flags may
// follow the source; -O3 is -O 3.
func TestCompileAlone(t *testing.T) {
	_, llvmBin := fakeMachine(t)
	src := writeSource(t, "k.ll", "define void @k() { ret void }\n")
	out := filepath.Join(t.TempDir(), "k.ptx")
	code, stdout, stderr := gpubuild(t, "compile", src, "--chip", "sm_90", "--format", "isa", "-O3", "-o", out)
	if code != 0 || stdout != "" || stderr != "" {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	if got, _ := os.ReadFile(out); string(got) != fakePTX {
		t.Errorf("the output holds %q", got)
	}
	clang := strings.Join(toolArgs(t, llvmBin, "clang"), " ")
	if !strings.HasPrefix(clang, "-cc1 -triple nvptx64-nvidia-cuda -target-cpu sm_90 -target-feature +ptx78 -O3 -S -x ir "+src) {
		t.Errorf("clang ran with %s", clang)
	}
	if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) != 1 {
		t.Errorf("left beside the output: %v", entries)
	}
}

// Explicit tool flags override what is found; --out is -o.
func TestCompileExplicitTool(t *testing.T) {
	_, llvmBin := fakeMachine(t)
	mine := t.TempDir()
	src := writeSource(t, "k.ll", "define void @k() { ret void }\n")
	out := filepath.Join(t.TempDir(), "k.ptx")
	for _, tool := range []struct{ name, flag string }{{"clang", ""}, {"llc", "--ftz"}} { // --ftz takes opt and llc
		mineTool := fakeTool(t, mine, "my-"+tool.name, fakePTX)
		args := []string{"compile", "--" + tool.name, mineTool, "--chip", "sm_90", "--format", "isa", "--out", out, src}
		if tool.flag != "" {
			args = append(args, tool.flag)
		}
		if code, _, stderr := gpubuild(t, args...); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		toolArgs(t, mine, "my-"+tool.name)
		if _, err := os.Stat(filepath.Join(llvmBin, tool.name+".args")); err == nil {
			t.Errorf("the %s found ran, not the one --%s names", tool.name, tool.name)
		}
	}
}

// -I, -D, -include, -std= and the rest go to clang, as clang spells them, in order, after
// rules_gpu's own options (--clang-resource-dir's -resource-dir among them); for other sources
// they are a usage error.
func TestCompileClangOptions(t *testing.T) {
	_, llvmBin := fakeMachine(t)
	src := writeSource(t, "k.cu", "__global__ void k() {}\n")
	out := filepath.Join(t.TempDir(), "k.ptx")
	user := []string{"-I", "inc", "-Iinc2", "-DFOO=1", "-D", "BAR", "-include", "pre.h", "-isystem", "/sys", "-iquote", "q",
		"-std=c++17", "--clang-opt=-Wall", "-UBAZ"}
	args := append([]string{"compile", src, "--chip", "sm_90", "--format", "isa", "--clang-resource-dir", "res", "-o", out}, user...)
	if code, _, stderr := gpubuild(t, args...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	user[len(user)-2] = "-Wall"
	got := toolArgs(t, llvmBin, "clang")
	if tail := strings.Join(got[max(0, len(got)-len(user)):], " "); tail != strings.Join(user, " ") {
		t.Errorf("clang ran with %q; want it to end with %q", got, user)
	}
	if all := strings.Join(got, " "); !strings.Contains(all, "--cuda-gpu-arch=sm_90") || !strings.Contains(all, " -resource-dir res ") {
		t.Errorf("clang ran with %q", got)
	}

	ll := writeSource(t, "k.ll", "define void @k() { ret void }\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-I", "inc"}, "-I applies to CUDA C++ (.cu) sources only; " + ll + " is LLVM IR"},
		{[]string{"-DX"}, "-D applies to CUDA C++ (.cu) sources only"},
		{[]string{"--clang-opt", "-Wall"}, "--clang-opt applies to CUDA C++ (.cu) sources only"},
	} {
		code, _, stderr := gpubuild(t, append([]string{"compile", "--chip", "sm_90", "-o", out, ll}, tc.args...)...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit %d, stderr:\n%s\nwant 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
}

// By hand, a missing tool's error says where compile looked and which flag or variable provides
// it; in a Bazel action (--target), it names the toolchain, and compile looks for nothing.
func TestCompileMissingTools(t *testing.T) {
	src := writeSource(t, "k.ll", "define void @k() { ret void }\n")
	out := filepath.Join(t.TempDir(), "k.cubin")
	t.Run("flag names no file", func(t *testing.T) {
		fakeMachine(t)
		code, _, stderr := gpubuild(t, "compile", "--chip", "sm_90", "--clang", "/nonexistent/clang", "-o", out, src)
		if want := "clang: /nonexistent/clang not found (--clang names it)"; code != 1 || !strings.Contains(stderr, want) {
			t.Errorf("exit %d, stderr:\n%s\nwant 1 and %q", code, stderr, want)
		}
		code, _, stderr = gpubuild(t, "compile", "--chip", "sm_90", "--ftz", "--llc", "/nonexistent/llc", "-o", out, src)
		if want := "llc: /nonexistent/llc not found (--llc names it)"; code != 1 || !strings.Contains(stderr, want) {
			t.Errorf("--ftz: exit %d, stderr:\n%s\nwant 1 and %q", code, stderr, want)
		}
	})
	t.Run("--ptxas names no file", func(t *testing.T) {
		fakeMachine(t)
		code, _, stderr := gpubuild(t, "compile", "--chip", "sm_90", "--ptxas", "/nonexistent/ptxas", "-o", out, src)
		if want := "ptxas: /nonexistent/ptxas not found (--ptxas names it)"; code != 1 || !strings.Contains(stderr, want) {
			t.Errorf("exit %d, stderr:\n%s\nwant 1 and %q", code, stderr, want)
		}
	})
	t.Run("Bazel action", func(t *testing.T) {
		fakeMachine(t) // there, but not to be used
		code, _, stderr := gpubuild(t, "compile", "--target", "//p:k", "--toolkit", "12.4", "--chip", "sm_90", "-o", out, src)
		want := "//p:k: compiling " + src + " for sm_90: no opt configured; the LLVM toolchain (@rules_gpu//toolchain:llvm_toolchain_type"
		if code != 1 || !strings.Contains(stderr, want) {
			t.Errorf("exit %d, stderr:\n%s\nwant 1 and %q", code, stderr, want)
		}
	})
	// CUDA_PATH and LLVM_PATH set to a directory without the tools: an error naming the variable,
	// never another toolkit found elsewhere.
	t.Run("CUDA_PATH and LLVM_PATH without the tools", func(t *testing.T) {
		empty := t.TempDir()
		t.Setenv("CUDA_PATH", empty)
		t.Setenv("LLVM_PATH", empty)
		code, _, stderr := gpubuild(t, "compile", "--chip", "sm_90", "-o", out, src)
		want := "gpubuild compile: cannot choose the PTX ISA: no CUDA version given (--toolkit 12.4, or the ISA itself: --ptx 8.4), and none to read from ptxas --version: " +
			"no ptxas: CUDA_PATH is " + empty + ", and " + empty + "/bin has no ptxas: CUDA_PATH names the root of the installation (the directory above bin/), and discovery looks nowhere else while it is set; set it to that root, or unset it to search /usr/local/cuda/bin and /usr/bin; or pass --ptxas PATH\n"
		if code != 1 || !strings.Contains(stderr, want) {
			t.Errorf("exit %d, stderr:\n%s\nwant 1 and %q", code, stderr, want)
		}
		// --chips takes the version the same way, and has no --ptx to give instead.
		mlirSrc := writeSource(t, "k.mlir", "gpu.module @k {}\n")
		code, _, stderr = gpubuild(t, "compile", "--chips", "sm_80,sm_90", "--format", "isa", "-o", t.TempDir(), mlirSrc)
		want = "gpubuild compile: cannot choose the PTX ISA: no CUDA version given (--toolkit 12.4), and none to read from ptxas --version: no ptxas: CUDA_PATH is " + empty
		if code != 1 || !strings.Contains(stderr, want) {
			t.Errorf("--chips: exit %d, stderr:\n%s\nwant 1 and %q", code, stderr, want)
		}
		code, _, stderr = gpubuild(t, "compile", "--chip", "sm_90", "--toolkit", "12.4", "-o", out, src)
		want = "compiling " + src + " for sm_90: no opt: LLVM_PATH is " + empty + ", and " + empty + "/bin has no llc and mlir-opt: "
		if code != 1 || !strings.Contains(stderr, want) || !strings.Contains(stderr, "or pass --opt PATH") {
			t.Errorf("exit %d, stderr:\n%s\nwant 1 and %q", code, stderr, want)
		}
	})
}

// --trace appends one JSON line per compilation: the helper's time and each tool's.
func TestCompileTrace(t *testing.T) {
	fakeMachine(t)
	src := writeSource(t, "k.ll", "define void @k() { ret void }\n")
	dir := t.TempDir()
	trace := filepath.Join(dir, "trace.jsonl")
	for range 2 {
		if code, _, stderr := gpubuild(t, "compile", "--chip", "sm_90", "--format", "isa", "--trace", trace, "-o", filepath.Join(dir, "k.ptx"), src); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
	}
	data, _ := os.ReadFile(trace)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	var rec struct {
		Target string  `json:"target"`
		Chip   string  `json:"chip"`
		Stages [][]any `json:"stages_ms"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &rec); len(lines) != 2 || err != nil || rec.Chip != "sm_90" || len(rec.Stages) != 1 || rec.Stages[0][0] != "clang" {
		t.Errorf("trace %q: %v %+v", data, err, rec)
	}
}

// On a machine with the CUDA toolkit and LLVM (the build environment), a CUDA C++ source compiles
// as a new user would compile it: gpubuild compile --chip sm_90 -o k.cubin k.cu.
func TestCompileRealTools(t *testing.T) {
	if (toolfind.Machine{}).FindCUDA("").Ptxas == "" || (toolfind.Machine{}).FindLLVM().Bin == "" {
		t.Skip("no CUDA toolkit and LLVM with MLIR here: run in the build environment (env/env.sh run go test ./...)")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "k.cu")
	if err := os.WriteFile(src, []byte("__global__ void twice(float *x) { x[threadIdx.x] *= 2; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "k.cubin")
	code, stdout, stderr := gpubuild(t, "compile", "--chip", "sm_90", "-o", out, src)
	if code != 0 || stdout != "" || stderr != "" {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	if code, stdout, _ := gpubuild(t, "inspect", out); code != 0 || !strings.Contains(stdout, "elf   sm_90") {
		t.Errorf("inspect: %d\n%s", code, stdout)
	}
	// Into every kind of output: the cubin of the source's PTX (ptxas alone, which is quick).
	ptx := filepath.Join(dir, "k.ptx")
	if code, _, stderr := gpubuild(t, "compile", "--chip", "sm_90", "--format", "isa", "-o", ptx, src); code != 0 {
		t.Fatal(stderr)
	}
	if code, _, stderr := gpubuild(t, "compile", "--chip", "sm_90", "-o", out, ptx); code != 0 {
		t.Fatal(stderr)
	}
	want, _ := os.ReadFile(out)
	for _, k := range atomicfiletest.Kinds() {
		t.Run(k.Name, func(t *testing.T) {
			o := k.New(t)
			code, stdout, stderr := gpubuild(t, "compile", ptx, "--chip", "sm_90", "-o", o.Path)
			if got := o.Done(t); code != 0 || !o.Discards && !bytes.Equal(got, want) {
				t.Errorf("exit %d, %d bytes written (want %d)\nstdout: %s\nstderr: %s", code, len(got), len(want), stdout, stderr)
			}
		})
	}
	// And with an include directory and a macro.
	if err := os.MkdirAll(filepath.Join(dir, "inc"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "inc", "scale.h"), []byte("#define SCALE FACTOR\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src2 := filepath.Join(dir, "k2.cu")
	if err := os.WriteFile(src2, []byte("#include \"scale.h\"\n__global__ void scale(float *x) { x[threadIdx.x] *= SCALE; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = gpubuild(t, "compile", src2, "-I", filepath.Join(dir, "inc"), "-DFACTOR=3.0f", "--chip", "sm_90", "--format", "isa", "-o", "-")
	if code != 0 || !strings.Contains(stdout, ".entry _Z5scalePf") || !strings.Contains(stdout, "0f40400000") {
		t.Errorf("with -I and -D: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
}

// By hand, on a machine with the toolkit and LLVM: a PCH of clang's CUDA headers (--format pch,
// no SRC) that a compile of the same chip loads (--pch) without a word, making the same cubin;
// what cannot make or load one is a usage error.
func TestCompilePCH(t *testing.T) {
	if (toolfind.Machine{}).FindCUDA("").Ptxas == "" || (toolfind.Machine{}).FindLLVM().Bin == "" {
		t.Skip("no CUDA toolkit and LLVM with MLIR here: run in the build environment (env/env.sh run go test ./...)")
	}
	dir := t.TempDir()
	src := writeSource(t, "k.cu", "#include <cmath>\n__global__ void k(float *x) { x[threadIdx.x] = std::sqrt(x[threadIdx.x]); }\n")
	pch, headers := filepath.Join(dir, "sm_90.pch"), filepath.Join(dir, "sm_90.pch.headers")
	if code, stdout, stderr := gpubuild(t, "compile", "--format", "pch", "--chip", "sm_90", "--pch-headers", headers, "-o", pch); code != 0 || stdout+stderr != "" {
		t.Fatalf("--format pch: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	with, without := filepath.Join(dir, "with.cubin"), filepath.Join(dir, "without.cubin")
	if code, stdout, stderr := gpubuild(t, "compile", "--chip", "sm_90", "--pch", pch, "--pch-headers", headers, "-o", with, src); code != 0 || stdout+stderr != "" {
		t.Fatalf("--pch: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	if code, _, stderr := gpubuild(t, "compile", "--chip", "sm_90", "-o", without, src); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	a, _ := os.ReadFile(with)
	b, _ := os.ReadFile(without)
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Errorf("the cubin with the PCH (%d bytes) is not the cubin without it (%d bytes)", len(a), len(b))
	}
	out := filepath.Join(dir, "no.ptx")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--format", "pch", "--chip", "sm_90", "--pch-headers", headers, "-o", out, src}, "--format pch takes no SRC"},
		{[]string{"--format", "isa", "--chips", "sm_80,sm_90", "--pch", pch, "-o", dir, src}, "--pch and --pch-headers are for CUDA C++ compiles, not --chips"},
		{[]string{"--chip", "sm_90", "--pch", pch, "--pch-headers", headers, "-DX=1", "-o", out, src}, "clang option -DX=1"},
		{[]string{"--chip", "sm_90", "--pch", pch, "-o", out, src}, "needs the list of the headers in it (--pch-headers)"},
	} {
		code, _, stderr := gpubuild(t, append([]string{"compile"}, tc.args...)...)
		if code == 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit %d, stderr:\n%s\nwant an error saying %q", tc.args, code, stderr, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%q: %s written", tc.args, out)
		}
	}
}
