package host

import (
	"bytes"
	"context"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/chip"
	"github.com/rulesgpu/rules_gpu/tools/fatbin"
	"github.com/rulesgpu/rules_gpu/tools/internal/artifact"
	"github.com/rulesgpu/rules_gpu/tools/internal/compile"
	"github.com/rulesgpu/rules_gpu/tools/internal/testtool"
)

// nvccSource is CUDA C++ written for nvcc, host side included: host max/min, isfinite without
// <cmath>, and kernels of internal linkage, whose names nvcc derives from the source's path.
const nvccSource = `namespace {
__global__ void clamp_all(float *x, float lo, float hi) { x[threadIdx.x] = min(max(x[threadIdx.x], lo), hi); }
}
static __global__ void finite(const float *x, int *n) { if (isfinite(x[threadIdx.x])) atomicAdd(n, 1); }
__global__ void stream_copy(const float *x, float *y) { __stcs(&y[threadIdx.x], x[threadIdx.x]); }
int launch(float *x, float *y, int *n) {
  int threads = min(32, max(1, 64 / 2));
  clamp_all<<<1, threads>>>(x, -1.0f, 1.0f);
  finite<<<1, threads>>>(x, n);
  stream_copy<<<1, threads>>>(x, y);
  return isfinite(float(threads)) ? 0 : 1;
}
`

