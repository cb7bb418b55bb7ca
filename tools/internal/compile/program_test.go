package compile

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
	"github.com/rulesgpu/rules_gpu/tools/internal/artifact"
	"github.com/rulesgpu/rules_gpu/tools/internal/testtool"
	"github.com/rulesgpu/rules_gpu/tools/mlir"
)

// programTools finds the tools that an MLIR program's build runs (no CUDA C++ front end): from the
// environment (runfiles paths under Bazel) or on PATH (env/env.sh run go test ./...).
func programTools(t *testing.T) Tools {
	t.Helper()
	find := func(env, name string) string { return testtool.Find(t, env, name) }
	return Tools{
		MLIROpt: testtool.LLVM(t, "mlir-opt"), MLIRTranslate: testtool.LLVM(t, "mlir-translate"),
		Opt: testtool.LLVM(t, "opt"), Llc: testtool.LLVM(t, "llc"), Ptxas: find("PTXAS", "ptxas"),
	}
}

// lowerTools are the tools of LowerProgram and Host alone.
func lowerTools(t *testing.T) Tools {
	t.Helper()
	return Tools{
		MLIROpt:       testtool.LLVM(t, "mlir-opt"),
		MLIRTranslate: testtool.LLVM(t, "mlir-translate"),
		Llc:           testtool.LLVM(t, "llc"),
	}
}

// program is testdata/program.mlir (see there): modules zeta, main_kernel, main_kernel_0, alpha.
var program = func() string {
	b, err := os.ReadFile("testdata/program.mlir")
	if err != nil {
		panic(err)
	}
	return string(b)
}()

// programModules are program's modules, in order, and the kernel each defines.
var programModules = []struct{ name, kernel string }{
	{"zeta", "kz"}, {"main_kernel", "main_kernel"}, {"main_kernel_0", "main_kernel"}, {"alpha", "ka"},
}

func programNames() []string {
	var names []string
	for _, m := range programModules {
		names = append(names, m.name)
	}
	return names
}

// withExt is names, each with ext, sorted (as a directory lists them).
func withExt(names []string, ext string) []string {
	var out []string
	for _, n := range names {
		out = append(out, n+ext)
	}
	slices.Sort(out)
	return out
}

// lowerProgram lowers program into a new directory, DIR/ll, and returns it.
func lowerProgram(t *testing.T, tools Tools) string {
	t.Helper()
	src := testtool.WriteFile(t, t.TempDir(), "prog.mlir", program)
	out := filepath.Join(t.TempDir(), "ll")
	if _, err := tools.LowerProgram(context.Background(), Job{Target: "//t:prog", Src: src, Out: out}); err != nil {
		t.Fatal(err)
	}
	return out
}

// LowerProgram writes one NAME.ll per module of the program, the outlined gpu.launch regions
// included, named as outlining names them, and returns the names in the program's order: the
// order of the top-level modules in mlir-opt's own outlining of the program.
func TestLowerProgram(t *testing.T) {
	tools := lowerTools(t)
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"modules and launches", program, programNames()},
		{"a launch, no module (launch.mlir)", "", []string{"main_kernel"}},
		{"modules only, implicit top-level module", "gpu.module @b {\n  gpu.func @kb() kernel {\n    gpu.return\n  }\n}\n" +
			"gpu.module @a.x$1 {\n  gpu.func @ka() kernel {\n    gpu.return\n  }\n}\n", []string{"b", "a.x$1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "testdata/launch.mlir"
			if tc.src != "" {
				src = testtool.WriteFile(t, t.TempDir(), "prog.mlir", tc.src)
			}
			parent := t.TempDir()
			out := filepath.Join(parent, "ll")
			names, err := tools.LowerProgram(context.Background(), Job{Target: "//t:prog", Src: src, Out: out})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(names, tc.want) {
				t.Errorf("modules %q, want %q", names, tc.want)
			}
			// The order is the program's after outlining, as mlir-opt itself outlines it.
			outlined, err := exec.Command(tools.MLIROpt, "--gpu-kernel-outlining", src).Output()
			if err != nil {
				t.Fatal(err)
			}
			mods, err := mlir.Modules(outlined)
			if err != nil {
				t.Fatal(err)
			}
			var order []string
			for _, m := range mods {
				if m.TopLevel {
					order = append(order, m.Name)
				}
			}
			if !slices.Equal(names, order) {
				t.Errorf("modules %q; mlir-opt --gpu-kernel-outlining gives %q", names, order)
			}
			if got, want := testtool.DirNames(t, out), withExt(tc.want, ".ll"); !slices.Equal(got, want) {
				t.Errorf("%s holds %q, want %q", out, got, want)
			}
			if got := testtool.DirNames(t, parent); !slices.Equal(got, []string{"ll"}) {
				t.Errorf("left beside the output directory: %q", got)
			}
			for _, name := range tc.want {
				ir, err := os.ReadFile(filepath.Join(out, name+".ll"))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Contains(ir, []byte(`target triple = "nvptx64-nvidia-cuda"`)) || !bytes.Contains(ir, []byte("define ptx_kernel void @")) {
					t.Errorf("%s.ll is not a module of NVPTX kernels:\n%s", name, ir)
				}
				if bytes.Contains(ir, []byte("gpu.")) || bytes.Contains(ir, []byte("@main(")) {
					t.Errorf("%s.ll holds more than the module's device code:\n%s", name, ir)
				}
			}
		})
	}
	// An output directory that exists already receives the files.
	out := t.TempDir()
	if _, err := tools.LowerProgram(context.Background(), Job{Src: "testdata/launch.mlir", Out: out}); err != nil {
		t.Fatal(err)
	}
	if got := testtool.DirNames(t, out); !slices.Equal(got, []string{"main_kernel.ll"}) {
		t.Errorf("%s holds %q", out, got)
	}
}

