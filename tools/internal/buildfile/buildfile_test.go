package buildfile

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bazelbuild/buildtools/build"

	"github.com/rulesgpu/rules_gpu/tools/chip"
	"github.com/rulesgpu/rules_gpu/tools/internal/buildfile/buildfiletest"
)

var update = flag.Bool("update", false, "rewrite testdata/*/after and testdata/*/report.txt from what the operations do")

// Every operation starts from the test repository testdata/repo and must leave testdata/CASE/after
// (byte for byte; no after: the repository unchanged), with ".txt" added to every file name so that
// Bazel, buildifier and gazelle do not take their BUILD and MODULE.bazel files for part of rules_gpu.
// copyRepo drops the suffix; testdata/CASE/report.txt is what the operation reports.
const testRepoDir = "testdata/repo"

func copyRepo(t *testing.T, src, dst string) { buildfiletest.CopyRepo(t, src, dst) }

func readTree(t *testing.T, dir, suffix string) map[string]string {
	return buildfiletest.ReadTree(t, dir, suffix)
}

// lines joins what an operation reports, one item a line.
func lines[T fmt.Stringer](items []T) string {
	var b strings.Builder
	for _, it := range items {
		fmt.Fprintln(&b, it)
	}
	return b.String()
}

func paths(ps []string) string {
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintf(&b, "wrote %s\n", p)
	}
	return b.String()
}

// Each operation turns testdata/CASE/before into testdata/CASE/after and reports testdata/CASE/report.txt.
func TestGolden(t *testing.T) {
	cuda13 := chip.Toolkit{Major: 13, Minor: 0}
	for _, tc := range []struct {
		name string
		op   func(r *Repo) (string, error)
	}{
		{"list", func(r *Repo) (string, error) {
			targets, skipped, err := r.Find(nil)
			var b bytes.Buffer
			if err == nil {
				err = WriteTable(&b, targets)
			}
			return b.String() + lines(skipped), err
		}},
		// Set names the chips of a target that had none, and replaces others; sorted, deduplicated.
		{"set", func(r *Repo) (string, error) {
			edits, err := r.Set([]string{"//app:reduce", "//lib:all"}, []string{"sm_90", "sm_80", "sm_90"})
			return lines(edits), err
		}},
		// Add leaves targets on the default chips and computed chips alone; several patterns.
		{"add", func(r *Repo) (string, error) {
			edits, err := r.Add([]string{"//app:saxpy", "//app:reduce", "//app:tuned", "//lib/..."}, []string{"sm_100", "sm_90a"})
			return lines(edits), err
		}},
		{"remove", func(r *Repo) (string, error) {
			edits, err := r.Remove([]string{"//app/..."}, []string{"sm_90", "sm_50"})
			return lines(edits), err
		}},
		// CUDA 13.0: sm_50, sm_60, sm_70 become sm_75 (once), sm_101 is renamed sm_110.
		{"toolkit", func(r *Repo) (string, error) {
			changes, err := r.Retarget(nil, cuda13)
			return lines(changes), err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join("testdata", tc.name)
			repo := t.TempDir()
			copyRepo(t, testRepoDir, repo)
			r, err := Open(repo)
			if err != nil {
				t.Fatal(err)
			}
			report, err := tc.op(r)
			if err != nil {
				t.Fatal(err)
			}
			written, err := r.Write()
			if err != nil {
				t.Fatal(err)
			}
			report += paths(written)
			got := readTree(t, repo, "")
			if *update {
				buildfiletest.WriteGolden(t, dir, got, readTree(t, testRepoDir, ".txt"), report)
				return
			}
			wantDir := filepath.Join(dir, "after")
			if _, err := os.Stat(wantDir); err != nil {
				wantDir = testRepoDir
			}
			want := readTree(t, wantDir, ".txt")
			for rel, w := range want {
				if g, ok := got[rel]; !ok {
					t.Errorf("%s: missing after the operation", rel)
				} else if g != w {
					t.Errorf("%s differs from %s/after (go test -update rewrites it)\n--- got\n%s--- want\n%s", rel, dir, g, w)
				}
			}
			for rel := range got {
				if _, ok := want[rel]; !ok {
					t.Errorf("%s: left by the operation, not in %s/after", rel, dir)
				}
			}
			if w, _ := os.ReadFile(filepath.Join(dir, "report.txt")); report != string(w) {
				t.Errorf("report differs from %s/report.txt (go test -update rewrites it)\n--- got\n%s--- want\n%s", dir, report, w)
			}
		})
	}
}