// registered is the names of kernels a host object of nvcc's registers with the CUDA runtime: the
// strings of its read-only data that are mangled names.
func registered(t *testing.T, obj string) []string {
	t.Helper()
	f, err := elf.Open(obj)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var names []string
	for _, s := range f.Sections {
		if !strings.HasPrefix(s.Name, ".rodata") {
			continue
		}
		data, err := s.Data()
		if err != nil {
			t.Fatal(err)
		}
		for _, str := range bytes.Split(data, []byte{0}) {
			if bytes.HasPrefix(str, []byte("_Z")) {
				names = append(names, string(str))
			}
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// The host side with nvcc: the device side compiled per chip in one directory, the host side in
// another (as two Bazel actions run in two sandboxes), with the source named by the same relative
// path: the host object registers exactly the cubin's kernels, internal-linkage ones included, and
// carries the given fatbin in .nv_fatbin; nvcc -c of the same source registers the same kernels, up
// to the hash of the path in internal names; a program links with the CUDA runtime.
func TestNVCCHost(t *testing.T) {
	tools := deviceTools(t)
	tools.NVCC = testtool.Find(t, "NVCC", "nvcc")
	ctx := context.Background()
	const src = "pkg/k.cu"
	device, hostDir := t.TempDir(), t.TempDir()
	for _, d := range []string{device, hostDir} {
		if err := os.MkdirAll(filepath.Join(d, "pkg"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, src), []byte(nvccSource), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sm80, err := chip.Parse("sm_80")
	if err != nil {
		t.Fatal(err)
	}

	t.Chdir(device)
	job := compile.Job{Target: "//t:k", Src: src, Out: "k.sm_80.cubin", Format: compile.FormatBin, Chip: sm80, Toolkit: chip.Toolkit{Major: 12, Minor: 4}}
	job.CUDA.Compiler = compile.CompilerNVCC
	if err := tools.Compile(ctx, job); err != nil {
		t.Fatal(err)
	}
	img, err := artifact.ReadImage(filepath.Join(device, job.Out), 0)
	if err != nil {
		t.Fatal(err)
	}
	fb, err := artifact.Link([]fatbin.Entry{img}, artifact.LinkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := artifact.Open(filepath.Join(device, job.Out))
	if err != nil {
		t.Fatal(err)
	}
	kernels, err := a.Kernels()
	if err != nil || len(kernels) != 3 {
		t.Fatalf("the cubin's kernels: %q (%v), want 3", kernels, err)
	}
	slices.Sort(kernels)

	t.Chdir(hostDir)
	fbPath := filepath.Join(hostDir, "k.fatbin")
	if err := os.WriteFile(fbPath, fb, 0o644); err != nil {
		t.Fatal(err)
	}
	// nvcc 12.4's front end reads the C++ library of GCC 12, not the build machine's newer one: the
	// build environment's sysroot, as the C++ toolchain's --sysroot gives it in a Bazel action.
	sysroot := "--sysroot=" + testtool.Find(t, "SYSROOT", "/opt/rules_gpu/sysroot")
	hostJob := CUDAJob{Target: "//t:k", Src: src, Out: "k.o", Fatbin: fbPath, O: 2, Compiler: compile.CompilerNVCC, Chip: sm80, HostCompiler: tools.Clang, HostOptions: []string{sysroot}}
	if err := CUDA(ctx, tools, hostJob); err != nil {
		t.Fatal(err)
	}
	if got := registered(t, "k.o"); !slices.Equal(got, kernels) {
		t.Errorf("the host object registers %q, the cubin has %q", got, kernels)
	}
	f, err := elf.Open("k.o")
	if err != nil {
		t.Fatal(err)
	}
	sec := f.Section(".nv_fatbin")
	if sec == nil {
		t.Fatal("the host object has no .nv_fatbin section")
	}
	data, err := sec.Data()
	f.Close()
	if err != nil || !bytes.HasPrefix(data, fb) {
		t.Errorf("the host object's .nv_fatbin is not the fatbin it was given (%d bytes, %v)", len(data), err)
	}

	// nvcc -c alone, in the host directory: the same kernels, its own hash of the absolute path.
	out, err := exec.Command(tools.NVCC, "-c", "-arch=sm_80", "-ccbin", tools.Clang, "-allow-unsupported-compiler", "-Xcompiler", sysroot, "-o", "nvcc.o", src).CombinedOutput()
	if err != nil {
		t.Fatalf("nvcc -c: %v\n%s", err, out)
	}
	hash := regexp.MustCompile(`_GLOBAL__N__[0-9a-f]{8}_`)
	unhash := func(names []string) []string {
		var out []string
		for _, n := range names {
			out = append(out, hash.ReplaceAllString(n, "_GLOBAL__N__HASH_"))
		}
		slices.Sort(out)
		return out
	}
	if got, want := unhash(registered(t, "k.o")), unhash(registered(t, "nvcc.o")); !slices.Equal(got, want) {
		t.Errorf("the host object registers %q, nvcc -c's %q", got, want)
	}

	// The object does not depend on where or by which process it was compiled: again, in a third
	// directory, it is the same bytes.
	again := t.TempDir()
	if err := os.MkdirAll(filepath.Join(again, "pkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(again, src), []byte(nvccSource), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(again)
	if err := CUDA(ctx, tools, hostJob); err != nil {
		t.Fatal(err)
	}
	first, _ := os.ReadFile(filepath.Join(hostDir, "k.o"))
	second, _ := os.ReadFile(filepath.Join(again, "k.o"))
	if !bytes.Equal(first, second) {
		t.Errorf("the host object differs between two compiles of the same source (%d and %d bytes)", len(first), len(second))
	}

	mainC := filepath.Join(hostDir, "main.c")
	if err := os.WriteFile(mainC, []byte("int main(void) { return 0; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cudaProgram(t, hostDir, filepath.Join(hostDir, "k.o"), mainC)
}

// nvcc's host compile refuses what it cannot do before running anything, naming the target and the
// source: no chip, a host option nvcc would split at its commas, a fatbin that is not one.
func TestNVCCHostErrors(t *testing.T) {
	tools := hostTools(t)
	tools.NVCC = testtool.Find(t, "NVCC", "nvcc")
	dir := t.TempDir()
	src := filepath.Join(dir, "k.cu")
	if err := os.WriteFile(src, []byte(nvccSource), 0o644); err != nil {
		t.Fatal(err)
	}
	sm80, _ := chip.Parse("sm_80")
	out := filepath.Join(dir, "k.o")
	base := CUDAJob{Target: "//t:k", Src: src, Out: out, Fatbin: src, O: 2, Compiler: compile.CompilerNVCC, Chip: sm80}
	for _, c := range []struct {
		name, want string
		edit       func(*CUDAJob)
	}{
		{"no chip", "needs the source's lowest chip", func(j *CUDAJob) { j.Chip = chip.Chip{} }},
		{"comma", `host option "-Wl,-z,now" has a comma`, func(j *CUDAJob) { j.HostOptions = []string{"-Wl,-z,now"} }},
		{"not a fatbin", "is not a fatbin", func(j *CUDAJob) {}},
		{"clang with ccbin", "apply when nvcc compiles the host side", func(j *CUDAJob) { j.Compiler, j.HostCompiler = compile.CompilerClang, "g++" }},
	} {
		j := base
		c.edit(&j)
		err := CUDA(context.Background(), tools, j)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "//t:k") || !strings.Contains(err.Error(), src) {
			t.Errorf("%s: %v, want an error naming //t:k, %s and %q", c.name, err, src, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: left %s behind", c.name, out)
		}
	}
}

// Relocatable device code as nvcc makes it, the program of TestRDCProgram: each source a
// relocatable cubin for sm_90, linked by nvlink into one cubin with both kernels; each host object,
// compiled by nvcc -rdc=true, calls one registration (nvcc's module id) and carries no device code;
// gpubuild register's source registers the linked fatbin for all of them, and the program links
// and runs (on a GPU: 2x and 2(2x)+1; without one, it says so).
func TestNVCCRDCProgram(t *testing.T) {
	tools := deviceTools(t)
	tools.NVCC, tools.NVLink = testtool.Find(t, "NVCC", "nvcc"), testtool.Find(t, "NVLINK", "nvlink")
	cc := testtool.Find(t, "CC", "gcc")
	sysroot := "--sysroot=" + testtool.Find(t, "SYSROOT", "/opt/rules_gpu/sysroot")
	dir := writeSources(t)
	ctx := context.Background()
	sm90, err := chip.Parse("sm_90")
	if err != nil {
		t.Fatal(err)
	}
	var cubins, objects []string
	ids := map[string]bool{}
	for _, name := range []string{"twice.cu", "use_twice.cu", "helpers.cu", "main.cu"} {
		src := filepath.Join(dir, name)
		cubin := strings.TrimSuffix(src, ".cu") + ".sm_90.cubin"
		job := compile.Job{Target: "//t:k", Src: src, Out: cubin, Format: compile.FormatBin, Chip: sm90, Toolkit: chip.Toolkit{Major: 12, Minor: 4},
			Codegen: compile.Codegen{O: 2}, CUDA: compile.CUDAOptions{Compiler: compile.CompilerNVCC, RDC: true}}
		if err := tools.Compile(ctx, job); err != nil {
			t.Fatal(err)
		}
		cubins = append(cubins, cubin)
		obj := strings.TrimSuffix(src, ".cu") + ".o"
		if err := CUDA(ctx, tools, CUDAJob{Target: "//t:k", Src: src, Out: obj, RDC: true, O: 2, Compiler: compile.CompilerNVCC, Chip: sm90,
			HostCompiler: tools.Clang, HostOptions: []string{sysroot}}); err != nil {
			t.Fatal(err)
		}
		got, err := ModuleIDs(obj)
		if err != nil || len(got) != 1 || ids[got[0]] {
			t.Errorf("%s: module ids %q (%v), want one of its own", name, got, err)
		} else {
			ids[got[0]] = true
		}
		f, err := elf.Open(obj)
		if err != nil {
			t.Fatal(err)
		}
		for _, sec := range []string{".nv_fatbin", "__nv_relfatbin"} {
			if f.Section(sec) != nil {
				t.Errorf("%s: the host object carries device code of its own (%s)", name, sec)
			}
		}
		f.Close()
		objects = append(objects, obj)
	}
	linked := filepath.Join(dir, "k.sm_90.cubin")
	if err := tools.DeviceLink(ctx, compile.Job{Target: "//t:k", Chip: sm90, Out: linked}, cubins); err != nil {
		t.Fatal(err)
	}
	a, err := artifact.Open(linked)
	if err != nil {
		t.Fatal(err)
	}
	kernels, err := a.Kernels()
	slices.Sort(kernels)
	if err != nil || !slices.Equal(kernels, []string{"_Z2kaPf", "_Z2kbPf"}) {
		t.Errorf("the linked cubin's kernels: %q (%v)", kernels, err)
	}
	var registeredNames []string
	for _, obj := range objects {
		registeredNames = append(registeredNames, registered(t, obj)...)
	}
	slices.Sort(registeredNames)
	if !slices.Equal(registeredNames, kernels) {
		t.Errorf("the host objects register %q, the linked cubin has %q", registeredNames, kernels)
	}
	img, err := artifact.ReadImage(linked, 0)
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
	stubC, stubO := filepath.Join(dir, "register.c"), filepath.Join(dir, "register.o")
	if err := os.WriteFile(stubC, stub.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(cc, "-fPIC", "-Wall", "-Werror", "-c", "-o", stubO, stubC).CombinedOutput(); err != nil {
		t.Fatalf("compiling the registration: %v\n%s", err, out)
	}
	prog := cudaProgram(t, dir, append(objects, stubO)...)
	if out, err := exec.Command(prog).CombinedOutput(); err != nil || string(out) != "5 9 13 17\n" && string(out) != "no GPU\n" {
		t.Errorf("the program: %v\n%s", err, out)
	} else {
		t.Logf("the program: %s", out)
	}
}

// CCCL's kernels, compiled by nvcc once per chip, have the names the host side registers only when
// every compile defines the same __CUDA_ARCH_LIST__ (ArchList): CCCL names its ABI namespace after
// it (CUB_200500_800_900_NS), and a cubin whose kernels are named for its chip alone fails on the
// GPU with cudaErrorSymbolNotFound. Without ArchList the sm_90 cubin's names differ (the hazard).
func TestNVCCArchList(t *testing.T) {
	tools := deviceTools(t)
	tools.NVCC = testtool.Find(t, "NVCC", "nvcc")
	ctx := context.Background()
	const src = "pkg/cccl.cu"
	const text = "#include <cub/util_namespace.cuh>\nCUB_NAMESPACE_BEGIN\n__global__ void fill(int *p) { p[threadIdx.x] = 1; }\nCUB_NAMESPACE_END\n" +
		"void launch(int *p) { cub::fill<<<1, 32>>>(p); }\n"
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "pkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, src), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	chips, err := chip.ParseList("sm_80,sm_90", "chips")
	if err != nil {
		t.Fatal(err)
	}
	sysroot := "--sysroot=" + testtool.Find(t, "SYSROOT", "/opt/rules_gpu/sysroot")
	kernels := func(c chip.Chip, archList []chip.Chip) []string {
		t.Helper()
		job := compile.Job{Target: "//t:cccl", Src: src, Out: "cccl." + c.String() + ".cubin", Format: compile.FormatBin, Chip: c, Toolkit: chip.Toolkit{Major: 12, Minor: 4}}
		job.CUDA.Compiler, job.CUDA.ArchList = compile.CompilerNVCC, archList
		if err := tools.Compile(ctx, job); err != nil {
			t.Fatal(err)
		}
		a, err := artifact.Open(job.Out)
		if err != nil {
			t.Fatal(err)
		}
		k, err := a.Kernels()
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	var fb []fatbin.Entry
	for _, c := range chips {
		if k := kernels(c, chips); len(k) != 1 || !strings.Contains(k[0], "_800_900_NS") {
			t.Fatalf("the %s cubin's kernels: %q, want one in CUB's namespace of 800,900", c, k)
		}
		img, err := artifact.ReadImage(filepath.Join(dir, "cccl."+c.String()+".cubin"), 0)
		if err != nil {
			t.Fatal(err)
		}
		fb = append(fb, img)
	}
	data, err := artifact.Link(fb, artifact.LinkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("cccl.fatbin", data, 0o644); err != nil {
		t.Fatal(err)
	}
	job := CUDAJob{Target: "//t:cccl", Src: src, Out: "cccl.o", Fatbin: "cccl.fatbin", O: 2, Compiler: compile.CompilerNVCC, Chip: chips[0], ArchList: chips,
		HostCompiler: tools.Clang, HostOptions: []string{sysroot}}
	if err := CUDA(ctx, tools, job); err != nil {
		t.Fatal(err)
	}
	want := kernels(chips[1], chips)
	if got := registered(t, "cccl.o"); !slices.Equal(got, want) {
		t.Errorf("the host object registers %q, the cubins have %q", got, want)
	}
	if alone := kernels(chips[1], nil); slices.Equal(alone, want) {
		t.Errorf("without the arch list the sm_90 cubin's kernels are %q, the same: CCCL no longer names its namespace after __CUDA_ARCH_LIST__ (update nvcc.ArchListOptions' doc)", alone)
	}
}
