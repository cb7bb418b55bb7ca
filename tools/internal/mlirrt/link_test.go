package mlirrt

import (
	"bytes"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/internal/host"
	"github.com/rulesgpu/rules_gpu/tools/internal/testtool"
)

// TestLink proves that the package provides every symbol, under the right name, that an MLIR GPU
// program lowered by LLVM 21 calls: it builds the package as a C archive (./archive, the main package of //tools/internal/mlirrt/archive, with the
// cuda tag), lowers testdata/prog2.mlir, testdata/e2e.mlir and testdata/tma.mlir (a TMA load, sm_90a) to objects as rules_gpu's MLIR programs
// are lowered, once per gpu.binary format (fatbin loads through mgpuModuleLoad, isa through mgpuModuleLoadJIT), and
// links the two with clang into an executable. On a machine with an NVIDIA GPU (one listed under
// /proc/driver/nvidia/gpus) it also runs the program and checks what it prints.
func TestLink(t *testing.T) {
	goTool := goModule(t)
	l := findLLVM(t)
	needPtxas(t)
	dir := t.TempDir()
	archive := cArchive(t, goTool, dir)

	const meta = `Unranked Memref base@ = 0x[0-9a-f]+ rank = 1 offset = 0 sizes = \[4\] strides = \[1\]`
	programs := []struct {
		name  string
		chip  string         // the chip it is built for; sm_90 when empty
		calls []string       // runtime functions it must call, besides the module load and mgpuLaunchKernel
		want  *regexp.Regexp // what it prints
	}{
		{name: "prog2", calls: []string{"printMemrefF32"}, want: regexp.MustCompile(`^` + meta + ` data = \n\[0,  1,  2,  3\]\n$`)},
		{name: "e2e", calls: []string{"printMemrefF32"}, want: regexp.MustCompile(`^` + meta + ` data = \n\[110,  111,  112,  113\]\n` + meta + `\n` +
			meta + ` data = \n\[2,  2,  2,  2\]\n10\n$`)},
		{name: "tma", chip: "sm_90a", calls: []string{"mgpuTensorMapEncodeTiledMemref", "printMemrefF32"},
			want: regexp.MustCompile(`^Unranked Memref base@ = 0x[0-9a-f]+ rank = 1 offset = 0 sizes = \[16\] strides = \[1\] data = \n` +
				`\[32,  33,  34,  35,  36,  37,  38,  39,  40,  41,  42,  43,  44,  45,  46,  47\]\n$`)},
	}
	for _, p := range programs {
		for _, format := range []string{"fatbin", "isa"} {
			t.Run(p.name+"/"+format, func(t *testing.T) {
				base := filepath.Join(dir, p.name+"-"+format)
				chip := p.chip
				if chip == "" {
					chip = "sm_90"
				}
				mustRun(t, l.mlirOpt, "testdata/"+p.name+".mlir", `--gpu-lower-to-nvvm-pipeline=cubin-chip=`+chip+` cubin-format=`+format, "-o", base+".mlir")
				l.link(t, base+".mlir", archive, base)

				// Every runtime symbol the object needs is defined in the program, by the archive.
				needs := symbols(t, base+".o", false)
				has := symbols(t, base, true)
				var runtime []string
				for name := range needs {
					if strings.HasPrefix(name, "mgpu") || strings.HasPrefix(name, "print") || strings.HasPrefix(name, "_mlir_ciface_") {
						runtime = append(runtime, name)
						if !has[name] {
							t.Errorf("the program needs %s, which the archive does not define", name)
						}
					}
				}
				load := map[string]string{"fatbin": "mgpuModuleLoad", "isa": "mgpuModuleLoadJIT"}[format]
				for _, call := range append([]string{load, "mgpuLaunchKernel"}, p.calls...) {
					if !needs[call] {
						t.Errorf("the object does not call %s, as this test expects: %v", call, runtime)
					}
				}

				if gpus, _ := os.ReadDir("/proc/driver/nvidia/gpus"); len(gpus) == 0 {
					t.Logf("linked %s; no GPU here to run it", filepath.Base(base))
					return
				}
				cmd := exec.Command(base)
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				// MLIR's main returns void, so the exit status is whatever the last call left: judge
				// the output and the runtime's own errors (a message, exit status 1) instead.
				err := cmd.Run()
				if stderr.Len() > 0 {
					t.Fatalf("%s: %v\n%s", filepath.Base(base), err, stderr.Bytes())
				}
				if !p.want.Match(stdout.Bytes()) {
					t.Errorf("%s printed\n%q", filepath.Base(base), stdout.Bytes())
				}
			})
		}
	}
}

// goModule returns the go tool, or skips the test where go build cannot build ./archive (the
// package's C archive): when it does not run from the Go module (under Bazel, say).
func goModule(t *testing.T) string {
	t.Helper()
	goTool := testtool.Find(t, "GO", "go")
	if mod, err := exec.Command(goTool, "env", "GOMOD").Output(); err != nil || !strings.HasSuffix(strings.TrimSpace(string(mod)), "go.mod") {
		t.Skip("not run from the Go module (under Bazel, say): go build cannot build ./archive here")
	}
	return goTool
}