// The test repositories are buildifier-formatted, so the goldens differ from them only by the edits.
func TestTestdataFormatted(t *testing.T) {
	dirs, _ := filepath.Glob("testdata/*/after")
	dirs = append(dirs, testRepoDir)
	for _, dir := range dirs {
		if info, err := os.Stat(dir); err != nil || !info.IsDir() {
			continue
		}
		for rel, data := range readTree(t, dir, ".txt") {
			if !strings.HasPrefix(filepath.Base(rel), "BUILD") {
				continue
			}
			f, err := build.ParseBuild(rel, []byte(data))
			if err != nil {
				t.Errorf("%s/%s: %v", dir, rel, err)
				continue
			}
			if out := build.Format(f); string(out) != data {
				t.Errorf("%s/%s is not buildifier-formatted:\n%s", dir, rel, out)
			}
		}
	}
}

// testRepo copies testdata/repo into a temporary directory and opens it.
func testRepo(t *testing.T) (*Repo, string) {
	t.Helper()
	dir := t.TempDir()
	copyRepo(t, testRepoDir, dir)
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r, dir
}

func TestFindPatterns(t *testing.T) {
	r, _ := testRepo(t)
	for _, tc := range []struct {
		patterns []string
		want     string // the labels, space-separated
	}{
		{nil, "//app:saxpy //app:reduce //app:legacy //app:tuned //lib:softmax //lib:thor"},
		{[]string{"//..."}, "//app:saxpy //app:reduce //app:legacy //app:tuned //lib:softmax //lib:thor"},
		{[]string{"//lib/..."}, "//lib:softmax //lib:thor"},
		{[]string{"//lib/...:all"}, "//lib:softmax //lib:thor"},
		{[]string{"//lib:all"}, "//lib:softmax //lib:thor"},
		{[]string{"//lib:*"}, "//lib:softmax //lib:thor"},
		{[]string{"//lib:thor"}, "//lib:thor"},
		// Package order, each target once, whatever the patterns' order and overlap.
		{[]string{"//lib:thor", "//app:legacy", "//lib:all", "//app:legacy"}, "//app:legacy //lib:softmax //lib:thor"},
	} {
		targets, _, err := r.Find(tc.patterns)
		if err != nil {
			t.Errorf("Find(%q): %v", tc.patterns, err)
			continue
		}
		var got []string
		for _, tg := range targets {
			got = append(got, tg.Label)
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("Find(%q) = %s, want %s", tc.patterns, strings.Join(got, " "), tc.want)
		}
	}
}

func TestFindTarget(t *testing.T) {
	r, _ := testRepo(t)
	targets, skipped, err := r.Find([]string{"//app:reduce", "//app:tuned", "//lib:softmax"})
	if err != nil {
		t.Fatal(err)
	}
	reduce, tuned, softmax := targets[0], targets[1], targets[2]
	if reduce.Chips != nil || reduce.Format != "bin" || reduce.RunsOn != nil || reduce.Where() != "app/BUILD.bazel:16" || reduce.Kind != "gpu_module" {
		t.Errorf("reduce: %+v", reduce)
	}
	if tuned.Chips != nil || !strings.HasPrefix(tuned.ChipsExpr, "select(") || tuned.Format != DefaultFormat {
		t.Errorf("tuned: %+v", tuned)
	}
	if softmax.Kind != "gpu" || softmax.Label != "//lib:softmax" || softmax.File != "lib/BUILD" || softmax.Line != 4 {
		t.Errorf("softmax (loaded as gpu, in a file named BUILD): %+v", softmax)
	}
	if len(skipped) != 0 {
		t.Errorf("named targets report no skipped calls: %v", skipped)
	}
}

