// Command genmonorepo writes a generated GPU monorepo of N targets in N/10 packages (issue 33): a user's
// repository as a real one grows, built two ways from the same sources.
//
//	genmonorepo -n 200 -out DIR [-chips sm_75,sm_80,sm_86,sm_90] [-terms 8] [-seed 0] [-rules @rules_gpu] [-add-chip p000:k4=sm_89]
//
// The repository's chips are set in one place in each tree, as a team sets them: for rules_gpu the
// flag --@rules_gpu//gpu:chips in DIR/repo.bazelrc (which the benchmark's .bazelrc imports), and for
// the genrules the constants of base/chips.bzl; a target names chips only where it differs.
//
// Each package pNNN holds ten targets (the last one fewer when N is not a multiple of ten), in three
// trees that share its sources:
//
//   - src/pNNN: the headers, as plain Bazel: cc_library "common" (common.h, lib7.h, lib8.h) over the
//     common libraries of packages NNN-1 and NNN/2 (a dependency graph several levels deep, as long
//     as the repository up to 100 packages: shared header libraries, each header including its
//     dependencies'; every hundredth package starts a new chain, within clang's 200 nested includes), and the
//     filegroup "hdrs" of every header it reaches (what a genrule needs).
//   - gpu/pNNN: rules_gpu: k1..k3, gpu_modules from MLIR; k4..k6, gpu_modules from CUDA C++ (deps:
//     the common library); lib7, lib8, cuda_libraries (host code launching its kernel, deps: the
//     common library and lib7 of package NNN-1); prog9, a gpu_binary (an MLIR program with its
//     kernel, as examples/mlir has).
//   - base/pNNN: the same artifacts as a Bazel user writes them without rules_gpu: a genrule per
//     module calling nvcc -fatbin (one -gencode per chip, plus the lowest chip's PTX) or mlir-opt
//     (nvvm-attach-target per chip, gpu-module-to-binary); nvcc -c for each library's source into a
//     cc_library (a program that links one adds the CUDA runtime); per program, a genrule with a shell loop over the chips (mlir-opt
//     --gpu-lower-to-nvvm-pipeline, mlir-translate, llc) giving one host object per chip. It builds
//     the artifacts, checks nothing, and links no program (LLVM 21 as packaged has no
//     mlir_cuda_runtime to link it against).
//
// Slot 0 of a package (its common library) counts as one of its ten targets. Everything is
// deterministic for a seed; a file is written only when its contents change, so that generating again
// with -add-chip touches one BUILD file. -add-chip PKG:TARGET=CHIP adds a chip to one target in both
// trees (the benchmark's "add a chip to one target"); -chips with one more chip adds it to every
// target, touching repo.bazelrc and base/chips.bzl alone ("add a chip to every target").
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/chip"
)

type gen struct {
	n, terms, seed int
	chips          []string
	rules          string
	addPkg         string // -add-chip: package, target and chip
	addTarget      string
	addChip        string
	out            string
}

func main() {
	g := gen{}
	flag.IntVar(&g.n, "n", 200, "how many targets (ten per package)")
	flag.IntVar(&g.terms, "terms", 8, "arithmetic terms per kernel (its size)")
	flag.IntVar(&g.seed, "seed", 0, "varies every constant")
	chips := flag.String("chips", "sm_75,sm_80,sm_86,sm_90", "the chips of every target, comma-separated")
	flag.StringVar(&g.rules, "rules", "@rules_gpu", "the repository that holds rules_gpu")
	add := flag.String("add-chip", "", "PKG:TARGET=CHIP: one more chip for one target, in both trees")
	flag.StringVar(&g.out, "out", "", "the user's repository to write into (its MODULE.bazel is not written)")
	flag.Parse()
	g.chips = strings.Split(*chips, ",")
	if *add != "" {
		pt, c, ok1 := strings.Cut(*add, "=")
		pkg, target, ok2 := strings.Cut(pt, ":")
		if !ok1 || !ok2 {
			fmt.Fprintln(os.Stderr, "genmonorepo: -add-chip PKG:TARGET=CHIP, e.g. p000:k4=sm_89")
			os.Exit(2)
		}
		g.addPkg, g.addTarget, g.addChip = pkg, target, c
	}
	for _, c := range append(slices.Clone(g.chips), g.addChip) {
		if _, err := chip.Parse(c); c != "" && err != nil {
			fmt.Fprintf(os.Stderr, "genmonorepo: -chips or -add-chip: %v\n", err)
			os.Exit(2)
		}
	}
	if g.out == "" || g.n < 1 || g.terms < 1 {
		fmt.Fprintln(os.Stderr, "usage: genmonorepo -out DIR [-n 200] [-terms 8] [-seed 0] [-chips sm_75,...] [-add-chip PKG:TARGET=CHIP]")
		os.Exit(2)
	}
	if err := g.write(); err != nil {
		fmt.Fprintf(os.Stderr, "genmonorepo: %v\n", err)
		os.Exit(1)
	}
}