// A program that LowerProgram cannot lower is an error naming the target, the program and the
// cause, and leaves no file: neither the output directory nor a temporary one beside it.
func TestLowerProgramErrors(t *testing.T) {
	tools := lowerTools(t)
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"a module name that is no bare identifier", strings.ReplaceAll(program, "@alpha", `@"my kernels"`),
			[]string{`gpu.module @"my kernels"`, "rename it to a bare identifier"}},
		{"a module name with a slash", "gpu.module @\"a/b\" {\n  gpu.func @k() kernel {\n    gpu.return\n  }\n}\n",
			[]string{`gpu.module @"a/b"`, "rename it"}},
		{"no GPU code", "func.func @main() {\n  return\n}\n", []string{"no gpu.module or gpu.launch in the program"}},
		{"malformed", "module {\n  gpu.module @k {\n    gpu.func @f( kernel {\n", []string{"lower to NVVM", "mlir-opt"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := testtool.WriteFile(t, t.TempDir(), "prog.mlir", tc.src)
			parent := t.TempDir()
			out := filepath.Join(parent, "ll")
			names, err := tools.LowerProgram(context.Background(), Job{Target: "//t:prog", Src: src, Out: out})
			if err == nil {
				t.Fatalf("lowered: %q", names)
			}
			for _, want := range append([]string{"//t:prog: compiling " + src + " for every chip: "}, tc.want...) {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error does not contain %q:\n%v", want, err)
				}
			}
			if got := testtool.DirNames(t, parent); len(got) != 0 {
				t.Errorf("left behind: %q", got)
			}
		})
	}
	// An output directory that holds a file this run does not write (an earlier version's module)
	// is refused, and the file is kept.
	out := t.TempDir()
	stale := testtool.WriteFile(t, out, "old_kernel.ll", "; an earlier version's module\n")
	if _, err := tools.LowerProgram(context.Background(), Job{Target: "//t:prog", Src: testtool.WriteFile(t, t.TempDir(), "prog.mlir", program), Out: out}); err == nil ||
		!strings.Contains(err.Error(), "holds old_kernel.ll, which is not a module of this program: give an empty directory, or remove it") {
		t.Errorf("into a directory with a stale module: %v", err)
	}
	if got := testtool.DirNames(t, out); len(got) != 1 || got[0] != "old_kernel.ll" {
		t.Errorf("the directory holds %q afterwards, want only %s", got, stale)
	}
	// A missing tool is refused before any runs.
	_, err := Tools{MLIROpt: tools.MLIROpt}.LowerProgram(context.Background(), Job{Target: "//t:prog", Src: "testdata/launch.mlir", Out: filepath.Join(t.TempDir(), "ll")})
	if err == nil || !strings.Contains(err.Error(), "no mlir-translate configured") {
		t.Errorf("without mlir-translate: %v", err)
	}
}

// CompileProgram compiles each module of a directory of LLVM IR, or of PTX, for the chip: a file
// of the format per module, named after it, each a real artifact for the chip defining the
// module's kernel.
func TestCompileProgram(t *testing.T) {
	tools := programTools(t)
	tk := chip.Toolkit{Major: 12, Minor: 4}
	ll := lowerProgram(t, tools)
	ptx := filepath.Join(t.TempDir(), "ptx")
	if err := tools.CompileProgram(context.Background(), Job{Src: ll, Out: ptx, Format: FormatISA, Chip: mustChip(t, "sm_80"), Toolkit: tk}); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	dir := func(name string) string { return filepath.Join(root, name) }
	for _, tc := range []struct {
		name, src, chip string
		format          Format
	}{
		{"sm90", ll, "sm_90", FormatBin},
		{"sm80", ll, "sm_80", FormatBin},
		{"ptx80", ll, "sm_80", FormatISA},
		{"ptx90", ll, "sm_90", FormatISA},
		{"bc90", ll, "sm_90", FormatOffload},
		{"from_ptx_sm80", ptx, "sm_80", FormatBin},
		{"from_ptx_sm90", ptx, "sm_90", FormatBin}, // sm_80 PTX, compiled for sm_90
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := dir(tc.name)
			job := Job{Target: "//t:prog", Src: tc.src, Origin: "prog.mlir", Out: out, Format: tc.format, Chip: mustChip(t, tc.chip), Toolkit: tk, Codegen: Codegen{O: 3}}
			if err := tools.CompileProgram(context.Background(), job); err != nil {
				t.Fatal(err)
			}
			if got, want := testtool.DirNames(t, out), withExt(programNames(), tc.format.Extension()); !slices.Equal(got, want) {
				t.Fatalf("%s holds %q, want %q", out, got, want)
			}
			for _, m := range programModules {
				path := filepath.Join(out, m.name+tc.format.Extension())
				if tc.format == FormatOffload {
					if data, _ := os.ReadFile(path); !bytes.HasPrefix(data, []byte("BC\xc0\xde")) {
						t.Errorf("%s is not LLVM bitcode", path)
					}
					continue
				}
				a, err := artifact.Open(path)
				if err != nil {
					t.Fatal(err)
				}
				want := artifact.FormatCubin
				if tc.format == FormatISA {
					want = artifact.FormatPTX
				}
				if a.Format != want || len(a.Images) != 1 || a.Images[0].ArchName() != tc.chip {
					t.Errorf("%s: a %s of %d images (%v), want a %s for %s", path, a.Format, len(a.Images), a.Images, want, tc.chip)
				}
				if k, err := a.Kernels(); err != nil || !slices.Equal(k, []string{m.kernel}) {
					t.Errorf("%s defines %q (%v), want [%s]", path, k, err, m.kernel)
				}
			}
		})
	}
	if got := testtool.DirNames(t, root); len(got) != 7 {
		t.Errorf("%s holds %q: temporary directories left?", root, got)
	}
}

