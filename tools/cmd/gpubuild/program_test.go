package main

import (
	"bytes"
	"debug/elf"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/fatbin"
	"github.com/rulesgpu/rules_gpu/tools/internal/artifact"
	"github.com/rulesgpu/rules_gpu/tools/internal/testtool"
)

// programSrc is tools/internal/compile's testdata/program.mlir (see there): modules zeta,
// main_kernel, main_kernel_0 (two gpu.launch regions, outlined) and alpha.
var programSrc = func() string {
	b, err := os.ReadFile("../../internal/compile/testdata/program.mlir")
	if err != nil {
		panic(err)
	}
	return string(b)
}()

// programKernels maps each module of programSrc to the kernel it defines.
var programKernels = map[string]string{"zeta": "kz", "main_kernel": "main_kernel", "main_kernel_0": "main_kernel", "alpha": "ka"}

// moduleFiles are the files of programKernels' modules with ext, sorted as a directory lists them.
func moduleFiles(ext string) []string {
	var names []string
	for m := range programKernels {
		names = append(names, m+ext)
	}
	slices.Sort(names)
	return names
}

// entries lists a directory's entries; nil when it does not exist.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// programFlags are the tool flags of the verbs that build an MLIR program: the tools from the
// environment (runfiles paths under Bazel) or PATH (env/env.sh run go test ./...); the test is
// skipped without them.
type programFlags struct{ mlirOpt, mlirTranslate, opt, llc, ptxas string }

func findProgramTools(t *testing.T) programFlags {
	t.Helper()
	return programFlags{
		mlirOpt:       testtool.LLVM(t, "mlir-opt"),
		mlirTranslate: testtool.LLVM(t, "mlir-translate"),
		opt:           testtool.LLVM(t, "opt"),
		llc:           testtool.LLVM(t, "llc"),
		ptxas:         testtool.Find(t, "PTXAS", "ptxas"),
	}
}

func (p programFlags) lower() []string {
	return []string{"--mlir-opt", p.mlirOpt, "--mlir-translate", p.mlirTranslate}
}

func (p programFlags) compile() []string {
	return []string{"--opt", p.opt, "--llc", p.llc, "--ptxas", p.ptxas}
}

func (p programFlags) host() []string { return append(p.lower(), "--llc", p.llc) }

// builtProgram is programSrc built by the verbs up to its modules' fatbins.
type builtProgram struct {
	dir, src                 string
	ll, sm80, sm90, ptx, fat string
}