// put writes a file when its contents change (an unchanged file keeps its time stamps).
func (g *gen) put(rel, text string) error {
	path := filepath.Join(g.out, rel)
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, []byte(text)) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(text), 0o644)
}

func pkgName(p int) string { return fmt.Sprintf("p%03d", p) }

// deps: the packages whose common library package p's includes (p-1 and p/2, when they exist).
// Every hundredth package starts a new chain (no p-1): each header includes its dependencies', and
// a chain of 200 would pass clang's limit of 200 nested includes (-fmax-include-depth); no package
// of a repository of 1,000 targets or fewer is one of them.
func deps(p int) []int {
	var d []int
	if p > 0 && p%100 != 0 {
		d = append(d, p-1)
	}
	if q := p / 2; p > 1 && q != p-1 {
		d = append(d, q)
	}
	return d
}

// constant: the j-th constant of kernel k of package p: distinct, finite, near 1.
func (g *gen) constant(p, k, j int) float64 {
	return 0.5 + float64(((p*104723+k*7919+j*104729+g.seed*15485863)%1000+1000)%1000)/1000
}

// own: whether a target has chips of its own (the -add-chip target), rather than the repository's.
func (g *gen) own(pkg, target string) bool { return pkg == g.addPkg && target == g.addTarget }

// chipsOf: a target's chips, in ascending order (an added chip takes its place among them, so that
// adding it to one target and then to every target gives that target the same chips).
func (g *gen) chipsOf(pkg, target string) []string {
	c := append([]string(nil), g.chips...)
	if g.own(pkg, target) && !slices.Contains(c, g.addChip) {
		c = append(c, g.addChip)
		slices.SortFunc(c, func(a, b string) int { return chipNumber(a) - chipNumber(b) })
	}
	return c
}

// chipNumber: sm_89 → 89, for ordering (main has checked every chip name).
func chipNumber(name string) int {
	c, _ := chip.Parse(name)
	return c.Number()
}

// chipsAttr: a gpu/ target's chips attribute line: empty for the repository's chips (the flag).
func (g *gen) chipsAttr(pkg, target string) string {
	if !g.own(pkg, target) {
		return ""
	}
	return fmt.Sprintf("    chips = %s,\n", quote(g.chipsOf(pkg, target)))
}

// baseConst: a base/ genrule's value: the chips.bzl constant for the repository's chips, or the
// target's own string.
func (g *gen) baseConst(pkg, target, constant string, own func([]string) string) string {
	if !g.own(pkg, target) {
		return constant
	}
	return fmt.Sprintf("%q", own(g.chipsOf(pkg, target)))
}

