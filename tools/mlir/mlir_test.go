package mlir

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/internal/testtool"
)

// The MLIR tests check Attach against MLIR 21 itself: mlir-opt-21 from MLIR_OPT (a runfiles path
// under Bazel) or PATH (env/env.sh run go test ./tools/mlir/). Without it they skip.

func mlirOpt(t *testing.T) string {
	t.Helper()
	return testtool.LLVM(t, "mlir-opt")
}

// runOpt runs mlir-opt on src (as stdin) and returns what it prints.
func runOpt(opt string, src []byte, args ...string) (string, error) {
	cmd := exec.Command(opt, args...)
	cmd.Stdin = bytes.NewReader(src)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("mlir-opt %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return stdout.String(), nil
}

// passOption is t as mlir-opt's --nvvm-attach-target option: the pipeline's pass, as a flag.
func passOption(t Target) string {
	return "--" + strings.Replace(strings.TrimSuffix(t.Pass(), "}"), "{", "=", 1)
}

func sortedSets() []string {
	var names []string
	for n := range optionSets {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// TestMLIREquivalence: for every testdata input and option set, mlir-opt-21 prints our output
// exactly as it prints its own --nvvm-attach-target result on the input.
func TestMLIREquivalence(t *testing.T) {
	opt := mlirOpt(t)
	inputs, err := filepath.Glob("testdata/*.mlir")
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no inputs: %v", err)
	}
	var ran atomic.Int64
	t.Run("cases", func(t *testing.T) {
		for _, in := range inputs {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			for _, set := range sortedSets() {
				tg := optionSets[set]
				t.Run(strings.TrimSuffix(filepath.Base(in), ".mlir")+"."+set, func(t *testing.T) {
					t.Parallel()
					checkEquivalent(t, opt, src, tg)
					ran.Add(1)
				})
			}
		}
	})
	t.Logf("%d input × option set cases agree with mlir-opt-21", ran.Load())
}

// TestMLIRSmall runs TestAttachSmall's inputs (those MLIR accepts) and the attribute table through
// mlir-opt-21 too.
func TestMLIRSmall(t *testing.T) {
	opt := mlirOpt(t)
	var ran, rejected atomic.Int64
	t.Run("cases", func(t *testing.T) {
		for _, tc := range smallCases {
			in := tc.in
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				if _, err := runOpt(opt, []byte(in), "--allow-unregistered-dialect"); err != nil {
					rejected.Add(1)
					t.Logf("mlir-opt rejects the input, left out: %q", in)
					return
				}
				for _, tg := range []Target{tc.t, optionSets["default"], optionSets["sm90"], optionSets["select_k1"]} {
					checkEquivalent(t, opt, []byte(in), tg)
				}
				ran.Add(1)
			})
		}
		for _, tc := range attributeCases {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				// MLIR prints our attribute as we print it.
				src := "gpu.module @k [" + tc.want + "] {\n}\n"
				got, err := runOpt(opt, []byte(src), "--mlir-print-debuginfo=false")
				if err != nil {
					t.Fatal(err)
				}
				if want := "module {\n  gpu.module @k [" + tc.want + "] {\n  }\n}"; strings.TrimSpace(got) != want {
					t.Errorf("mlir-opt prints\n%s\nwant\n%s", got, want)
				}
				ran.Add(1)
			})
		}
	})
	t.Logf("%d cases agree with mlir-opt-21; %d inputs mlir-opt rejects were left out", ran.Load(), rejected.Load())
}

func checkEquivalent(t *testing.T, opt string, src []byte, tg Target) {
	t.Helper()
	ours, _, err := Attach(src, tg)
	if err != nil {
		t.Fatal(err)
	}
	want, err := runOpt(opt, src, "--allow-unregistered-dialect", passOption(tg))
	if err != nil {
		t.Fatal(err)
	}
	got, err := runOpt(opt, ours, "--allow-unregistered-dialect")
	if err != nil {
		t.Fatalf("mlir-opt rejects our output: %v\n%s", err, ours)
	}
	if got != want {
		t.Errorf("with %s: mlir-opt prints our output as\n%s\nbut its own pass gives\n%s\nour output:\n%s", passOption(tg), got, want, ours)
	}
}

