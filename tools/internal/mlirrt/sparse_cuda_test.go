//go:build cuda

package mlirrt

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/internal/filecheck"
)

// TestSparseLibraryMissing: a library the sparse wrappers need that does not load is one message,
// naming the wrapper, the library, every soname tried and the fix, and exit status 1.
func TestSparseLibraryMissing(t *testing.T) {
	cases := []struct {
		lib, sonames, wrapper string
		want                  []string // in the message
	}{
		{"cusparse", "libcusparse-absent.so.12:libcusparse-absent.so", "mgpuSpMV",
			[]string{"mgpuSpMV needs NVIDIA's cuSPARSE library, which did not load", "libcusparse-absent.so.12 (",
				"libcusparse-absent.so (", "install the CUDA toolkit's cuSPARSE", "LD_LIBRARY_PATH"}},
		{"cusparselt", "libcusparseLt-absent.so.0", "mgpuCusparseLtCreate2To4SpMat",
			[]string{"mgpuCusparseLtCreate2To4SpMat needs NVIDIA's cuSPARSELt library, which did not load",
				"libcusparseLt-absent.so.0 (", "install NVIDIA's cuSPARSELt", "LD_LIBRARY_PATH"}},
	}
	if c := os.Getenv("MLIRRT_SPARSE_CASE"); c != "" {
		for _, tc := range cases {
			if tc.lib == c {
				checkSparseLibrary(tc.lib, tc.sonames, tc.wrapper)
			}
		}
		os.Exit(0) // not reached: the library does not load
	}
	for _, tc := range cases {
		t.Run(tc.lib, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestSparseLibraryMissing$")
			cmd.Env = append(os.Environ(), "MLIRRT_SPARSE_CASE="+tc.lib)
			out, err := cmd.CombinedOutput()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
				t.Fatalf("exit: %v, want status 1\n%s", err, out)
			}
			msg := string(out)
			if !strings.HasPrefix(msg, "mlirrt: ") || strings.Count(msg, "\n") != 1 {
				t.Errorf("want one line starting mlirrt:, got\n%s", msg)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("the message lacks %q:\n%s", w, msg)
				}
			}
		})
	}
}

// TestSparseLibraryLoads: cuSPARSE loads from the runtime's sonames and has every function the
// wrappers call, except those of other versions (cuSPARSE 12 no longer has the COO AoS format's).
// The build environment has CUDA 12's libcusparse.so.12; this needs no GPU.
func TestSparseLibraryLoads(t *testing.T) {
	if lib := os.Getenv("MLIRRT_SPARSE_LOADS"); lib != "" {
		found, missing := checkSparseLibrary(lib, "", "TestSparseLibraryLoads")
		os.Stdout.WriteString(strings.Join(append([]string{strings.Repeat("x", found)}, missing...), " "))
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSparseLibraryLoads$")
	cmd.Env = append(os.Environ(), "MLIRRT_SPARSE_LOADS=cusparse")
	out, err := cmd.CombinedOutput()
	if strings.Contains(string(out), "did not load") {
		t.Skipf("no cuSPARSE here:\n%s", out)
	}
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	fields := strings.Fields(string(out))
	found, missing := len(fields[0]), fields[1:]
	if strings.Join(missing, " ") != "cusparseCreateCooAoS" {
		t.Errorf("cuSPARSE lacks %v; want only cusparseCreateCooAoS (removed in CUDA 12) missing", missing)
	}
	if found < 25 {
		t.Errorf("%d functions resolved; the wrappers call at least 25", found)
	}
}

// sparseLibraryMissing says why library lib does not load here, in a child process (a library that
// does not load ends the process); "" when it does.
func sparseLibraryMissing(lib string) string {
	cmd := exec.Command(os.Args[0], "-test.run=^TestSparseLibraryLoads$")
	cmd.Env = append(os.Environ(), "MLIRRT_SPARSE_LOADS="+lib)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return strings.TrimSpace(string(out))
	}
	return ""
}