func quote(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = fmt.Sprintf("%q", s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

func (g *gen) write() error {
	packages := (g.n + 9) / 10
	for p := 0; p < packages; p++ {
		slots := 10
		if p == packages-1 && g.n%10 != 0 {
			slots = g.n % 10
		}
		if err := g.pkg(p, slots); err != nil {
			return err
		}
	}
	if err := g.put("repo.bazelrc", fmt.Sprintf("# Generated by genmonorepo: the repository's chips, for every rules_gpu target that names none.\nbuild --%s//gpu:chips=%s\n", g.rules, strings.Join(g.chips, ","))); err != nil {
		return err
	}
	if err := g.put("base/BUILD.bazel", ""); err != nil {
		return err
	}
	chipsBzl := fmt.Sprintf(`"""Generated by genmonorepo: the repository's chips, for the genrules of base/."""

CHIPS = %s
GENCODE = %q
MLIR_PIPELINE = %q
`, quote(g.chips), gencode(g.chips), mlirPipeline(g.chips))
	if err := g.put("base/chips.bzl", chipsBzl); err != nil {
		return err
	}
	return g.put("BUILD.bazel", fmt.Sprintf("# Generated by genmonorepo: %d targets in %d packages (src/, gpu/: rules_gpu, base/: without it).\n", g.n, packages))
}

func (g *gen) pkg(p, slots int) error {
	name := pkgName(p)
	has := func(s int) bool { return s < slots }
	files := map[string]string{} // the sources, the same in gpu/ and base/

	// src/pNNN: the headers.
	var inc, hdrDeps, ccDeps strings.Builder
	k := 0.25 + float64(p%7)/8
	expr := fmt.Sprintf("%.4ff", k)
	for _, d := range deps(p) {
		fmt.Fprintf(&inc, "#include \"src/%s/common.h\"\n", pkgName(d))
		fmt.Fprintf(&hdrDeps, "\"//src/%s:hdrs\", ", pkgName(d))
		fmt.Fprintf(&ccDeps, "\"//src/%s:common\", ", pkgName(d))
		expr += fmt.Sprintf(" + 0.5f * %s_k", pkgName(d))
	}
	src := map[string]string{
		"common.h": fmt.Sprintf("// %s's shared constants (genmonorepo).\n#pragma once\n%sconstexpr float %s_k = %s;\n", name, inc.String(), name, expr),
		"lib7.h":   fmt.Sprintf("#pragma once\nvoid %s_lib7(int n, float *y);\n", name),
		"lib8.h":   fmt.Sprintf("#pragma once\nvoid %s_lib8(int n, float *y);\n", name),
	}
	for f, text := range src {
		if err := g.put(filepath.Join("src", name, f), text); err != nil {
			return err
		}
	}
	srcBuild := fmt.Sprintf(`# Generated by genmonorepo: %s's headers, shared by gpu/%s and base/%s.
cc_library(
    name = "common",
    hdrs = ["common.h", "lib7.h", "lib8.h"],
    visibility = ["//visibility:public"],
    deps = [%s],
)

# Every header that common.h reaches, for the genrules of base/.
filegroup(
    name = "hdrs",
    srcs = ["common.h", "lib7.h", "lib8.h", %s],
    visibility = ["//visibility:public"],
)
`, name, name, name, strings.TrimSuffix(ccDeps.String(), ", "), strings.TrimSuffix(hdrDeps.String(), ", "))
	if err := g.put(filepath.Join("src", name, "BUILD.bazel"), srcBuild); err != nil {
		return err
	}

	var gb, bb strings.Builder
	fmt.Fprintf(&gb, "load(%q, \"cuda_library\", \"gpu_binary\", \"gpu_module\")\n\n# Generated by genmonorepo: package %s, rules_gpu.\n", g.rules+"//rules:defs.bzl", name)
	fmt.Fprintf(&bb, "load(\"//base:chips.bzl\", \"CHIPS\", \"GENCODE\", \"MLIR_PIPELINE\")\n\n# Generated by genmonorepo: package %s, as a Bazel user builds it without rules_gpu.\n", name)
	for s := 1; s <= 3 && has(s); s++ {
		t := fmt.Sprintf("k%d", s)
		files[t+".mlir"] = g.mlirKernel(name, p, s)
		fmt.Fprintf(&gb, "\ngpu_module(\n    name = %q,\n    srcs = [%q],\n%s    opt_level = 3,\n)\n", t, t+".mlir", g.chipsAttr(name, t))
		fmt.Fprintf(&bb, "\ngenrule(\n    name = %q,\n    srcs = [%q],\n    outs = [%q],\n    cmd = \"export CUDA_ROOT=/usr/lib/cuda; mlir-opt-21 $< --pass-pipeline='\" + %s + \"' -o $@\",\n)\n",
			t, t+".mlir", t+".fatbin.mlir", g.baseConst(name, t, "MLIR_PIPELINE", mlirPipeline))
	}
	for s := 4; s <= 6 && has(s); s++ {
		t := fmt.Sprintf("k%d", s)
		files[t+".cu"] = g.cudaKernel(name, p, s)
		fmt.Fprintf(&gb, "\ngpu_module(\n    name = %q,\n    srcs = [%q],\n%s    opt_level = 3,\n    deps = [\"//src/%s:common\"],\n)\n", t, t+".cu", g.chipsAttr(name, t), name)
		fmt.Fprintf(&bb, "\ngenrule(\n    name = %q,\n    srcs = [%q, \"//src/%s:hdrs\"],\n    outs = [%q],\n    cmd = \"nvcc -fatbin -O3 -I. \" + %s + \" -o $@ $(location %s)\",\n)\n",
			t, t+".cu", name, t+".fatbin", g.baseConst(name, t, "GENCODE", gencode), t+".cu")
	}
	for s := 7; s <= 8 && has(s); s++ {
		t := fmt.Sprintf("lib%d", s)
		files[t+".cu"] = g.library(name, p, s)
		var d []string
		if p > 0 {
			d = []string{fmt.Sprintf("//%%s/%s:lib7", pkgName(p-1))}
		}
		dep := func(tree string) string {
			l := []string{fmt.Sprintf("//src/%s:common", name)}
			for _, x := range d {
				l = append(l, fmt.Sprintf(x, tree))
			}
			return quote(l)
		}
		fmt.Fprintf(&gb, "\ncuda_library(\n    name = %q,\n    srcs = [%q],\n%s    visibility = [\"//visibility:public\"],\n    deps = %s,\n)\n", t, t+".cu", g.chipsAttr(name, t), dep("gpu"))
		// The headers the source includes: its package's, and lib7.h of package p-1 (which the
		// chain of common headers does not reach where package p starts a new chain).
		srcs := []string{t + ".cu", fmt.Sprintf("//src/%s:hdrs", name)}
		if p > 0 {
			srcs = append(srcs, fmt.Sprintf("//src/%s:hdrs", pkgName(p-1)))
		}
		fmt.Fprintf(&bb, "\ngenrule(\n    name = \"%s_obj\",\n    srcs = %s,\n    outs = [\"%s.o\"],\n    cmd = \"nvcc -c -O3 -I. -Xcompiler -fPIC \" + %s + \" -o $@ $(location %s)\",\n)\n",
			t, quote(srcs), t, g.baseConst(name, t, "GENCODE", gencode), t+".cu")
		fmt.Fprintf(&bb, "\ncc_library(\n    name = %q,\n    srcs = [\"%s.o\"],\n    visibility = [\"//visibility:public\"],\n    deps = %s,\n)\n", t, t, dep("base"))
	}
	if has(9) {
		t := "prog9"
		files[t+".mlir"] = g.program(name, p)
		fmt.Fprintf(&gb, "\ngpu_binary(\n    name = %q,\n    src = %q,\n%s)\n", t, t+".mlir", g.chipsAttr(name, t))
		chips := "CHIPS"
		if g.own(name, t) {
			chips = quote(g.chipsOf(name, t))
		}
		// One host object per chip: MLIR's pipeline for programs takes one chip.
		fmt.Fprintf(&bb, "\ngenrule(\n    name = %q,\n    srcs = [%q],\n    outs = [\"%s.%%s.o\" %% c for c in %s],\n    cmd = \"\"\"export CUDA_ROOT=/usr/lib/cuda\nfor c in \"\"\" + \" \".join(%s) + \"\"\"; do\n  mlir-opt-21 $< --gpu-lower-to-nvvm-pipeline=\"cubin-chip=$$c cubin-format=fatbin opt-level=3\" |\n    mlir-translate-21 --mlir-to-llvmir |\n    llc-21 -filetype=obj -relocation-model=pic -O2 -o $(RULEDIR)/%s.$$c.o || exit 1\ndone\"\"\",\n)\n",
			t, t+".mlir", t, chips, chips, t)
	}
	for f, text := range files {
		for _, tree := range []string{"gpu", "base"} {
			if err := g.put(filepath.Join(tree, name, f), text); err != nil {
				return err
			}
		}
	}
	if err := g.put(filepath.Join("gpu", name, "BUILD.bazel"), gb.String()); err != nil {
		return err
	}
	return g.put(filepath.Join("base", name, "BUILD.bazel"), bb.String())
}

// gencode: nvcc's options for each chip's cubin and the lowest chip's PTX (what a rules_gpu fatbin holds).
func gencode(chips []string) string {
	var b strings.Builder
	for _, c := range chips {
		fmt.Fprintf(&b, "-gencode arch=compute_%s,code=%s ", strings.TrimPrefix(c, "sm_"), c)
	}
	fmt.Fprintf(&b, "-gencode arch=compute_%s,code=compute_%s", strings.TrimPrefix(chips[0], "sm_"), strings.TrimPrefix(chips[0], "sm_"))
	return b.String()
}

// mlirPipeline: MLIR's own pipeline for a kernel module, every chip at once (tests/bench/kernels.sh).
func mlirPipeline(chips []string) string {
	var attach string
	for _, c := range chips {
		attach += fmt.Sprintf("nvvm-attach-target{chip=%s O=3},", c)
	}
	return "builtin.module(" + attach + "gpu.module(strip-debuginfo,convert-scf-to-cf,convert-gpu-to-nvvm,canonicalize,cse,reconcile-unrealized-casts),reconcile-unrealized-casts,gpu-module-to-binary{format=fatbin})"
}

func (g *gen) mlirKernel(pkg string, p, s int) string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	name := fmt.Sprintf("%s_k%d", pkg, s)
	w("// %s: y[i] = f(x[i]), %d generated terms (genmonorepo).\n", name, g.terms)
	w("module attributes {gpu.container_module} {\n  gpu.module @%s {\n", name)
	w("    gpu.func @%s(%%n: i32, %%x: !llvm.ptr<1>, %%y: !llvm.ptr<1>) kernel {\n", name)
	w("      %%bid = gpu.block_id x\n      %%bdim = gpu.block_dim x\n      %%tid = gpu.thread_id x\n")
	w("      %%t0 = arith.muli %%bid, %%bdim : index\n      %%i = arith.addi %%t0, %%tid : index\n")
	w("      %%i32 = arith.index_cast %%i : index to i32\n      %%in = arith.cmpi slt, %%i32, %%n : i32\n")
	w("      scf.if %%in {\n")
	w("        %%px = llvm.getelementptr %%x[%%i32] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32\n")
	w("        %%v0 = llvm.load %%px : !llvm.ptr<1> -> f32\n")
	w("        %%a0 = arith.constant 0.0 : f32\n")
	for j := 0; j < g.terms; j++ {
		w("        %%c%d = arith.constant %.4f : f32\n", j, g.constant(p, s, j))
		if (p+s+j)%5 == 4 {
			w("        %%s%d = math.absf %%a%d : f32\n", j, j)
			w("        %%a%d = math.sqrt %%s%d : f32\n", j+1, j)
		} else {
			w("        %%a%d = math.fma %%a%d, %%v%d, %%c%d : f32\n", j+1, j, j, j)
		}
		w("        %%v%d = arith.mulf %%v%d, %%c%d : f32\n", j+1, j, j)
	}
	w("        %%py = llvm.getelementptr %%y[%%i32] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32\n")
	w("        llvm.store %%a%d, %%py : f32, !llvm.ptr<1>\n", g.terms)
	w("      }\n      gpu.return\n    }\n  }\n}\n")
	return b.String()
}

// body: a kernel's arithmetic in CUDA C++, over v and a, with the package's constant.
func (g *gen) body(b *strings.Builder, pkg string, p, s int) {
	for j := 0; j < g.terms; j++ {
		c := g.constant(p, s, j)
		if (p+s+j)%5 == 4 {
			fmt.Fprintf(b, "  a = sqrtf(fabsf(a)); v *= %.4ff;\n", c)
		} else {
			fmt.Fprintf(b, "  a = fmaf(a, v, %.4ff * %s_k); v *= %.4ff;\n", c, pkg, c)
		}
	}
}

func (g *gen) cudaKernel(pkg string, p, s int) string {
	var b strings.Builder
	name := fmt.Sprintf("%s_k%d", pkg, s)
	fmt.Fprintf(&b, "// %s: y[i] = f(x[i]), %d generated terms (genmonorepo).\n#include \"src/%s/common.h\"\n\n", name, g.terms, pkg)
	fmt.Fprintf(&b, "extern \"C\" __global__ void %s(int n, const float *x, float *y) {\n", name)
	b.WriteString("  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i >= n) return;\n  float v = x[i], a = 0.0f;\n")
	g.body(&b, pkg, p, s)
	b.WriteString("  y[i] = a;\n}\n")
	return b.String()
}

func (g *gen) library(pkg string, p, s int) string {
	var b strings.Builder
	name := fmt.Sprintf("%s_lib%d", pkg, s)
	fmt.Fprintf(&b, "// %s: host code launching its kernel (genmonorepo).\n#include \"src/%s/common.h\"\n#include \"src/%s/lib%d.h\"\n", name, pkg, pkg, s)
	if p > 0 {
		fmt.Fprintf(&b, "#include \"src/%s/lib7.h\"\n", pkgName(p-1))
	}
	fmt.Fprintf(&b, "\n__global__ void %s_kernel(int n, float *y) {\n", name)
	b.WriteString("  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i >= n) return;\n  float v = y[i], a = 0.0f;\n")
	g.body(&b, pkg, p, s)
	b.WriteString("  y[i] = a;\n}\n\n")
	fmt.Fprintf(&b, "void %s(int n, float *y) {\n  %s_kernel<<<(n + 127) / 128, 128>>>(n, y);\n", name, name)
	if p > 0 {
		fmt.Fprintf(&b, "  %s_lib7(n, y);\n", pkgName(p-1))
	}
	b.WriteString("}\n")
	return b.String()
}

// program: an MLIR program as examples/mlir has (host code and a gpu.launch), printing its result.
func (g *gen) program(pkg string, p int) string {
	return fmt.Sprintf(`// %s's program (genmonorepo): host memory registered with the GPU, a gpu.launch, the result printed.
module attributes {gpu.container_module} {
  func.func @main() {
    %%c0 = arith.constant 0 : index
    %%c1 = arith.constant 1 : index
    %%c4 = arith.constant 4 : index
    %%m = memref.alloc() : memref<4xf32>
    scf.for %%i = %%c0 to %%c4 step %%c1 {
      %%ii = arith.index_cast %%i : index to i32
      %%f = arith.sitofp %%ii : i32 to f32
      memref.store %%f, %%m[%%i] : memref<4xf32>
    }
    %%u = memref.cast %%m : memref<4xf32> to memref<*xf32>
    gpu.host_register %%u : memref<*xf32>
    gpu.launch blocks(%%bx, %%by, %%bz) in (%%gx = %%c1, %%gy = %%c1, %%gz = %%c1)
               threads(%%tx, %%ty, %%tz) in (%%sx = %%c4, %%sy = %%c1, %%sz = %%c1) {
      %%k = arith.constant %.4f : f32
      %%v = memref.load %%m[%%tx] : memref<4xf32>
      %%w = arith.addf %%v, %%k : f32
      memref.store %%w, %%m[%%tx] : memref<4xf32>
      gpu.terminator
    }
    call @printMemrefF32(%%u) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
`, pkg, g.constant(p, 9, 0))
}