// buildProgram runs the verbs as a user (or gpu_binary) runs them: compile --program --format llvm,
// compile --program per chip (cubins for sm_80 and sm_90, PTX for sm_80), link --program.
func buildProgram(t *testing.T, p programFlags) builtProgram {
	t.Helper()
	dir := t.TempDir()
	b := builtProgram{dir: dir, src: filepath.Join(dir, "prog.mlir"), ll: filepath.Join(dir, "ll"), sm80: filepath.Join(dir, "sm_80"),
		sm90: filepath.Join(dir, "sm_90"), ptx: filepath.Join(dir, "ptx"), fat: filepath.Join(dir, "fat")}
	if err := os.WriteFile(b.src, []byte(programSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	must := func(args ...string) {
		t.Helper()
		code, stdout, stderr := gpubuild(t, args...)
		if code != 0 || stdout != "" || stderr != "" {
			t.Fatalf("gpubuild %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, stdout, stderr)
		}
	}
	must(append([]string{"compile", "--program", "--format", "llvm", "-o", b.ll, b.src}, p.lower()...)...)
	must(append([]string{"compile", "--program", "--chip", "sm_80", "-o", b.sm80, b.ll}, p.compile()...)...)
	must(append([]string{"compile", "--program", "--chip", "sm_90", "--format", "bin", "-o", b.sm90, b.ll}, p.compile()...)...)
	must(append([]string{"compile", "--program", "--chip", "sm_80", "--format", "isa", "-o", b.ptx, b.ll}, p.compile()...)...)
	must("link", "--program", "-o", b.fat, b.sm80, b.sm90, b.ptx)
	return b
}

// The verbs build a program's modules: a directory of NAME.ll, one of cubins or PTX per chip (from
// the LLVM IR or from the PTX), and each module's fatbin, which holds every directory's image of
// the module, in the directories' order.
func TestProgramModules(t *testing.T) {
	p := findProgramTools(t)
	b := buildProgram(t, p)
	for _, d := range []struct{ dir, ext string }{{b.ll, ".ll"}, {b.sm80, ".cubin"}, {b.sm90, ".cubin"}, {b.ptx, ".ptx"}, {b.fat, ".fatbin"}} {
		if got, want := entries(t, d.dir), moduleFiles(d.ext); !slices.Equal(got, want) {
			t.Errorf("%s holds %q, want %q", d.dir, got, want)
		}
	}
	if got, want := entries(t, b.dir), []string{"fat", "ll", "prog.mlir", "ptx", "sm_80", "sm_90"}; !slices.Equal(got, want) {
		t.Errorf("%s holds %q, want %q (temporary files left?)", b.dir, got, want)
	}
	// The cubins and PTX are for their chips and define their modules' kernels.
	for _, d := range []struct {
		dir, ext, arch string
		format         artifact.Format
	}{{b.sm80, ".cubin", "sm_80", artifact.FormatCubin}, {b.sm90, ".cubin", "sm_90", artifact.FormatCubin}, {b.ptx, ".ptx", "sm_80", artifact.FormatPTX}} {
		for m, kernel := range programKernels {
			a, err := artifact.Open(filepath.Join(d.dir, m+d.ext))
			if err != nil {
				t.Fatal(err)
			}
			k, err := a.Kernels()
			if a.Format != d.format || len(a.Images) != 1 || a.Images[0].ArchName() != d.arch || err != nil || !slices.Equal(k, []string{kernel}) {
				t.Errorf("%s/%s%s: a %s for %v defining %q (%v); want a %s for %s defining %s", d.dir, m, d.ext, a.Format, a.Images, k, err, d.format, d.arch, kernel)
			}
		}
	}
	// Each fatbin holds the module's images of sm_80, sm_90 and PTX, those very files.
	for m, kernel := range programKernels {
		a, err := artifact.Open(filepath.Join(b.fat, m+".fatbin"))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, img := range a.Images {
			got = append(got, img.Kind.String()+" "+img.ArchName())
		}
		if want := []string{"elf sm_80", "elf sm_90", "ptx sm_80"}; a.Format != artifact.FormatFatbin || !slices.Equal(got, want) {
			t.Errorf("%s.fatbin: a %s of %q, want a fatbin of %q", m, a.Format, got, want)
			continue
		}
		for i, file := range []string{filepath.Join(b.sm80, m+".cubin"), filepath.Join(b.sm90, m+".cubin"), filepath.Join(b.ptx, m+".ptx")} {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if payload := a.Images[i].Payload; !bytes.HasPrefix(payload, bytes.TrimRight(data, "\x00")) {
				t.Errorf("%s.fatbin image %d is not %s", m, i, file)
			}
		}
		if k, err := a.Kernels(); err != nil || !slices.Equal(k, []string{kernel}) {
			t.Errorf("%s.fatbin defines %q (%v), want [%s]", m, k, err, kernel)
		}
	}
	// The PTX compiles for another chip as the LLVM IR does.
	fromPTX := filepath.Join(b.dir, "sm_90_from_ptx")
	args := append([]string{"compile", "--program", "--chip", "sm_90", "-o", fromPTX, b.ptx}, p.compile()...)
	if code, _, stderr := gpubuild(t, args...); code != 0 {
		t.Fatalf("compile --program of a PTX directory: exit %d\n%s", code, stderr)
	}
	for m, kernel := range programKernels {
		a, err := artifact.Open(filepath.Join(fromPTX, m+".cubin"))
		if err != nil {
			t.Fatal(err)
		}
		if k, err := a.Kernels(); a.Format != artifact.FormatCubin || a.Images[0].ArchName() != "sm_90" || err != nil || !slices.Equal(k, []string{kernel}) {
			t.Errorf("%s.cubin from PTX: a %s for %s defining %q (%v)", m, a.Format, a.Images[0].ArchName(), k, err)
		}
	}
}

// host over the program builds its host side around the fatbins: an x86-64 relocatable object
// that defines main, embeds each module's fatbin and loads and launches it through the runtime.
func TestProgramHost(t *testing.T) {
	p := findProgramTools(t)
	b := buildProgram(t, p)
	obj := filepath.Join(b.dir, "prog.o")
	args := append([]string{"host", "--modules", b.fat, "--chip", "sm_80", "-o", obj, b.src}, p.host()...)
	if code, stdout, stderr := gpubuild(t, args...); code != 0 || stdout != "" || stderr != "" {
		t.Fatalf("host: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	f, err := elf.Open(obj)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Class != elf.ELFCLASS64 || f.Machine != elf.EM_X86_64 || f.Type != elf.ET_REL {
		t.Errorf("the object is %v %v %v, want an x86-64 ELF relocatable object", f.Class, f.Machine, f.Type)
	}
	syms, err := f.Symbols()
	if err != nil {
		t.Fatal(err)
	}
	var defined, undefined []string
	for _, s := range syms {
		if s.Section == elf.SHN_UNDEF {
			undefined = append(undefined, s.Name)
		} else if elf.ST_TYPE(s.Info) == elf.STT_FUNC && elf.ST_BIND(s.Info) == elf.STB_GLOBAL {
			defined = append(defined, s.Name)
		}
	}
	if !slices.Contains(defined, "main") {
		t.Errorf("the object does not define main (defines %q)", defined)
	}
	for _, want := range []string{"mgpuModuleLoad", "mgpuLaunchKernel"} {
		if !slices.Contains(undefined, want) {
			t.Errorf("the object does not use %s (uses %q)", want, undefined)
		}
	}
	data, err := os.ReadFile(obj)
	if err != nil {
		t.Fatal(err)
	}
	for m := range programKernels {
		fb, err := os.ReadFile(filepath.Join(b.fat, m+".fatbin"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(data, fb) {
			t.Errorf("the object does not embed %s.fatbin", m)
		}
	}
}

// A fatbin directory that does not match the program fails host, naming the module or file, and
// writes nothing: no new file, and an old one is left as it was.
func TestProgramHostErrors(t *testing.T) {
	p := findProgramTools(t)
	src := filepath.Join(t.TempDir(), "prog.mlir")
	if err := os.WriteFile(src, []byte(programSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	// host reads the fatbins as bytes: these fail before any is loaded.
	fatbins := func(t *testing.T, names ...string) string {
		dir := t.TempDir()
		for _, n := range names {
			if err := os.WriteFile(filepath.Join(dir, n), []byte("fatbin "+n), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	for _, tc := range []struct {
		name  string
		files []string
		want  string
	}{
		{"a module missing", []string{"zeta.fatbin", "alpha.fatbin"}, "gpu.module @main_kernel has no artifact (have @alpha, @zeta)"},
		{"no module", nil, "gpu.module @zeta has no artifact (have none)"},
		{"a fatbin of no module", []string{"zeta.fatbin", "alpha.fatbin", "main_kernel.fatbin", "main_kernel_0.fatbin", "omega.fatbin"},
			"an artifact for gpu.module @omega, which the program does not have (its top-level modules: @zeta, @main_kernel, @main_kernel_0, @alpha)"},
		{"not a fatbin", []string{"zeta.fatbin", "alpha.fatbin", "main_kernel.cubin"}, "main_kernel.cubin: not a module of the program (NAME.fatbin)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			modules := fatbins(t, tc.files...)
			out := t.TempDir()
			obj, old := filepath.Join(out, "new.o"), filepath.Join(out, "old.o")
			if err := os.WriteFile(old, []byte("old object"), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, o := range []string{obj, old} {
				code, _, stderr := gpubuild(t, append([]string{"host", "--target", "//p:prog", "--modules", modules, "--chip", "sm_80", "-o", o, src}, p.host()...)...)
				if code != 1 || !strings.Contains(stderr, "gpubuild host: //p:prog: ") || !strings.Contains(stderr, tc.want) {
					t.Errorf("exit %d, stderr:\n%s\nwant 1 and %q", code, stderr, tc.want)
				}
			}
			if got := entries(t, out); !slices.Equal(got, []string{"old.o"}) {
				t.Errorf("%s holds %q, want only old.o", out, got)
			}
			if data, _ := os.ReadFile(old); string(data) != "old object" {
				t.Errorf("a failed host changed its output: %q", data)
			}
		})
	}
}

// link --program makes one fatbin per module from directories of the same modules; directories
// that differ are refused, naming the directories and the module, and nothing is written.
func TestLinkProgram(t *testing.T) {
	root := t.TempDir()
	ptx := func(target string) string {
		return ".version 7.8\n.target " + target + "\n.address_size 64\n.visible .entry k() { ret; }\n"
	}
	dir := func(name string, files map[string]string) string {
		d := filepath.Join(root, name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		for f, text := range files {
			if err := os.WriteFile(filepath.Join(d, f), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return d
	}
	sm80 := dir("sm80", map[string]string{"a.ptx": ptx("sm_80"), "b.ptx": ptx("sm_80"), "x.y.ptx": ptx("sm_80")})
	sm90 := dir("sm90", map[string]string{"a.ptx": ptx("sm_90"), "b.ptx": ptx("sm_90"), "x.y.ptx": ptx("sm_90")})
	fat := filepath.Join(root, "fat")
	if code, stdout, stderr := gpubuild(t, "link", "--program", "--compress", "none", "-o", fat, sm90, sm80); code != 0 || stdout != "" || stderr != "" {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	if got, want := entries(t, fat), []string{"a.fatbin", "b.fatbin", "x.y.fatbin"}; !slices.Equal(got, want) {
		t.Errorf("%s holds %q, want %q", fat, got, want)
	}
	for _, m := range []string{"a", "b", "x.y"} {
		data, err := os.ReadFile(filepath.Join(fat, m+".fatbin"))
		if err != nil {
			t.Fatal(err)
		}
		f, err := fatbin.Read(data)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range f.Entries {
			got = append(got, e.Kind.String()+" "+e.ArchName()+" "+e.Compression.String())
		}
		if want := []string{"ptx sm_90 none", "ptx sm_80 none"}; !slices.Equal(got, want) {
			t.Errorf("%s.fatbin holds %q, want %q", m, got, want)
		}
	}

	missing := dir("missing", map[string]string{"a.ptx": ptx("sm_90"), "b.ptx": ptx("sm_90")})
	other := dir("other", map[string]string{"a.ptx": ptx("sm_90"), "b.ptx": ptx("sm_90"), "c.ptx": ptx("sm_90")})
	twice := dir("twice", map[string]string{"a.ptx": ptx("sm_90"), "a.cubin": "x", "b.ptx": ptx("sm_90")})
	empty := dir("empty", nil)
	broken := dir("broken", map[string]string{"a.ptx": ptx("sm_90"), "b.ptx": "not PTX", "x.y.ptx": ptx("sm_90")})
	for _, tc := range []struct {
		name string
		dirs []string
		want string
	}{
		{"a module missing", []string{sm80, missing}, missing + " holds 2 modules, " + sm80 + " 3: link the directories of one program"},
		{"a module more", []string{missing, sm80}, sm80 + " holds 3 modules, " + missing + " 2"},
		{"another module", []string{sm80, other}, other + " has no file of module x.y, which " + sm80 + " has: link the directories of one program"},
		{"two files of one module", []string{twice}, twice + ": two files of module a"},
		{"no directory", []string{sm80, filepath.Join(root, "none")}, filepath.Join(root, "none")},
		{"not an image", []string{sm80, broken}, filepath.Join(broken, "b.ptx")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(root, "out-"+strings.ReplaceAll(tc.name, " ", "-"))
			code, _, stderr := gpubuild(t, append([]string{"link", "--program", "--target", "//p:prog", "-o", out}, tc.dirs...)...)
			if code != 1 || !strings.Contains(stderr, "gpubuild link: //p:prog: ") || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr:\n%s\nwant 1 and %q", code, stderr, tc.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("a failed link --program made %s: %q", out, entries(t, out))
			}
		})
	}
	// A program with no kernels of its own (one that only calls GPU libraries) has no modules: its
	// directories are empty, and so is the link's.
	out := filepath.Join(root, "out-no-module")
	if code, _, stderr := gpubuild(t, "link", "--program", "--target", "//p:prog", "-o", out, empty); code != 0 {
		t.Errorf("link --program of no module: exit %d, stderr:\n%s", code, stderr)
	} else if got := entries(t, out); len(got) != 0 {
		t.Errorf("link --program of no module made %q", got)
	}
}

// compile --program fails, naming the target, the program and the module or file, when the program
// or a module does not compile; nothing is written.
func TestCompileProgramErrors(t *testing.T) {
	p := findProgramTools(t)
	dir := t.TempDir()
	write := func(name, text string) string { return testtool.WriteFile(t, dir, name, text) }
	quoted := write("quoted.mlir", strings.ReplaceAll(programSrc, "@alpha", `@"my kernels"`))
	noGPU := write("none.mlir", "func.func @main() {\n  return\n}\n")
	stray := filepath.Join(dir, "stray")
	if err := os.MkdirAll(stray, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"k.ptx": ".version 7.8\n.target sm_90\n.address_size 64\n.visible .entry k() { ret; }\n", "README": "x"} {
		if err := os.WriteFile(filepath.Join(stray, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bad := filepath.Join(dir, "bad")
	if err := os.MkdirAll(bad, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bad, "kernels.ll"), []byte("define void @k( {\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"a quoted module name", append([]string{"--format", "llvm", quoted}, p.lower()...),
			[]string{"//p:prog: compiling " + quoted + " for every chip: ", `gpu.module @"my kernels": a program's module names become file names; rename it to a bare identifier`}},
		{"no GPU code", append([]string{"--format", "llvm", noGPU}, p.lower()...), []string{"no gpu.module or gpu.launch in the program"}},
		{"a stray file", append([]string{"--chip", "sm_90", "--toolkit", "12.4", stray}, p.compile()...),
			[]string{filepath.Join(stray, "README") + ": not a module of the program (NAME.ll, NAME.bc or NAME.ptx)"}},
		{"a module that does not compile", append([]string{"--chip", "sm_90", "--toolkit", "12.4", "--origin", "prog.mlir", bad}, p.compile()...),
			[]string{"//p:prog: compiling prog.mlir (gpu.module @kernels) for sm_90: "}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			code, _, stderr := gpubuild(t, append([]string{"compile", "--program", "--target", "//p:prog", "-o", out}, tc.args...)...)
			if code != 1 || !strings.HasPrefix(stderr, "gpubuild compile: ") {
				t.Errorf("exit %d, stderr:\n%s\nwant 1", code, stderr)
			}
			for _, want := range tc.want {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr does not contain %q:\n%s", want, stderr)
				}
			}
			if got := entries(t, filepath.Dir(out)); len(got) != 0 {
				t.Errorf("left behind: %q", got)
			}
		})
	}
}

// Command lines that the program verbs cannot run are usage errors (exit 2), before any tool runs.
func TestProgramUsage(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"compile", "--program", "--format", "llvm", "-o", out, "a.mlir", "b.mlir"}, "--program takes one SRC"},
		{[]string{"compile", "--program", "--format", "llvm", "-o", "-", "a.mlir"}, "--program writes a directory: give -o DIR"},
		{[]string{"compile", "--program", "--format", "llvm", "-o", out, "a.ll"}, "--program --format llvm lowers an MLIR program (.mlir); a.ll is not one"},
		{[]string{"compile", "--program", "--format", "llvm", "--module", "k", "-o", out, "a.mlir"}, "--rdc, --module and CUDA C++ options do not apply"},
		{[]string{"compile", "--program", "--chip", "sm_90", "--rdc", "-o", out, "ll"}, "--rdc, --module and CUDA C++ options do not apply"},
		{[]string{"compile", "--program", "--chip", "sm_90", "-DX", "-o", out, "ll"}, "--rdc, --module and CUDA C++ options do not apply"},
		{[]string{"compile", "--program", "-o", out, "ll"}, "no chip: give --chip"},
		{[]string{"host", "--chip", "sm_80", "-o", out, "prog.mlir"}, "an MLIR program needs --modules DIR (its modules' fatbins) and --chip CHIP"},
		{[]string{"host", "--modules", dir, "-o", out, "prog.mlir"}, "an MLIR program needs --modules DIR"},
		{[]string{"host", "--modules", dir, "--chip", "sm_80", "prog.mlir"}, "give -o OUT.o"},
		{[]string{"host", "--modules", dir, "--chip", "sm_80", "-o", "-", "prog.mlir"}, "give -o OUT.o"},
		{[]string{"host", "--modules", dir, "--chip", "sm_80", "-O", "4", "-o", out, "prog.mlir"}, "-O 4: use 0 to 3"},
		{[]string{"host", "--modules", dir, "--chip", "sm_80", "-o", out, "k.cu"}, "--modules is for an MLIR program (SRC.mlir)"},
		{[]string{"host", "--chip", "sm_80", "--fatbin", "k.fatbin", "-o", out, "k.cu"}, "--chip, --ccbin, --arch-list and --nvcc-opt are for --compiler nvcc"},
		{[]string{"host", "--compiler", "nvcc", "--fatbin", "k.fatbin", "-o", out, "k.cu"}, "--compiler nvcc needs --chip CHIP"},
		{[]string{"host", "--compiler", "nvcc", "--chip", "sm_8", "--fatbin", "k.fatbin", "-o", out, "k.cu"}, "--chip: unknown chip \"sm_8\""},
		{[]string{"host", "--compiler", "gcc", "--fatbin", "k.fatbin", "-o", out, "k.cu"}, "--compiler: unknown compiler \"gcc\""},
		{[]string{"link", "--program", "-o", out}, "no image to link"},
		{[]string{"host", "--modules", dir, "--chip", "compute_90", "-o", out, "prog.mlir"}, "--chip compute_90 is a virtual chip (PTX); name real chips, such as sm_90"},
	} {
		code, _, stderr := gpubuild(t, tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) || !strings.Contains(stderr, "usage: gpubuild "+tc.args[0]) {
			t.Errorf("gpubuild %s: exit %d, stderr:\n%s\nwant 2 and %q", strings.Join(tc.args, " "), code, stderr, tc.want)
		}
	}
	if code, _, stderr := gpubuild(t, "host", "--modules", dir, "--chip", "gfx90a", "-o", out, "prog.mlir"); code != 1 || !strings.Contains(stderr, `unknown chip "gfx90a"`) {
		t.Errorf("host --chip gfx90a: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("an output was written")
	}
}