// The name gpu_module counts when no load binds it to something else; a load from rules:defs.bzl of
// any repository binds its alias.
func TestGPUModuleNames(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want string
	}{
		{`load("@rules_gpu//rules:defs.bzl", "gpu_module")`, "cuda_library gpu_binary gpu_module gpu_test"},
		{`load("@rules_gpu//rules:defs.bzl", g = "gpu_module")`, "cuda_library g gpu_binary gpu_module gpu_test"},
		{`load("//rules:defs.bzl", g = "gpu_module")`, "cuda_library g gpu_binary gpu_module gpu_test"},
		{`load("@@rules_gpu+//rules:defs.bzl", g = "gpu_module")`, "cuda_library g gpu_binary gpu_module gpu_test"},
		{`load("//my:macros.bzl", "gpu_module")`, "cuda_library gpu_binary gpu_module gpu_test"},
		{`load("//my:macros.bzl", gpu_module = "my_rule")`, "cuda_library gpu_binary gpu_test"},
		{`load("//other/rules:defs.bzl", g = "gpu_module")`, "cuda_library gpu_binary gpu_module gpu_test"},
		{``, "cuda_library gpu_binary gpu_module gpu_test"},
		{`load("@rules_gpu//rules:defs.bzl", c = "cuda_library")`, "c cuda_library gpu_binary gpu_module gpu_test"},
		{`load("//my:macros.bzl", cuda_library = "my_rule")`, "gpu_binary gpu_module gpu_test"},
		{`load("@rules_gpu//rules:defs.bzl", t = "gpu_test")`, "cuda_library gpu_binary gpu_module gpu_test t"},
		{`load("//my:macros.bzl", gpu_test = "my_test")`, "cuda_library gpu_binary gpu_module"},
	} {
		f, err := build.ParseBuild("BUILD", []byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, n := range []string{"c", "cuda_library", "g", "gpu_binary", "gpu_module", "gpu_test", "t"} {
			if gpuModuleNames(f)[n] {
				got = append(got, n)
			}
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%s: names %q, want %q", tc.src, got, tc.want)
		}
	}
}

// rules_cuda's macros over cuda_library have chips too: gpubuild chips lists and edits them.
func TestChipMacros(t *testing.T) {
	f, err := build.ParseBuild("BUILD", []byte(`load("@rules_gpu//rules:defs.bzl", "cuda_binary", t = "cuda_test")`))
	if err != nil {
		t.Fatal(err)
	}
	names := gpuModuleNames(f)
	for _, n := range []string{"cuda_binary", "cuda_test", "t"} {
		if !names[n] {
			t.Errorf("%s is not among the names of rules with chips: %v", n, names)
		}
	}
}

