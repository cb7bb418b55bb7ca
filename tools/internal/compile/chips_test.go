package compile

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/chip"
	"github.com/rulesgpu/rules_gpu/tools/internal/artifact"
	"github.com/rulesgpu/rules_gpu/tools/internal/testtool"
)

// ptxCode is PTX less its comments and blank lines: LLVM's back end in clang prints comments that
// MLIR's serializer leaves out; the code is the same.
func ptxCode(ptx []byte) string {
	var lines []string
	for _, l := range strings.Split(string(ptx), "\n") {
		l = regexp.MustCompile(`\s*//.*`).ReplaceAllString(l, "")
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

// twoModules is a kernel source with two top-level gpu.modules, for --module.
const twoModules = `gpu.module @a {
  gpu.func @fa(%x: memref<4xf32>) kernel { %c0 = arith.constant 0 : index
    %v = memref.load %x[%c0] : memref<4xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %x[%c0] : memref<4xf32>
    gpu.return }
}
gpu.module @b {
  gpu.func @fb(%x: memref<4xf32>) kernel { %c0 = arith.constant 0 : index
    %v = memref.load %x[%c0] : memref<4xf32>
    %w = math.sqrt %v : f32
    memref.store %w, %x[%c0] : memref<4xf32>
    gpu.return }
}
`

// Every chip's PTX from one mlir-opt is the code that each chip's own compile makes (clang's back
// end, one process per chip), for a source as it is (saxpy, reduce), one whose gpu.launch is
// outlined (launch) and a module picked out of two (the lowering first), at every level.
func TestLowerToPTX(t *testing.T) {
	tools := findTools(t)
	// MLIR's serializer links libdevice from $CUDA_ROOT too: one that is not bitcode would fail it.
	// The toolkit's (Tools.Libdevice) must be the one linked, whatever the environment says.
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "nvvm", "libdevice"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "nvvm", "libdevice", "libdevice.10.bc"), []byte("not bitcode"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CUDA_ROOT", root)
	tk := chip.Toolkit{Major: 12, Minor: 4}
	two := filepath.Join(t.TempDir(), "two.mlir")
	if err := os.WriteFile(two, []byte(twoModules), 0o644); err != nil {
		t.Fatal(err)
	}
	chips := []chip.Chip{mustChip(t, "sm_75"), mustChip(t, "sm_80"), mustChip(t, "sm_90")}
	for _, tc := range []struct {
		src, module string
		o           int
		stem        string // the files' names: STEM.CHIP.ptx, or CHIP.ptx
	}{
		{"testdata/saxpy.mlir", "", 3, ""},
		{"testdata/reduce.mlir", "", 2, "reduce"},
		{"testdata/launch.mlir", "", 1, ""},
		{two, "^b$", 3, "two_b"},
		{two, "a", 0, ""},
	} {
		t.Run(fmt.Sprintf("%s/%s/O%d", filepath.Base(tc.src), tc.module, tc.o), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "ptx")
			job := Job{Target: "//t:k", Src: tc.src, Toolkit: tk, Codegen: Codegen{O: tc.o}, MLIR: MLIROptions{Module: tc.module}}
			if err := tools.LowerToPTX(context.Background(), job, chips, dir, tc.stem, false); err != nil {
				t.Fatal(err)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != len(chips) {
				t.Errorf("%s holds %d entries, want one per chip (%d)", dir, len(entries), len(chips))
			}
			for _, c := range chips {
				name := c.String() + ".ptx"
				if tc.stem != "" {
					name = tc.stem + "." + name
				}
				got, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil {
					t.Fatal(err)
				}
				one := job
				one.Chip, one.Format, one.Out = c, FormatISA, filepath.Join(t.TempDir(), "k.ptx")
				if err := tools.Compile(context.Background(), one); err != nil {
					t.Fatal(err)
				}
				want, _ := os.ReadFile(one.Out)
				if ptxCode(got) != ptxCode(want) {
					t.Errorf("%s: the PTX differs from the chip's own compile:\n%s\n---\n%s", c, got, want)
				}
			}
		})
	}
}

// An architecture-specific chip reaches MLIR's target and ptxas as it is named: a program's sm_90a
// PTX targets sm_90a at its lowest PTX ISA (8.0, which wgmma needs), and ptxas makes an sm_90a cubin
// of it; for sm_90, MLIR refuses the warpgroup MMA. The program's nvgpu ops (a TMA descriptor that
// its gpu.launch captures, a warpgroup MMA) are lowered as MLIR's own pipeline lowers them.
func TestLowerToPTXArchSpecific(t *testing.T) {
	tools := findTools(t)
	tk := chip.Toolkit{Major: 12, Minor: 4}
	job := Job{Target: "//t:wgmma", Src: "testdata/wgmma.mlir", Toolkit: tk, Codegen: Codegen{O: 3}}

	sm90a := mustChip(t, "sm_90a")
	dir := filepath.Join(t.TempDir(), "modules")
	if err := tools.LowerToPTX(context.Background(), job, []chip.Chip{sm90a}, dir, "", true); err != nil {
		t.Fatal(err)
	}
	module := filepath.Join(dir, "sm_90a.ptx", "main_kernel.ptx")
	ptx, err := os.ReadFile(module)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\n.version 8.0\n", "\n.target sm_90a\n", "wgmma.mma_async"} {
		if !strings.Contains(string(ptx), want) {
			t.Errorf("%s lacks %q", module, want)
		}
	}
	bin := job
	bin.Src, bin.Chip, bin.Format, bin.Out = module, sm90a, FormatBin, filepath.Join(t.TempDir(), "k.cubin")
	if err := tools.Compile(context.Background(), bin); err != nil {
		t.Fatal(err)
	}
	img, err := artifact.Open(bin.Out)
	if err != nil {
		t.Fatal(err)
	}
	if img.Format != artifact.FormatCubin || img.Images[0].ArchName() != "sm_90a" {
		t.Errorf("%s: a %s of %s, want an sm_90a cubin", bin.Out, img.Format, img.Images[0].ArchName())
	}

	err = tools.LowerToPTX(context.Background(), job, []chip.Chip{mustChip(t, "sm_90")}, filepath.Join(t.TempDir(), "sm_90"), "", true)
	if want := "'nvvm.wgmma.fence.aligned' op is not supported on sm_90"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("sm_90: err = %v, want MLIR's %q", err, want)
	}
}