// TestSparseLink lowers programs that use the gpu dialect's sparse ops as rules_gpu's MLIR programs
// are lowered, links them with the runtime's C archive, and checks that the archive defines every
// mgpu* function they call, that the 2:4 handles the lowering allocates are the sizes the wrappers
// lay out, and that the program does not link cuSPARSE (the runtime loads it). On a machine with an
// NVIDIA GPU it also runs examples/mlir/spmv.mlir and, where cuSPARSELt loads, examples/mlir/spmm_2to4.mlir,
// and checks what they print against their CHECK lines.
func TestSparseLink(t *testing.T) {
	goTool := goModule(t)
	l := findLLVM(t)
	needPtxas(t)
	dir := t.TempDir()
	archive := cArchive(t, goTool, dir)
	spmat, dnmat := sparseLtSizes()

	programs := []struct {
		src   string
		calls []string // among the wrappers it needs
		run   string   // the library it needs to run ("" for none: link only)
	}{
		{"testdata/sparse_ops.mlir", []string{"mgpuCreateSparseEnv", "mgpuCreateCoo", "mgpuCreateCooAoS", "mgpuCreateCsr",
			"mgpuCreateCsc", "mgpuCreateBsr", "mgpuSpMV", "mgpuSpMM", "mgpuSDDMM", "mgpuSpGEMMWorkEstimation",
			"mgpuSpGEMMCompute", "mgpuSpGEMMCopy", "mgpuSpMatGetSize", "mgpuSetCsrPointers", "mgpuCreateSparseLtEnv",
			"mgpuCusparseLtCreate2To4SpMat", "mgpuCuSparseLtSpMMBufferSize", "mgpuCuSparseLtSpMM"}, ""},
		{"../../../examples/mlir/spmv.mlir", []string{"mgpuCreateCsr", "mgpuCreateCoo", "mgpuSpMV", "mgpuSpMM"}, "cusparse"},
		{"../../../examples/mlir/spmm_2to4.mlir", []string{"mgpuCusparseLtCreate2To4SpMat", "mgpuCuSparseLtSpMM"}, "cusparselt"},
	}
	for _, p := range programs {
		name := strings.TrimSuffix(filepath.Base(p.src), ".mlir")
		t.Run(name, func(t *testing.T) {
			base := filepath.Join(dir, name)
			mustRun(t, l.mlirOpt, p.src, "--gpu-lower-to-nvvm-pipeline=cubin-chip=sm_90 cubin-format=fatbin", "-o", base+".mlir")
			l.link(t, base+".mlir", archive, base)

			needs, has := symbols(t, base+".o", false), symbols(t, base, true)
			for sym := range needs {
				if strings.HasPrefix(sym, "mgpu") && !has[sym] {
					t.Errorf("the program needs %s, which the archive does not define", sym)
				}
			}
			for _, c := range p.calls {
				if !needs[c] {
					t.Errorf("the program does not call %s, as this test expects", c)
				}
			}
			ll, err := os.ReadFile(base + ".ll")
			if err != nil {
				t.Fatal(err)
			}
			allocas := regexp.MustCompile(`alloca i8, i64 (\d+), align 16\n\s+call void @(mgpu\w+)`).FindAllSubmatch(ll, -1)
			if needs["mgpuCusparseLtCreate2To4SpMat"] && len(allocas) < 2 {
				t.Errorf("found %d stack handles before 2:4 calls in the lowered program; want 2", len(allocas))
			}
			for _, m := range allocas {
				want := map[string]int{"mgpuCusparseLtCreate2To4SpMat": spmat, "mgpuCreateCuSparseLtDnMat": dnmat}[string(m[2])]
				if string(m[1]) != strconv.Itoa(want) {
					t.Errorf("the lowering gives %s a %s-byte handle; the runtime lays out %d bytes", m[2], m[1], want)
				}
			}
			f, err := elf.Open(base)
			if err != nil {
				t.Fatal(err)
			}
			libs, err := f.ImportedLibraries()
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			for _, lib := range libs {
				if strings.Contains(strings.ToLower(lib), "cusparse") {
					t.Errorf("the program links %s; the runtime must load it itself", lib)
				}
			}
			if p.run == "" {
				return
			}
			if gpus, _ := os.ReadDir("/proc/driver/nvidia/gpus"); len(gpus) == 0 {
				t.Logf("linked %s; no GPU here to run it", name)
				return
			}
			if why := sparseLibraryMissing(p.run); why != "" {
				t.Skipf("linked %s; cannot run it here: %s", name, why)
			}
			out, err := exec.Command(base).CombinedOutput()
			if err != nil || strings.Contains(string(out), "mlirrt:") {
				t.Fatalf("%s: %v\n%s", name, err, out)
			}
			src, err := os.ReadFile(p.src)
			if err != nil {
				t.Fatal(err)
			}
			checks, err := filecheck.Parse(p.src, src, filecheck.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := checks.Match(name, out); err != nil {
				t.Errorf("%s printed\n%s\n%v", name, out, err)
			}
		})
	}
}
