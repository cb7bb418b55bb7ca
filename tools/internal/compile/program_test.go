package compile

import (
	"bytes"
	"context"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/chip"
	"github.com/rulesgpu/rules_gpu/tools/fatbin"
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
		MLIROpt: find("MLIR_OPT", "mlir-opt-21"), MLIRTranslate: find("MLIR_TRANSLATE", "mlir-translate-21"),
		Opt: find("OPT", "opt-21"), Llc: find("LLC", "llc-21"), Ptxas: find("PTXAS", "ptxas"),
	}
}

// lowerTools are the tools of LowerProgram and Host alone.
func lowerTools(t *testing.T) Tools {
	t.Helper()
	return Tools{
		MLIROpt:       testtool.Find(t, "MLIR_OPT", "mlir-opt-21"),
		MLIRTranslate: testtool.Find(t, "MLIR_TRANSLATE", "mlir-translate-21"),
		Llc:           testtool.Find(t, "LLC", "llc-21"),
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

// dirNames lists a directory's entries; nil when it does not exist.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
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
			if got, want := dirNames(t, out), withExt(tc.want, ".ll"); !slices.Equal(got, want) {
				t.Errorf("%s holds %q, want %q", out, got, want)
			}
			if got := dirNames(t, parent); !slices.Equal(got, []string{"ll"}) {
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
	if got := dirNames(t, out); !slices.Equal(got, []string{"main_kernel.ll"}) {
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
			if got := dirNames(t, parent); len(got) != 0 {
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
	if got := dirNames(t, out); len(got) != 1 || got[0] != "old_kernel.ll" {
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
			job := Job{Target: "//t:prog", Src: tc.src, Origin: "prog.mlir", Out: out, Format: tc.format, Chip: mustChip(t, tc.chip), Toolkit: tk, O: 3}
			if err := tools.CompileProgram(context.Background(), job); err != nil {
				t.Fatal(err)
			}
			if got, want := dirNames(t, out), withExt(programNames(), Extensions[tc.format]); !slices.Equal(got, want) {
				t.Fatalf("%s holds %q, want %q", out, got, want)
			}
			for _, m := range programModules {
				path := filepath.Join(out, m.name+Extensions[tc.format])
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
	if got := dirNames(t, root); len(got) != 7 {
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
		{name: "no module", want: []string{"DIR holds no module"}},
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
				t.Fatalf("compiled: %q", dirNames(t, job.Out))
			}
			for _, want := range tc.want {
				if want = strings.ReplaceAll(want, "DIR", in); !strings.Contains(err.Error(), want) {
					t.Errorf("error does not contain %q:\n%v", want, err)
				}
			}
			if got := dirNames(t, parent); len(got) != 0 {
				t.Errorf("left behind: %q", got)
			}
		})
	}
}

// hostObject reads an object file that Host wrote: it must be an x86-64 ELF relocatable object. It
// returns the names of the functions it defines and of the symbols it uses.
func hostObject(t *testing.T, path string) (defined, undefined []string) {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Class != elf.ELFCLASS64 || f.Machine != elf.EM_X86_64 || f.Type != elf.ET_REL {
		t.Errorf("%s: %v %v %v, want an x86-64 ELF relocatable object", path, f.Class, f.Machine, f.Type)
	}
	syms, err := f.Symbols()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range syms {
		switch {
		case s.Section == elf.SHN_UNDEF && s.Name != "":
			undefined = append(undefined, s.Name)
		case elf.ST_TYPE(s.Info) == elf.STT_FUNC && elf.ST_BIND(s.Info) == elf.STB_GLOBAL:
			defined = append(defined, s.Name)
		}
	}
	return defined, undefined
}

// Host builds the host side of the program around its modules' fatbins: an x86-64 relocatable
// object that defines an `int main`, loads every module's fatbin (embedded as it is) and launches
// its kernels through the runtime.
func TestHost(t *testing.T) {
	tools := programTools(t)
	tk := chip.Toolkit{Major: 12, Minor: 4}
	ll := lowerProgram(t, tools)
	root := t.TempDir()
	type dir struct {
		path string
		ext  string
	}
	var dirs []dir
	for _, c := range []struct {
		chip   string
		format Format
	}{{"sm_80", FormatBin}, {"sm_90", FormatBin}, {"sm_80", FormatISA}} {
		out := filepath.Join(root, c.chip+"."+string(c.format))
		if err := tools.CompileProgram(context.Background(), Job{Src: ll, Out: out, Format: c.format, Chip: mustChip(t, c.chip), Toolkit: tk}); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, dir{out, Extensions[c.format]})
	}
	// Each module's fatbin, as gpubuild link --program makes it.
	binaries := map[string][]byte{}
	for _, m := range programModules {
		var images []fatbin.Entry
		for _, d := range dirs {
			e, err := artifact.ReadImage(filepath.Join(d.path, m.name+d.ext), 0)
			if err != nil {
				t.Fatal(err)
			}
			images = append(images, e)
		}
		data, err := artifact.Link(images, artifact.LinkOptions{})
		if err != nil {
			t.Fatal(err)
		}
		binaries[m.name] = data
	}
	src := testtool.WriteFile(t, t.TempDir(), "prog.mlir", program)
	outDir := t.TempDir()
	obj := filepath.Join(outDir, "prog.o")
	if err := tools.Host(context.Background(), HostJob{Target: "//t:prog", Src: src, Binaries: binaries, Chip: "sm_80", O: 2, Out: obj}); err != nil {
		t.Fatal(err)
	}
	defined, undefined := hostObject(t, obj)
	for _, want := range []string{"main", userMain} {
		if !slices.Contains(defined, want) {
			t.Errorf("the object does not define %s (defines %q)", want, defined)
		}
	}
	for _, want := range []string{"mgpuModuleLoad", "mgpuModuleGetFunction", "mgpuLaunchKernel"} {
		if !slices.Contains(undefined, want) {
			t.Errorf("the object does not call %s (uses %q)", want, undefined)
		}
	}
	data, err := os.ReadFile(obj)
	if err != nil {
		t.Fatal(err)
	}
	for name, fb := range binaries {
		if !bytes.Contains(data, fb) {
			t.Errorf("the object does not hold the fatbin of gpu.module @%s", name)
		}
	}
	if got := dirNames(t, outDir); !slices.Equal(got, []string{"prog.o"}) {
		t.Errorf("left beside the object: %q", got)
	}
}

// A @main that returns i32 keeps its exit status: Host adds no wrapper. One that takes (i32,
// !llvm.ptr) gets argc and argv from the wrapper.
func TestHostMain(t *testing.T) {
	tools := lowerTools(t)
	module := "  gpu.module @main_kernel {\n    gpu.func @main_kernel() kernel {\n      gpu.return\n    }\n  }\n"
	launch := "    %c1 = arith.constant 1 : index\n    gpu.launch_func @main_kernel::@main_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)\n"
	for _, tc := range []struct {
		name, main string
		wrapped    bool
	}{
		{"returns nothing", "  func.func @main() {\n" + launch + "    return\n  }\n", true},
		{"returns i32", "  func.func @main() -> i32 {\n" + launch + "    %s = arith.constant 3 : i32\n    return %s : i32\n  }\n", false},
		{"argc and argv", "  func.func @main(%argc: i32, %argv: !llvm.ptr) {\n" + launch + "    return\n  }\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := testtool.WriteFile(t, t.TempDir(), "prog.mlir", "module attributes {gpu.container_module} {\n"+module+tc.main+"}\n")
			obj := filepath.Join(t.TempDir(), "prog.o")
			err := tools.Host(context.Background(), HostJob{Src: src, Binaries: map[string][]byte{"main_kernel": []byte("not checked")}, Chip: "sm_80", Out: obj})
			if err != nil {
				t.Fatal(err)
			}
			defined, undefined := hostObject(t, obj)
			if !slices.Contains(defined, "main") || slices.Contains(defined, userMain) != tc.wrapped {
				t.Errorf("the object defines %q; want main, and %s only when wrapped (%v)", defined, userMain, tc.wrapped)
			}
			if !slices.Contains(undefined, "mgpuLaunchKernel") {
				t.Errorf("the object uses %q", undefined)
			}
		})
	}
}

// Host fails, naming the host and the cause, and writes nothing, for artifacts that do not match
// the program's modules, a @main it cannot give an exit status, and missing tools.
func TestHostErrors(t *testing.T) {
	tools := lowerTools(t)
	all := map[string][]byte{}
	for _, m := range programModules {
		all[m.name] = []byte("fatbin of " + m.name)
	}
	without := func(name string) map[string][]byte {
		m := map[string][]byte{}
		for k, v := range all {
			if k != name {
				m[k] = v
			}
		}
		return m
	}
	with := func(name string) map[string][]byte {
		m := without("")
		m[name] = []byte("x")
		return m
	}
	noLLC := tools
	noLLC.Llc = ""
	for _, tc := range []struct {
		name     string
		src      string
		binaries map[string][]byte
		tools    *Tools
		want     []string
	}{
		{"an outlined module without artifact", program, without("main_kernel_0"),
			nil, []string{"after outlining: line ", "gpu.module @main_kernel_0 has no artifact (have @alpha, @main_kernel, @zeta)"}},
		{"a module without artifact", program, without("zeta"), nil, []string{"gpu.module @zeta has no artifact"}},
		{"an artifact without module", program, with("extra"), nil,
			[]string{"an artifact for gpu.module @extra, which the program does not have (its top-level modules: @zeta, @main_kernel, @main_kernel_0, @alpha)"}},
		{"@main takes i64", strings.Replace(program, "func.func @main() {", "func.func @main(%n: i64) {", 1), all, nil,
			[]string{"@main takes (i64) once lowered; it may take nothing, or (i32, !llvm.ptr)"}},
		{"@main returns f32", strings.Replace(strings.Replace(program, "func.func @main() {", "func.func @main() -> f32 {", 1), "    return\n  }\n  gpu.module @alpha",
			"    %r = arith.constant 1.0 : f32\n    return %r : f32\n  }\n  gpu.module @alpha", 1), all, nil,
			[]string{"@main returns float; return nothing (exit status 0) or i32 (the exit status)"}},
		{"no @main", "module attributes {gpu.container_module} {\n  gpu.module @zeta {\n  }\n  func.func @start() {\n    return\n  }\n}\n",
			map[string][]byte{"zeta": []byte("z")}, nil, []string{"the program has no func.func @main"}},
		{"malformed", "module {\n  func.func @main( {\n", nil, nil, []string{"outline gpu.launch", "mlir-opt"}},
		{"no llc", program, all, &noLLC, []string{"no llc configured"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tl := tools
			if tc.tools != nil {
				tl = *tc.tools
			}
			src := testtool.WriteFile(t, t.TempDir(), "prog.mlir", tc.src)
			dir := t.TempDir()
			err := tl.Host(context.Background(), HostJob{Target: "//t:prog", Src: src, Binaries: tc.binaries, Chip: "sm_80", Out: filepath.Join(dir, "prog.o")})
			if err == nil {
				t.Fatal("built")
			}
			for _, want := range append([]string{"//t:prog: compiling " + src + " for the host: "}, tc.want...) {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error does not contain %q:\n%v", want, err)
				}
			}
			if got := dirNames(t, dir); len(got) != 0 {
				t.Errorf("left behind: %q", got)
			}
		})
	}
}