// A directory holding something other than modules, or a module that does not compile, fails the
// whole program: the error names the file or the module (gpu.module @NAME) and the program, and
// no file appears.
func TestCompileProgramErrors(t *testing.T) {
	tools := programTools(t)
	tk := chip.Toolkit{Major: 12, Minor: 4}
	good, err := os.ReadFile(filepath.Join(lowerProgram(t, tools), "zeta.ll"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		files  map[string]string
		origin string
		format Format
		want   []string // "DIR" is the input directory
	}{
		{name: "a stray file", files: map[string]string{"zeta.ll": string(good), "notes.txt": "x"},
			want: []string{"DIR/notes.txt: not a module of the program (NAME.ll, NAME.bc or NAME.ptx)"}},
		{name: "a hidden file", files: map[string]string{"zeta.ll": string(good), ".zeta.ll": string(good)},
			want: []string{"DIR/.zeta.ll: not a module of the program"}},
		{name: "a file without extension", files: map[string]string{"zeta": string(good)}, want: []string{"DIR/zeta: not a module of the program"}},
		{name: "a module that does not compile", files: map[string]string{"alpha.ll": string(good), "bad.ll": "define void @k( {\n", "zeta.ll": string(good)},
			origin: "prog.mlir", want: []string{"//t:prog: compiling prog.mlir (gpu.module @bad) for sm_90: ", "optimise"}},
		{name: "without origin, the directory", files: map[string]string{"bad.ll": "define void @k( {\n"},
			want: []string{"compiling DIR (gpu.module @bad) for sm_90"}},
		{name: "a module without kernel", files: map[string]string{"helper.ll": "target triple = \"nvptx64-nvidia-cuda\"\ndefine void @helper() {\n  ret void\n}\n", "zeta.ll": string(good)},
			origin: "prog.mlir", want: []string{"prog.mlir (gpu.module @helper)", "the module defines no kernel"}},
		{name: "bad PTX", files: map[string]string{"k.ptx": ".version 7.8\n.target sm_90\n.address_size 64\n.visible .entry k() { bogus; }\n"},
			origin: "prog.mlir", want: []string{"prog.mlir (gpu.module @k)", "ptxas"}},
		{name: "PTX to PTX", files: map[string]string{"k.ptx": ".version 7.8\n.target sm_90\n.address_size 64\n.visible .entry k() { ret; }\n"},
			format: FormatISA, origin: "prog.mlir", want: []string{"prog.mlir (gpu.module @k)", "is PTX already, which becomes cubins only: format isa needs an MLIR, LLVM IR or CUDA C++ source"}},
		{name: "format llvm", files: map[string]string{"zeta.ll": string(good)}, format: FormatLLVM,
			want: []string{"a program's modules compile to bin, isa or offload, not llvm"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := t.TempDir()
			for name, text := range tc.files {
				testtool.WriteFile(t, in, name, text)
			}
			parent := t.TempDir()
			format := tc.format
			if format == "" {
				format = FormatBin
			}
			job := Job{Target: "//t:prog", Src: in, Origin: tc.origin, Out: filepath.Join(parent, "sm90"), Format: format, Chip: mustChip(t, "sm_90"), Toolkit: tk}
			err := tools.CompileProgram(context.Background(), job)
			if err == nil {
				t.Fatalf("compiled: %q", testtool.DirNames(t, job.Out))
			}
			for _, want := range tc.want {
				if want = strings.ReplaceAll(want, "DIR", in); !strings.Contains(err.Error(), want) {
					t.Errorf("error does not contain %q:\n%v", want, err)
				}
			}
			if got := testtool.DirNames(t, parent); len(got) != 0 {
				t.Errorf("left behind: %q", got)
			}
		})
	}
}