// The serializer pipeline: lower the gpu.modules to NVVM, then MLIR's gpu-module-to-binary turns
// each into a gpu.binary with one object per target.
func pipeline(format string) string {
	return "--pass-pipeline=builtin.module(gpu.module(convert-scf-to-cf,convert-gpu-to-nvvm,reconcile-unrealized-casts),gpu-module-to-binary{format=" + format + "})"
}

// TestMLIRSerializer: MLIR's own serializer takes the targets we attach: the saxpy module lowers
// and serializes to PTX (format=isa) for each option set, and to a cubin through ptxas
// (format=bin, with the ptxas options) when ptxas is on PATH. Linking uses a real bitcode library
// made with llvm-as-21.
func TestMLIRSerializer(t *testing.T) {
	opt := mlirOpt(t)
	src := readTestdata(t, "saxpy.mlir")
	lib := bitcodeLibrary(t)
	_, ptxasErr := exec.LookPath("ptxas")
	sets := map[string]Target{}
	for _, n := range []string{"default", "sm90", "fastftz", "ptxas", "ptxasq", "triple", "full"} {
		sets[n] = optionSets[n]
	}
	full := sets["full"]
	full.Link = []string{lib}
	sets["full"] = full
	sets["link"] = with(func(t *Target) { t.Chip, t.Link = "sm_90", []string{lib} })
	ran := 0
	for _, name := range []string{"default", "sm90", "fastftz", "ptxas", "ptxasq", "triple", "full", "link"} {
		tg := sets[name]
		ours, _, err := Attach(src, tg)
		if err != nil {
			t.Fatal(err)
		}
		formats := []string{"isa"}
		if ptxasErr == nil && (tg.PtxasOptions != "" || name == "sm90") {
			formats = append(formats, "bin")
		}
		for _, format := range formats {
			t.Run(name+"."+format, func(t *testing.T) {
				out, err := runOpt(opt, ours, pipeline(format))
				if err != nil {
					t.Fatalf("%v\ninput:\n%s", err, ours)
				}
				if !strings.Contains(out, "gpu.binary @kernels") || !strings.Contains(out, "#gpu.object<"+tg.Attribute()+",") {
					t.Errorf("no gpu.binary with an object for %s:\n%.2000s", tg.Attribute(), out)
				}
				if format == "isa" && !strings.Contains(out, `.target `+tg.Chip) {
					t.Errorf("the PTX is not for %s:\n%.2000s", tg.Chip, out)
				}
				ran++
			})
		}
	}
	t.Logf("%d serializations of our output by gpu-module-to-binary", ran)
}

// bitcodeLibrary assembles a small NVPTX bitcode library for the link option.
func bitcodeLibrary(t *testing.T) string {
	t.Helper()
	as := testtool.LLVM(t, "llvm-as")
	dir := t.TempDir()
	ll := filepath.Join(dir, "lib.ll")
	ir := "target triple = \"nvptx64-nvidia-cuda\"\n\ndefine float @twice(float %x) {\n  %y = fadd float %x, %x\n  ret float %y\n}\n"
	if err := os.WriteFile(ll, []byte(ir), 0o644); err != nil {
		t.Fatal(err)
	}
	bc := filepath.Join(dir, "lib.bc")
	if out, err := exec.Command(as, "-o", bc, ll).CombinedOutput(); err != nil {
		t.Fatalf("llvm-as: %v\n%s", err, out)
	}
	return bc
}

// TestMLIRRegex: the module regexes Validate accepts select the modules MLIR selects.
func TestMLIRRegex(t *testing.T) {
	opt := mlirOpt(t)
	var src strings.Builder
	for _, n := range regexNames {
		src.WriteString("gpu.module @" + quote(n) + " {\n}\n")
	}
	ran := 0
	for _, tc := range regexCases {
		if !tc.ok {
			continue
		}
		checkEquivalent(t, opt, []byte(src.String()), with(func(t *Target) { t.Module = tc.re }))
		ran++
	}
	t.Logf("%d module regexes select what mlir-opt-21 selects", ran)
}