// wrapMain gives a @main that returns nothing an `i32 main` that calls it and returns 0; every
// reference to @main follows it to its new name, and no other symbol changes (@main_kernel_binary,
// @main.1, @mainly). An i32 @main is kept as it is.
func TestWrapMain(t *testing.T) {
	const refs = "@main_kernel_binary = internal constant [3 x i8] c\"P\\ED\\00\"\n" +
		"@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32 123, ptr @main_kernel_load, ptr null }]\n" +
		"@main.1 = internal global i32 0\n" +
		"@table = internal global [2 x ptr] [ptr @main, ptr @mainly]\n\n"
	const callers = "\ndefine void @again() {\n  call void @main()\n  %p = load ptr, ptr @main.1\n  ret void\n}\n\n" +
		"define void @mainly() {\n  call void @main_kernel_load()\n  ret void\n}\n\ndeclare void @main_kernel_load()\n"
	wrapper := func(args string) string {
		return "\n; rules_gpu: @main returned nothing; the program's exit status is 0.\ndefine i32 @main(i32 %argc, ptr %argv) {\n" +
			"  call void @" + userMain + "(" + args + ")\n  ret i32 0\n}\n"
	}
	renamed := func(s string) string {
		for _, r := range [][2]string{{"ptr @main,", "ptr @" + userMain + ","}, {"call void @main()", "call void @" + userMain + "()"}} {
			s = strings.ReplaceAll(s, r[0], r[1])
		}
		return s
	}
	for _, tc := range []struct {
		name, ir, want string
	}{
		{"void, no arguments",
			refs + "define void @main() {\n  call void @mainly()\n  ret void\n}\n" + callers,
			renamed(refs) + "define void @" + userMain + "() {\n  call void @mainly()\n  ret void\n}\n" + renamed(callers) + wrapper("")},
		{"void, argc and argv",
			"define void @main(i32 %0, ptr %1) {\n  ret void\n}\n",
			"define void @" + userMain + "(i32 %0, ptr %1) {\n  ret void\n}\n" + wrapper("i32 %argc, ptr %argv")},
		{"linkage, attributes and a reference at the end of a line",
			"define dso_local void @main() #0 {\n  ret void\n}\n@alias = alias void (), ptr @main",
			"define dso_local void @" + userMain + "() #0 {\n  ret void\n}\n@alias = alias void (), ptr @" + userMain + wrapper("")},
		{"i32, no arguments", "define i32 @main() {\n  ret i32 3\n}\n" + callers, ""},
		{"i32, argc and argv", "define i32 @main(i32 %0, ptr %1) {\n  ret i32 0\n}\n", ""},
		{"i32, named argc and argv", "define i32 @main(i32 noundef %argc, ptr nocapture %argv) {\n  ret i32 0\n}\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := wrapMain([]byte(tc.ir))
			if err != nil {
				t.Fatal(err)
			}
			want := tc.want
			if want == "" {
				want = tc.ir // kept as it is
			}
			if string(got) != want {
				t.Errorf("wrapMain of\n%s\ngave\n%s\nwant\n%s", tc.ir, got, want)
			}
		})
	}
}