// cArchive builds the package's C archive (./archive, the cuda tag) into dir with goTool and
// returns its path.
func cArchive(t *testing.T, goTool, dir string) string {
	t.Helper()
	archive := filepath.Join(dir, "libmlirrt.a")
	mustRun(t, goTool, "build", "-tags", "cuda", "-buildmode=c-archive", "-o", archive, "./archive")
	return archive
}

// mustRun runs a tool and returns its standard output; a failure fails the test with the command
// and what the tool printed on its standard error.
func mustRun(t *testing.T, name string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(name, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, stderr.Bytes())
	}
	return out
}

// needPtxas skips the test where mlir-opt cannot build device code: no ptxas on PATH, no CUDA_ROOT.
func needPtxas(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("ptxas"); err != nil && os.Getenv("CUDA_ROOT") == "" {
		t.Skip("no ptxas on PATH and no CUDA_ROOT: mlir-opt cannot build the device code")
	}
}

// symbols returns the names of the undefined symbols of an ELF object, or the defined ones.
func symbols(t *testing.T, path string, defined bool) map[string]bool {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, s := range syms {
		if (s.Section != elf.SHN_UNDEF) == defined && s.Name != "" {
			out[s.Name] = true
		}
	}
	return out
}

// TestLinkAsync proves the same of a program that mixes the async dialect and GPU work,
// examples/mlir/async_execute.mlir: lowered as rules_gpu lowers it (host.AsyncPipeline before the
// GPU pipeline, opt's coroutine split), every mlirAsyncRuntime*, mgpu* and print* symbol its object
// needs is defined by the archive. On a machine with a GPU it also runs it.
func TestLinkAsync(t *testing.T) {
	goTool := goModule(t)
	l := findLLVM(t)
	needPtxas(t)
	dir := t.TempDir()
	run := func(name string, args ...string) []byte { t.Helper(); return mustRun(t, name, args...) }
	archive := cArchive(t, goTool, dir)

	base := filepath.Join(dir, "async_execute")
	// As rules_gpu does, the modules become gpu.binary ops before the host code is lowered (the
	// async lowering checks a kernel launch's operands against its gpu.func).
	run(l.mlirOpt, "../../../examples/mlir/async_execute.mlir", "--pass-pipeline=builtin.module(gpu-kernel-outlining,nvvm-attach-target{chip=sm_90},"+
		"gpu.module(convert-gpu-to-nvvm,reconcile-unrealized-casts),gpu-module-to-binary)", "-o", base+".binary.mlir")
	run(l.mlirOpt, base+".binary.mlir", host.AsyncPipeline, "-o", base+".async.mlir")
	run(l.mlirOpt, base+".async.mlir", host.HostPipeline, "-o", base+".mlir")
	run(l.translate, "--mlir-to-llvmir", base+".mlir", "-o", base+".ll")
	run(l.opt, host.CoroPasses, base+".ll", "-o", base+".bc")
	run(l.llc, "-filetype=obj", "-relocation-model=pic", base+".bc", "-o", base+".o")
	l.linkObject(t, base+".o", archive, base)

	needs := symbols(t, base+".o", false)
	has := symbols(t, base, true)
	for name := range needs {
		if strings.HasPrefix(name, "mlirAsyncRuntime") || strings.HasPrefix(name, "mgpu") || strings.HasPrefix(name, "print") {
			if !has[name] {
				t.Errorf("the program needs %s, which the archive does not define", name)
			}
		}
	}
	for _, want := range []string{"mlirAsyncRuntimeExecute", "mlirAsyncRuntimeAwaitValueAndExecute", "mlirAsyncRuntimeAwaitTokenAndExecute",
		"mlirAsyncRuntimeGetValueStorage", "mgpuLaunchKernel", "mgpuMemAlloc", "mgpuMemcpy", "mgpuMemset32", "mgpuStreamWaitEvent"} {
		if !needs[want] {
			t.Errorf("the object does not call %s, as this test expects", want)
		}
	}
	for name := range needs {
		if strings.HasPrefix(name, "llvm.coro") {
			t.Errorf("the object calls %s: a coroutine left unsplit", name)
		}
	}

	if gpus, _ := os.ReadDir("/proc/driver/nvidia/gpus"); len(gpus) == 0 {
		t.Logf("linked %s; no GPU here to run it", filepath.Base(base))
		return
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(base)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil || stderr.Len() > 0 {
		t.Fatalf("%s: %v\n%s", filepath.Base(base), err, stderr.Bytes())
	}
	want := regexp.MustCompile(`^Unranked Memref base@ = 0x[0-9a-f]+ rank = 1 offset = 0 sizes = \[8\] strides = \[1\] data = \n` +
		`\[1,  3,  5,  7,  9,  11,  13,  15\]\n16\n256\n$`)
	if !want.Match(stdout.Bytes()) {
		t.Errorf("%s printed\n%q", filepath.Base(base), stdout.Bytes())
	}
}