// A program's modules (outlined ones included) each get a file per chip, the code of
// LowerProgram's LLVM IR compiled for the chip.
func TestLowerToPTXProgram(t *testing.T) {
	tools := findTools(t)
	tk := chip.Toolkit{Major: 12, Minor: 4}
	chips := []chip.Chip{mustChip(t, "sm_80"), mustChip(t, "sm_90")}
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "modules")
	job := Job{Target: "//t:prog", Src: "testdata/program.mlir", Toolkit: tk, Codegen: Codegen{O: 3}}
	if err := tools.LowerToPTX(context.Background(), job, chips, dir, "", true); err != nil {
		t.Fatal(err)
	}
	ll := job
	ll.Out = filepath.Join(tmp, "ll")
	names, err := tools.LowerProgram(context.Background(), ll)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range chips {
		want := job
		want.Src, want.Chip, want.Format, want.Out = ll.Out, c, FormatISA, filepath.Join(tmp, "want."+c.String())
		if err := tools.CompileProgram(context.Background(), want); err != nil {
			t.Fatal(err)
		}
		entries, _ := os.ReadDir(filepath.Join(dir, c.String()+".ptx"))
		if len(entries) != len(names) {
			t.Errorf("%s: %d files, want one per module (%v)", c, len(entries), names)
		}
		for _, n := range names {
			got, err := os.ReadFile(filepath.Join(dir, c.String()+".ptx", n+".ptx"))
			if err != nil {
				t.Fatal(err)
			}
			w, _ := os.ReadFile(filepath.Join(want.Out, n+".ptx"))
			if ptxCode(got) != ptxCode(w) {
				t.Errorf("%s @%s: the PTX differs from the module's own compile", c, n)
			}
		}
	}
}

