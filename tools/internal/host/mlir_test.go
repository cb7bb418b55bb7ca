package host

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
	"github.com/rulesgpu/rules_gpu/tools/internal/compile"
	"github.com/rulesgpu/rules_gpu/tools/internal/testtool"
)

// programTools finds the tools that an MLIR program's build runs (no CUDA C++ front end): from the
// environment (runfiles paths under Bazel) or on PATH (env/env.sh run go test ./...).
func programTools(t *testing.T) compile.Tools {
	t.Helper()
	find := func(env, name string) string { return testtool.Find(t, env, name) }
	return compile.Tools{
		MLIROpt: testtool.LLVM(t, "mlir-opt"), MLIRTranslate: testtool.LLVM(t, "mlir-translate"),
		Opt: testtool.LLVM(t, "opt"), Llc: testtool.LLVM(t, "llc"), Ptxas: find("PTXAS", "ptxas"),
	}
}

// lowerTools are the tools of MLIR alone.
func lowerTools(t *testing.T) compile.Tools {
	t.Helper()
	return compile.Tools{
		MLIROpt:       testtool.LLVM(t, "mlir-opt"),
		MLIRTranslate: testtool.LLVM(t, "mlir-translate"),
		Llc:           testtool.LLVM(t, "llc"),
	}
}

// program is compile's testdata/program.mlir (see there): modules zeta, main_kernel,
// main_kernel_0, alpha, outlined gpu.launch regions among them.
var program = func() string {
	b, err := os.ReadFile("../compile/testdata/program.mlir")
	if err != nil {
		panic(err)
	}
	return string(b)
}()

// programModules are program's modules, in order.
var programModules = []struct{ name string }{{"zeta"}, {"main_kernel"}, {"main_kernel_0"}, {"alpha"}}

// lowerProgram lowers program into a new directory, DIR/ll, and returns it.
func lowerProgram(t *testing.T, tools compile.Tools) string {
	t.Helper()
	src := testtool.WriteFile(t, t.TempDir(), "prog.mlir", program)
	out := filepath.Join(t.TempDir(), "ll")
	if _, err := tools.LowerProgram(context.Background(), compile.Job{Target: "//t:prog", Src: src, Out: out}); err != nil {
		t.Fatal(err)
	}
	return out
}