func TestWrapMainErrors(t *testing.T) {
	for _, tc := range []struct{ name, ir, want string }{
		{"i64 argument", "define void @main(i64 %0) {\n  ret void\n}\n", "@main takes (i64) once lowered; it may take nothing, or (i32, !llvm.ptr): argc and argv"},
		{"argv first", "define i32 @main(ptr %0, i32 %1) {\n  ret i32 0\n}\n", "@main takes (ptr, i32) once lowered"},
		{"three arguments", "define void @main(i32 %0, ptr %1, ptr %2) {\n  ret void\n}\n", "@main takes (i32, ptr, ptr) once lowered"},
		{"returns float", "define float @main() {\n  ret float 0.0\n}\n", "@main returns float; return nothing (exit status 0) or i32 (the exit status)"},
		{"returns i64", "define i64 @main() {\n  ret i64 0\n}\n", "@main returns i64; return nothing"},
		{"returns a struct", "define { ptr, ptr, i64 } @main() {\n  ret { ptr, ptr, i64 } undef\n}\n", "@main returns { ptr, ptr, i64 }; return nothing (exit status 0) or i32 (the exit status)"},
		{"no main", "define void @start() {\n  ret void\n}\n", "the program has no func.func @main: define the host entry point, func.func @main()"},
		{"only a declaration", "declare void @main()\n", "the program has no func.func @main"},
		{"only a longer name", "define void @mainly() {\n  ret void\n}\n@main_kernel_binary = internal constant [1 x i8] c\"x\"\n", "the program has no func.func @main"},
		{"empty", "", "the program has no func.func @main"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := wrapMain([]byte(tc.ir))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("wrapMain: %v, want an error containing %q", err, tc.want)
			}
			if got != nil {
				t.Errorf("a failed wrapMain returned IR:\n%s", got)
			}
		})
	}
}

// What wrapMain makes of a void @main is valid LLVM IR: llc compiles it into an object whose
// main is a function and whose user main is the program's.
func TestWrapMainLLC(t *testing.T) {
	llc := testtool.Find(t, "LLC", "llc-21")
	for _, ir := range []string{
		"define void @main() {\n  ret void\n}\ndefine void @again() {\n  call void @main()\n  ret void\n}\n",
		"define void @main(i32 %0, ptr %1) {\n  ret void\n}\n",
	} {
		out, err := wrapMain([]byte(ir))
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		ll := testtool.WriteFile(t, dir, "host.ll", string(out))
		obj := filepath.Join(dir, "host.o")
		if msg, err := exec.Command(llc, "-mtriple=x86_64-unknown-linux-gnu", "-filetype=obj", "-relocation-model=pic", ll, "-o", obj).CombinedOutput(); err != nil {
			t.Fatalf("llc refuses wrapMain's output: %v\n%s\n%s", err, msg, out)
		}
		defined, _ := hostObject(t, obj)
		for _, want := range []string{"main", userMain} {
			if !slices.Contains(defined, want) {
				t.Errorf("the object does not define %s (defines %q)", want, defined)
			}
		}
	}
}