// Bad input fails with one message that names the target, the file and the chips, and leaves no
// chip's file behind.
func TestLowerToPTXErrors(t *testing.T) {
	tools := findTools(t)
	tk := chip.Toolkit{Major: 12, Minor: 4}
	tmp := t.TempDir()
	write := func(name, text string) string { return testtool.WriteFile(t, tmp, name, text) }
	noKernel := write("nokernel.mlir", "gpu.module @k {\n  gpu.func @f() { gpu.return }\n}\n")
	bad := write("bad.mlir", "gpu.module @k {\n  gpu.func @f() kernel { %x = arith.addf }\n}\n")
	two := write("two.mlir", twoModules)
	sm80, sm90 := mustChip(t, "sm_80"), mustChip(t, "sm_90")
	for _, tc := range []struct {
		name    string
		tools   Tools
		src     string
		module  string
		chips   []chip.Chip
		program bool
		want    string
	}{
		{"no kernel", tools, noKernel, "", []chip.Chip{sm80, sm90}, false, "//t:k: compiling " + noKernel + " for sm_80: the module defines no kernel"},
		{"mlir-opt fails", tools, bad, "", []chip.Chip{sm80, sm90}, false, "//t:k: compiling " + bad + " for sm_80, sm_90: lower to PTX: mlir-opt"},
		{"no module matches", tools, two, "^c$", []chip.Chip{sm80}, false, `no gpu.module matches --module "^c$" (the source has @a, @b)`},
		{"two modules match", tools, two, "", []chip.Chip{sm80}, false, `2 gpu.modules match --module ""`},
		{"a chip twice", tools, "testdata/saxpy.mlir", "", []chip.Chip{sm80, sm80}, false, "sm_80 is listed twice"},
		{"a virtual chip", tools, "testdata/saxpy.mlir", "", []chip.Chip{mustChip(t, "compute_80")}, false, "compute_80 is a virtual chip (PTX); name real chips, such as sm_80"},
		{"a module of a program", tools, "testdata/program.mlir", "zeta", []chip.Chip{sm80}, true, "--module selects a module of a kernel source, not of a program"},
		{"ftz", tools, "testdata/saxpy.mlir", "", []chip.Chip{sm80}, false, "fast math and ftz reach the code through opt and llc"},
		{"no mlir-opt", Tools{}, "testdata/saxpy.mlir", "", []chip.Chip{sm80}, false, "no mlir-opt configured"},
		{"a program with a stem", tools, "testdata/program.mlir", "", []chip.Chip{sm80}, true, "a program's modules name their PTX files: no stem"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "ptx")
			job := Job{Target: "//t:k", Src: tc.src, Toolkit: tk, Codegen: Codegen{O: 3, FTZ: tc.name == "ftz"}, MLIR: MLIROptions{Module: tc.module}}
			stem := ""
			if tc.name == "a program with a stem" {
				stem = "p"
			}
			err := tc.tools.LowerToPTX(context.Background(), job, tc.chips, dir, stem, tc.program)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one containing %q", err, tc.want)
			}
			if entries, _ := os.ReadDir(dir); len(entries) > 0 {
				t.Errorf("%s holds %d entries after the failure, want none", dir, len(entries))
			}
		})
	}
}

// A program with no kernels of its own that uses the GPU all the same (allocations, copies,
// library calls: the sparsifier's cuSPARSE ops) has no modules: each chip's directory is empty, and
// LowerProgram names none. One with no GPU code at all is an error (TestLowerProgramErrors).
func TestLowerToPTXNoKernels(t *testing.T) {
	tools := findTools(t)
	src := testtool.WriteFile(t, t.TempDir(), "alloc.mlir", `func.func @main() {
  %c4 = arith.constant 4 : index
  %t0 = gpu.wait async
  %m, %t1 = gpu.alloc async [%t0] (%c4) : memref<?xf32>
  %t2 = gpu.dealloc async [%t1] %m : memref<?xf32>
  gpu.wait [%t2]
  return
}
`)
	chips := []chip.Chip{mustChip(t, "sm_80"), mustChip(t, "sm_90")}
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "modules")
	job := Job{Target: "//t:prog", Src: src, Toolkit: chip.Toolkit{Major: 12, Minor: 4}}
	if err := tools.LowerToPTX(context.Background(), job, chips, dir, "", true); err != nil {
		t.Fatal(err)
	}
	for _, c := range chips {
		if entries, err := os.ReadDir(filepath.Join(dir, c.String()+".ptx")); err != nil || len(entries) != 0 {
			t.Errorf("%s: %v, %v; want an empty directory", c, entries, err)
		}
	}
	ll := job
	ll.Out = filepath.Join(tmp, "ll")
	if names, err := tools.LowerProgram(context.Background(), ll); err != nil || len(names) != 0 {
		t.Errorf("LowerProgram: %q, %v; want no modules", names, err)
	}
	// Each chip's (empty) directory compiles to an empty directory of cubins.
	bin := job
	bin.Src, bin.Chip, bin.Format, bin.Out = filepath.Join(dir, "sm_90.ptx"), chips[1], FormatBin, filepath.Join(tmp, "sm_90.cubin")
	if err := tools.CompileProgram(context.Background(), bin); err != nil {
		t.Fatal(err)
	}
	if entries, err := os.ReadDir(bin.Out); err != nil || len(entries) != 0 {
		t.Errorf("CompileProgram: %v, %v; want an empty directory", entries, err)
	}
}