func TestParsePattern(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want pattern // text is filled in from in
		bad  bool
	}{
		{in: "//...", want: pattern{recursive: true}},
		{in: "//...:all", want: pattern{recursive: true}},
		{in: "//a/b/...", want: pattern{pkg: "a/b", recursive: true}},
		{in: "//a:all", want: pattern{pkg: "a"}},
		{in: "//a:*", want: pattern{pkg: "a"}},
		{in: "//a:x", want: pattern{pkg: "a", name: "x"}},
		{in: "//a/b", want: pattern{pkg: "a/b", name: "b"}},
		{in: "//:x", want: pattern{name: "x"}},
		{in: "//:all", want: pattern{}},
		{in: "a:x", bad: true},
		{in: ":x", bad: true},
		{in: "@repo//a:x", bad: true},
		{in: "//a:", bad: true},
		{in: "//a:x:y", bad: true},
		{in: "//a//b:x", bad: true},
		{in: "//a/../b:x", bad: true},
		{in: "//a/:x", bad: true},
		{in: "//a/...:x", bad: true},
		{in: "//", bad: true},
	} {
		got, err := parsePattern(tc.in)
		if tc.bad {
			if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%q", tc.in)) || !strings.Contains(err.Error(), "//pkg:name") {
				t.Errorf("parsePattern(%q) = %+v, %v; want an error that names it and the forms", tc.in, got, err)
			}
			continue
		}
		tc.want.text = tc.in
		if err != nil || got != tc.want {
			t.Errorf("parsePattern(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
}

func TestSortChips(t *testing.T) {
	got := sortChips([]string{"sm_100", "sm_90a", "sm_90", "sm_100f", "sm_80", "bogus", "sm_90", "sm_100a", "sm_75", "bogus"})
	want := "sm_75 sm_80 sm_90 sm_90a sm_100 sm_100a sm_100f bogus"
	if strings.Join(got, " ") != want {
		t.Errorf("sortChips = %v, want %s", got, want)
	}
}

// Every refusal names what it refuses: the chip, the pattern, the target and its file and line.
func TestErrors(t *testing.T) {
	type op func(r *Repo) error
	edit := func(f func(*Repo) func([]string, []string) ([]Edit, error), patterns []string, chips ...string) op {
		return func(r *Repo) error { _, err := f(r)(patterns, chips); return err }
	}
	set := func(r *Repo) func([]string, []string) ([]Edit, error) { return r.Set }
	add := func(r *Repo) func([]string, []string) ([]Edit, error) { return r.Add }
	remove := func(r *Repo) func([]string, []string) ([]Edit, error) { return r.Remove }
	find := func(patterns ...string) op {
		return func(r *Repo) error { _, _, err := r.Find(patterns); return err }
	}
	retarget := func(major, minor int, patterns ...string) op {
		return func(r *Repo) error {
			_, err := r.Retarget(patterns, chip.Toolkit{Major: major, Minor: minor})
			return err
		}
	}
	saxpy := []string{"//app:saxpy"}
	for _, tc := range []struct {
		name string
		op   op
		want []string
	}{
		{"unknown chip", edit(set, saxpy, "sm_80", "sm_99"), []string{`"sm_99"`, "not in the chip table", "sm_35, sm_37", "sm_121f", "docs/chips.md"}},
		{"misnamed chip", edit(add, saxpy, "gfx90a"), []string{`"gfx90a"`, "named like sm_80", "docs/chips.md"}},
		{"non-canonical chip", edit(add, saxpy, "sm_080"), []string{`"sm_080"`, "write it sm_80"}},
		{"virtual chip", edit(add, saxpy, "compute_90"), []string{"compute_90 is a virtual chip", "sm_90"}},
		{"unknown chip to remove", edit(remove, saxpy, "sm_99"), []string{`"sm_99"`, "not in the chip table"}},
		{"set nothing", edit(set, saxpy), []string{"at least one chip"}},
		{"last chip", edit(remove, []string{"//app:saxpy", "//lib:softmax"}, "sm_90a"), []string{"//lib:softmax", "lib/BUILD:4", "sm_90a", "no chips"}},
		{"bad pattern", find("app:saxpy"), []string{`"app:saxpy"`, "start with //"}},
		{"no such package", find("//nope:all"), []string{"//nope:all", "no package //nope"}},
		{"other repository", find("//nested:elsewhere"), []string{"//nested:elsewhere", "no package //nested"}},
		{"ignored directory", find("//ignored/..."), []string{"//ignored/...", "no gpu_module target"}},
		{"no such target", find("//app:nope"), []string{"//app:nope", "app/BUILD.bazel", `"nope"`}},
		{"not a gpu_module", find("//app:sources"), []string{"//app:sources", "filegroup"}},
		{"made by a comprehension", find("//lib:gemm_f16"), []string{"//lib:gemm_f16", "lib/BUILD:21", "list comprehension"}},
		{"no replacement", retarget(12, 4, "//lib/..."), []string{"//lib:thor", "lib/BUILD:12", "sm_101", "CUDA 12.4"}},
		{"unknown toolkit", retarget(14, 0), []string{"CUDA 14.0", "not in the chip table"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, dir := testRepo(t)
			before := readTree(t, dir, "")
			err := tc.op(r)
			if err == nil {
				t.Fatalf("no error; want one that says %q", tc.want)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			// A refused edit changes nothing, in memory or on disk.
			if written, err := r.Write(); err != nil || len(written) != 0 {
				t.Errorf("after a refused edit, Write wrote %v (%v)", written, err)
			}
			after := readTree(t, dir, "")
			for rel := range before {
				if before[rel] != after[rel] {
					t.Errorf("%s changed", rel)
				}
			}
		})
	}
}

// A BUILD file that does not parse is an error naming its file and line, raised only by patterns that
// reach its package.
func TestMalformedBuildFile(t *testing.T) {
	r, dir := testRepo(t)
	broken := filepath.Join(dir, "broken", "BUILD.bazel")
	os.MkdirAll(filepath.Dir(broken), 0o755)
	if err := os.WriteFile(broken, []byte("gpu_module(\n    name = \"x\",\n    chips = [\"sm_80\"\n)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.Find([]string{"//app:all"}); err != nil {
		t.Errorf("a pattern that does not reach the broken package: %v", err)
	}
	_, _, err = r.Find(nil)
	var pe build.ParseError
	if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), "broken/BUILD.bazel:4:") {
		t.Errorf("Find(//...) = %v, want broken/BUILD.bazel:4:...", err)
	}
}

func TestOpen(t *testing.T) {
	if _, err := Open(t.TempDir()); err == nil || !strings.Contains(err.Error(), "not the root of a Bazel repository") {
		t.Errorf("Open of a directory without MODULE.bazel or WORKSPACE: %v", err)
	}
	// bazel-* links are not followed, and a WORKSPACE makes a root too.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "WORKSPACE"), nil, 0o644)
	out := t.TempDir()
	copyRepo(t, testRepoDir+"/app", filepath.Join(out, "app"))
	os.WriteFile(filepath.Join(out, "MODULE.bazel"), nil, 0o644)
	if err := os.Symlink(out, filepath.Join(dir, "bazel-out")); err != nil {
		t.Skip(err)
	}
	targets, err := Find(dir, nil)
	if err != nil || len(targets) != 0 {
		t.Errorf("Find in a repository whose only BUILD files are behind bazel-out: %v, %v", targets, err)
	}
	root, err := FindRoot(filepath.Join(out, "app"))
	if err != nil || root != out {
		t.Errorf("FindRoot(%s/app) = %s, %v", out, root, err)
	}
}

// Write writes only the files an edit changed, keeps their mode, and leaves no temporary file.
func TestWrite(t *testing.T) {
	r, dir := testRepo(t)
	lib := filepath.Join(dir, "lib", "BUILD")
	os.Chmod(lib, 0o600)
	appFile := filepath.Join(dir, "app", "BUILD.bazel")
	// A file that is not buildifier-formatted is left as it is unless edited.
	messy := "load(\"@rules_gpu//rules:defs.bzl\", \"gpu_module\")\ngpu_module(name='m', srcs=['m.mlir'], chips=['sm_80'])\n"
	os.WriteFile(appFile, []byte(messy), 0o644)
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Set to the chips a target has already: nothing to write.
	if edits, err := r.Set([]string{"//app:m"}, []string{"sm_80"}); err != nil || len(edits) != 0 {
		t.Errorf("Set to the same chips: %v, %v", edits, err)
	}
	if _, err := r.Add([]string{"//lib:softmax"}, []string{"sm_100"}); err != nil {
		t.Fatal(err)
	}
	written, err := r.Write()
	if err != nil || strings.Join(written, " ") != "lib/BUILD" {
		t.Fatalf("Write = %v, %v; want lib/BUILD", written, err)
	}
	if data, _ := os.ReadFile(appFile); string(data) != messy {
		t.Errorf("app/BUILD.bazel, not edited, was rewritten:\n%s", data)
	}
	if info, err := os.Stat(lib); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("lib/BUILD's mode: %v, %v; want 0600 kept", info.Mode(), err)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "lib"))
	if len(entries) != 1 {
		t.Errorf("lib/ holds %v; want only BUILD (no temporary file left)", entries)
	}
	// Written once: a second Write has nothing to do.
	if written, err := r.Write(); err != nil || len(written) != 0 {
		t.Errorf("second Write = %v, %v", written, err)
	}
}