func mustChip(t *testing.T, s string) chip.Chip {
	t.Helper()
	c, err := chip.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// hostObject reads an object file that MLIR wrote: it must be an x86-64 ELF relocatable object. It
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

// MLIR builds the host side of the program around its modules' fatbins: an x86-64 relocatable
// object that defines an `int main`, loads every module's fatbin (embedded as it is) and launches
// its kernels through the runtime.
func TestMLIR(t *testing.T) {
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
		format compile.Format
	}{{"sm_80", compile.FormatBin}, {"sm_90", compile.FormatBin}, {"sm_80", compile.FormatISA}} {
		out := filepath.Join(root, c.chip+"."+string(c.format))
		if err := tools.CompileProgram(context.Background(), compile.Job{Src: ll, Out: out, Format: c.format, Chip: mustChip(t, c.chip), Toolkit: tk}); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, dir{out, c.format.Extension()})
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
	if err := MLIR(context.Background(), tools, MLIRJob{Target: "//t:prog", Src: src, Binaries: binaries, Chip: "sm_80", O: 2, Out: obj}); err != nil {
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
	if got := testtool.DirNames(t, outDir); !slices.Equal(got, []string{"prog.o"}) {
		t.Errorf("left beside the object: %q", got)
	}
}

// A @main that returns i32 keeps its exit status: MLIR adds no wrapper. One that takes (i32,
// !llvm.ptr) gets argc and argv from the wrapper.
func TestMLIRMain(t *testing.T) {
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
			err := MLIR(context.Background(), tools, MLIRJob{Src: src, Binaries: map[string][]byte{"main_kernel": []byte("not checked")}, Chip: "sm_80", Out: obj})
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

// asyncPrograms use the async dialect: GPU work inside async.execute regions (gpu.alloc,
// gpu.memcpy, gpu.launch_func and an outlined gpu.launch) joined by tokens and values, and CPU work
// in groups; what each object must call besides.
var asyncPrograms = []struct {
	name, src string
	calls     []string
}{
	{"GPU work in regions", `module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @twice(%x: memref<4xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<4xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %x[%i] : memref<4xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %h = memref.alloc() : memref<4xf32>
    %t0, %f0 = async.execute () -> !async.value<memref<4xf32>> {
      %d = gpu.alloc () : memref<4xf32>
      gpu.memcpy %d, %h : memref<4xf32>, memref<4xf32>
      async.yield %d : memref<4xf32>
    }
    %t1, %f1 = async.execute [%t0] (%f0 as %d : !async.value<memref<4xf32>>) -> !async.value<memref<4xf32>> {
      gpu.launch_func @kernels::@twice blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%d : memref<4xf32>)
      gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
        %v = memref.load %d[%tx] : memref<4xf32>
        memref.store %v, %d[%tx] : memref<4xf32>
        gpu.terminator
      }
      async.yield %d : memref<4xf32>
    }
    %d = async.await %f1 : !async.value<memref<4xf32>>
    gpu.memcpy %h, %d : memref<4xf32>, memref<4xf32>
    gpu.dealloc %d : memref<4xf32>
    async.await %t1 : !async.token
    return
  }
}
`, []string{"mgpuLaunchKernel", "mgpuMemAlloc", "mgpuMemcpy", "mlirAsyncRuntimeExecute", "mlirAsyncRuntimeAwaitValueAndExecute", "mlirAsyncRuntimeAwaitValue"}},
	{"CPU work in a group", `module {
  func.func @main() -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %buf = memref.alloc() : memref<4xi32>
    %g = async.create_group %c4 : !async.group
    scf.for %i = %c0 to %c4 step %c1 {
      %t = async.execute {
        %v = arith.index_cast %i : index to i32
        memref.store %v, %buf[%i] : memref<4xi32>
        async.yield
      }
      %r = async.add_to_group %t, %g : !async.token
    }
    async.await_all %g
    %x = memref.load %buf[%c1] : memref<4xi32>
    return %x : i32
  }
}
`, []string{"mlirAsyncRuntimeCreateGroup", "mlirAsyncRuntimeAddTokenToGroup", "mlirAsyncRuntimeAwaitAllInGroup"}},
}

// A program that uses the async dialect lowers to an object that calls MLIR's async runtime and
// holds no coroutine left to split; without opt, which splits them, it fails naming it.
func TestMLIRAsync(t *testing.T) {
	tools := lowerTools(t)
	tools.Opt = testtool.LLVM(t, "opt")
	for _, p := range asyncPrograms {
		t.Run(p.name, func(t *testing.T) {
			src := testtool.WriteFile(t, t.TempDir(), "prog.mlir", p.src)
			binaries := map[string][]byte{}
			if strings.Contains(p.src, "gpu.module @kernels") {
				binaries = map[string][]byte{"kernels": []byte("kernels"), "main_kernel": []byte("outlined")}
			}
			obj := filepath.Join(t.TempDir(), "prog.o")
			if err := MLIR(context.Background(), tools, MLIRJob{Target: "//t:prog", Src: src, Binaries: binaries, Chip: "sm_80", O: 2, Out: obj}); err != nil {
				t.Fatal(err)
			}
			defined, undefined := hostObject(t, obj)
			if !slices.Contains(defined, "main") {
				t.Errorf("the object does not define main (defines %q)", defined)
			}
			for _, want := range append([]string{"mlirAsyncRuntimeCreateToken", "mlirAsyncRuntimeEmplaceToken", "mlirAsyncRuntimeDropRef"}, p.calls...) {
				if !slices.Contains(undefined, want) {
					t.Errorf("the object does not call %s (uses %q)", want, undefined)
				}
			}
			for _, u := range undefined {
				if strings.HasPrefix(u, "llvm.coro") {
					t.Errorf("the object calls %s: a coroutine left unsplit", u)
				}
			}

			noOpt := tools
			noOpt.Opt = ""
			err := MLIR(context.Background(), noOpt, MLIRJob{Target: "//t:prog", Src: src, Binaries: binaries, Chip: "sm_80", Out: filepath.Join(t.TempDir(), "prog.o")})
			if want := "the program uses the async dialect, whose coroutines opt splits: no opt"; err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("without opt: %v, want an error containing %q", err, want)
			}
		})
	}
}

// asyncOp finds the async dialect's ops and types in printed MLIR, and not the async keyword of
// the GPU dialect's ops or its token type.
func TestAsyncOp(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"%t = async.execute {", true},
		{"async.await %t : !async.token", true},
		{"func.func @f(%v: !async.value<f32>)", true},
		{"%g = async.create_group %c : !async.group", true},
		{"%t = gpu.wait async", false},
		{"%m, %t = gpu.alloc async [%t0] () : memref<4xf32>", false},
		{"func.func @f(%t: !gpu.async.token)", false},
		{"func.func @my_async.execute()", false},
	} {
		if got := asyncOp.MatchString(tc.text); got != tc.want {
			t.Errorf("asyncOp.MatchString(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// MLIR fails, naming the host and the cause, and writes nothing, for artifacts that do not match
// the program's modules, a @main it cannot give an exit status, and missing tools.
func TestMLIRErrors(t *testing.T) {
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
		tools    *compile.Tools
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
		{"a synchronous gpu.alloc", "module attributes {gpu.container_module} {\n  func.func @main() {\n    // gpu.alloc in a comment\n    %m = gpu.alloc () : memref<4xf32>\n    %u = memref.cast %m : memref<4xf32> to memref<*xf32>\n    call @printMemrefF32(%u) : (memref<*xf32>) -> ()\n    return\n  }\n  func.func private @printMemrefF32(memref<*xf32>)\n}\n",
			nil, nil, []string{"prog.mlir:4: gpu.alloc is left after the host lowering (--gpu-lower-to-nvvm-pipeline", "fix: MLIR's host lowering (gpu-to-llvm) lowers only its async form"}},
		{"another dialect", "module {\n  func.func @main() {\n    %c = arith.constant 1.0 : f32\n    %s = math.sqrt %c : f32\n    %t = tensor.empty() : tensor<4xf32>\n    call @use(%t) : (tensor<4xf32>) -> ()\n    return\n  }\n  func.func private @use(tensor<4xf32>)\n}\n",
			nil, nil, []string{"prog.mlir:5: tensor.empty is left after the host lowering", "fix: lower the tensor dialect's ops before"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tl := tools
			if tc.tools != nil {
				tl = *tc.tools
			}
			src := testtool.WriteFile(t, t.TempDir(), "prog.mlir", tc.src)
			dir := t.TempDir()
			err := MLIR(context.Background(), tl, MLIRJob{Target: "//t:prog", Src: src, Binaries: tc.binaries, Chip: "sm_80", Out: filepath.Join(dir, "prog.o")})
			if err == nil {
				t.Fatal("built")
			}
			t.Log(err)
			for _, want := range append([]string{"//t:prog: compiling " + src + " for the host: "}, tc.want...) {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error does not contain %q:\n%v", want, err)
				}
			}
			if got := testtool.DirNames(t, dir); len(got) != 0 {
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
	llc := testtool.LLVM(t, "llc")
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
