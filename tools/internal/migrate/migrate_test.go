package migrate

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bazelbuild/buildtools/build"

	"github.com/rulesgpu/rules_gpu/tools/internal/buildfile/buildfiletest"
)

var update = flag.Bool("update", false, "rewrite testdata/*/after and testdata/*/report.txt from what Migrate does")

// Each case migrates the repository testdata/CASE/before and must leave testdata/CASE/after (byte for
// byte; no after: the repository unchanged) and report testdata/CASE/report.txt. Every file name has
// ".txt" added, so that Bazel, buildifier and gazelle do not take their BUILD, MODULE.bazel and .bzl
// files for part of rules_gpu; buildfiletest.CopyRepo drops it.
//
//   - basic: a repository in rules_cuda's style: a cc_library header shared by two cuda_library
//     targets, a cuda_objects in an rdc cuda_library, two sources in one, a cuda_test, an aliased
//     cuda_binary, comments, a .bazelignore'd package; MODULE.bazel's rules_cuda is listed.
//   - ptx: archs whose fatbin needs ptx = [...] on every migrated cuda_library.
//   - bad: what does not translate, beside targets that do in the same files.
//   - aliases: .bazelrc's --flag_alias of rules_cuda's flags (as rules_cuda's examples write them)
//     and their uses; --@rules_cuda//cuda:enable.
var cases = []string{"basic", "ptx", "bad", "aliases"}

func readTree(t *testing.T, dir, suffix string) map[string]string {
	return buildfiletest.ReadTree(t, dir, suffix)
}

// copyCase copies testdata/CASE/before into a temporary directory.
func copyCase(t *testing.T, name string) string {
	t.Helper()
	dir := t.TempDir()
	buildfiletest.CopyRepo(t, filepath.Join("testdata", name, "before"), dir)
	return dir
}

// report is what a test compares with report.txt: the notes, the items not translated, the files
// written.
func report(t *testing.T, res *Result) string {
	t.Helper()
	var b bytes.Buffer
	if err := res.WriteReport(&b); err != nil {
		t.Fatal(err)
	}
	for _, w := range res.Written {
		fmt.Fprintf(&b, "wrote %s\n", w)
	}
	return b.String()
}

// wantTree is the golden result of a case: testdata/CASE/after, or before when it has none.
func wantTree(t *testing.T, name string) map[string]string {
	dir := filepath.Join("testdata", name, "after")
	if _, err := os.Stat(dir); err != nil {
		dir = filepath.Join("testdata", name, "before")
	}
	return readTree(t, dir, ".txt")
}

func compareTrees(t *testing.T, got, want map[string]string, what string) {
	t.Helper()
	for rel, w := range want {
		if g, ok := got[rel]; !ok {
			t.Errorf("%s: missing after the migration", rel)
		} else if g != w {
			t.Errorf("%s differs from %s (go test -update rewrites it)\n--- got\n%s--- want\n%s", rel, what, g, w)
		}
	}
	for rel := range got {
		if _, ok := want[rel]; !ok {
			t.Errorf("%s: left by the migration, not in %s", rel, what)
		}
	}
}

func TestGolden(t *testing.T) {
	for _, name := range cases {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("testdata", name)
			repo := copyCase(t, name)
			res, err := Migrate(repo, Options{})
			if err != nil {
				t.Fatal(err)
			}
			got, rep := readTree(t, repo, ""), report(t, res)
			if *update {
				buildfiletest.WriteGolden(t, dir, got, readTree(t, filepath.Join(dir, "before"), ".txt"), rep)
				return
			}
			compareTrees(t, got, wantTree(t, name), dir+"/after")
			if w, _ := os.ReadFile(filepath.Join(dir, "report.txt")); rep != string(w) {
				t.Errorf("report differs from %s/report.txt (go test -update rewrites it)\n--- got\n%s--- want\n%s", dir, rep, w)
			}
			// Changes and Written name the same files, and Changes hold what was written.
			var paths []string
			for _, c := range res.Changes {
				paths = append(paths, c.Path)
				if string(c.New) != got[c.Path] {
					t.Errorf("Changes' %s differs from the file written", c.Path)
				}
			}
			if !slices.Equal(paths, res.Written) {
				t.Errorf("Changes %q, Written %q", paths, res.Written)
			}
		})
	}
}

// The test repositories' BUILD files are buildifier-formatted, so the goldens differ from them only by
// the migration.
func TestTestdataFormatted(t *testing.T) {
	for _, name := range cases {
		for _, side := range []string{"before", "after"} {
			dir := filepath.Join("testdata", name, side)
			if _, err := os.Stat(dir); err != nil {
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
}

// Migrating the result again changes nothing and notes nothing: what it lists again is only what the
// first run left for the user (MODULE.bazel's rules_cuda, and what did not translate). Once the user
// has replaced MODULE.bazel's rules_cuda as the list says, nothing is listed.
func TestIdempotent(t *testing.T) {
	for _, name := range cases {
		t.Run(name, func(t *testing.T) {
			repo := copyCase(t, name)
			first, err := Migrate(repo, Options{})
			if err != nil {
				t.Fatal(err)
			}
			second, err := Migrate(repo, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(second.Changes) != 0 || len(second.Notes) != 0 {
				t.Fatalf("the second run changes %d files and notes %v", len(second.Changes), second.Notes)
			}
			if name == "bad" {
				// The edited files' lines moved; the same things are listed.
				if len(second.Untranslated) != len(first.Untranslated) {
					t.Errorf("the second run lists %d items, the first %d:\n%v", len(second.Untranslated), len(first.Untranslated), second.Untranslated)
				}
				return
			}
			if !slices.Equal(second.Untranslated, first.Untranslated) {
				t.Errorf("the second run lists\n%v\nthe first\n%v", second.Untranslated, first.Untranslated)
			}
			// The migration is whole: MODULE.bazel's rules_cuda went with the last use of it.
			if len(first.Untranslated) != 0 {
				t.Errorf("listed:\n%s", report(t, first))
			}
		})
	}
}

// A dry run computes the same changes and report and writes nothing.
func TestDryRun(t *testing.T) {
	for _, name := range cases {
		t.Run(name, func(t *testing.T) {
			repo := copyCase(t, name)
			before := readTree(t, repo, "")
			res, err := Migrate(repo, Options{DryRun: true})
			if err != nil {
				t.Fatal(err)
			}
			compareTrees(t, readTree(t, repo, ""), before, "the repository before the dry run")
			if len(res.Written) != 0 {
				t.Errorf("a dry run wrote %v", res.Written)
			}
			want := wantTree(t, name)
			for _, c := range res.Changes {
				if string(c.Old) != before[c.Path] || string(c.New) != want[c.Path] {
					t.Errorf("change of %s: old or new content differs from before and after", c.Path)
				}
				if d := c.Diff(); !strings.HasPrefix(d, "--- a/"+c.Path+"\n+++ b/"+c.Path+"\n@@ ") {
					t.Errorf("diff of %s:\n%s", c.Path, d)
				}
			}
			var rep bytes.Buffer
			res.WriteReport(&rep)
			if w, _ := os.ReadFile(filepath.Join("testdata", name, "report.txt")); !strings.HasPrefix(string(w), rep.String()) {
				t.Errorf("the dry run's report differs from report.txt:\n%s", rep.String())
			}
		})
	}
}

// Every item not translated says what to do.
func TestItemsHaveFixes(t *testing.T) {
	for _, name := range cases {
		res, err := Migrate(copyCase(t, name), Options{DryRun: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range res.Untranslated {
			if !strings.Contains(u.String(), "; fix: ") || u.Line == 0 || u.File == "" {
				t.Errorf("%s: an item without a place or a fix", u)
			}
		}
	}
}

func TestErrors(t *testing.T) {
	// A directory inside a repository is not one.
	repo := copyCase(t, "basic")
	if _, err := Migrate(filepath.Join(repo, "lib"), Options{}); err == nil || !strings.Contains(err.Error(), "not the root of a Bazel repository") ||
		!strings.Contains(err.Error(), "the repository around it is "+repo) {
		t.Errorf("Migrate of a package: %v", err)
	}
	if _, err := Migrate(filepath.Join(repo, "nope"), Options{}); err == nil {
		t.Errorf("Migrate of a missing directory: no error")
	}
	// A BUILD file that does not parse is an error naming its file and line; nothing is written.
	broken := filepath.Join(repo, "broken", "BUILD.bazel")
	os.MkdirAll(filepath.Dir(broken), 0o755)
	if err := os.WriteFile(broken, []byte("cuda_library(\n    name = \"x\",\n    srcs = [\"x.cu\"\n)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := readTree(t, repo, "")
	_, err := Migrate(repo, Options{})
	var pe build.ParseError
	if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), "broken/BUILD.bazel:4:") {
		t.Errorf("Migrate with a broken BUILD file: %v", err)
	}
	compareTrees(t, readTree(t, repo, ""), before, "the repository before")
}

// Targets whose callee is bound to another rule, a file that only loads rules_cuda, and the names
// rules_gpu's rules get.
func TestLoads(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		untranslated   int
	}{
		{"an unused load goes",
			`load("@rules_cuda//cuda:defs.bzl", "cuda_library")
`, ``, 0},
		{"an existing rules_gpu load is reused",
			`load("@rules_cuda//cuda:defs.bzl", "cuda_test")
load("@rules_gpu//rules:defs.bzl", lib = "cuda_library")

cuda_test(
    name = "t",
    srcs = ["t.cu"],
)
`, `load("@rules_gpu//rules:defs.bzl", "gpu_cc_test", lib = "cuda_library")

lib(
    name = "t_lib",
    testonly = True,
    srcs = ["t.cu"],
    alwayslink = True,
)

gpu_cc_test(
    name = "t",
    deps = [":t_lib"],
)
`, 0},
		{"cc_binary loaded already",
			`load("@rules_cc//cc:defs.bzl", "cc_binary")
load("@rules_cuda//cuda:defs.bzl", "cuda_binary")

cuda_binary(
    name = "b",
    srcs = ["b.cu"],
    visibility = ["//visibility:public"],
)
`, `load("@rules_cc//cc:defs.bzl", "cc_binary")
load("@rules_gpu//rules:defs.bzl", "cuda_library")

cuda_library(
    name = "b_lib",
    srcs = ["b.cu"],
    alwayslink = True,
)

cc_binary(
    name = "b",
    visibility = ["//visibility:public"],
    deps = [":b_lib"],
)
`, 0},
		{"a glob of .cu sources is kept",
			`load("@rules_cuda//cuda:defs.bzl", "cuda_library")

cuda_library(
    name = "k",
    srcs = glob(["*.cu"]),
    hdrs = glob(["*.cuh"]),
    deps = select({"//conditions:default": []}),
)
`, `load("@rules_gpu//rules:defs.bzl", "cuda_library")

cuda_library(
    name = "k",
    srcs = glob(["*.cu"]),
    hdrs = glob(["*.cuh"]),
    deps = select({"//conditions:default": []}),
)
`, 0},
		{"a cuda_objects is rules_gpu's cuda_objects",
			`load("@rules_cuda//cuda:defs.bzl", "cuda_library", "cuda_objects")

# Helpers.
cuda_objects(
    name = "helpers",
    srcs = glob(["helper_*.cu"]),
)

cuda_library(
    name = "k",
    srcs = ["k.cu"],
    deps = [":helpers"],
)
`, `load("@rules_gpu//rules:defs.bzl", "cuda_library", "cuda_objects")

# Helpers.
cuda_objects(
    name = "helpers",
    srcs = glob(["helper_*.cu"]),
)

cuda_library(
    name = "k",
    srcs = ["k.cu"],
    deps = [":helpers"],
)
`, 0},
		{"a library of cuda_objects alone, rdc = 1",
			`load("@rules_cuda//cuda:defs.bzl", "cuda_library", "cuda_objects")

cuda_objects(
    name = "caller",
    srcs = ["caller.cu", "callee.cuh"],
    deps = [":callee"],
)

cuda_objects(
    name = "callee",
    srcs = ["callee.cu"],
    hdrs = ["callee.cuh"],
)

cuda_library(
    name = "linked",
    rdc = 1,
    deps = [":caller", ":callee"],
)

cc_binary(
    name = "main",
    deps = [":linked", "@local_cuda//:cuda_runtime"],
)
`, `load("@rules_gpu//rules:defs.bzl", "cuda_library", "cuda_objects")

cuda_objects(
    name = "caller",
    srcs = ["caller.cu"],
    hdrs = ["callee.cuh"],
    deps = [":callee"],
)

cuda_objects(
    name = "callee",
    srcs = ["callee.cu"],
    hdrs = ["callee.cuh"],
)

cuda_library(
    name = "linked",
    rdc = 1,
    deps = [
        ":callee",
        ":caller",
    ],
)

cc_binary(
    name = "main",
    deps = [
        ":linked",
        "@rules_gpu//cuda:runtime",
    ],
)
`, 0},
		{"a test beside a target that stays rules_cuda's",
			`load("@rules_cuda//cuda:defs.bzl", "cuda_library", "cuda_test")

cuda_library(
    name = "k",
    srcs = ["k.cu"],
    local_defines = ["K"],
)

cuda_test(
    name = "t",
    srcs = ["t.cu"],
    deps = ["//other:lib"],
)
`, `load("@rules_cuda//cuda:defs.bzl", "cuda_library")
load("@rules_gpu//rules:defs.bzl", "gpu_cc_test", gpu_cuda_library = "cuda_library")

cuda_library(
    name = "k",
    srcs = ["k.cu"],
    local_defines = ["K"],
)

gpu_cuda_library(
    name = "t_lib",
    testonly = True,
    srcs = ["t.cu"],
    deps = ["//other:lib"],
    alwayslink = True,
)

gpu_cc_test(
    name = "t",
    deps = [":t_lib"],
)
`, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "MODULE.bazel"), nil, 0o644)
			if err := os.WriteFile(filepath.Join(dir, "BUILD.bazel"), []byte(tc.in), 0o644); err != nil {
				t.Fatal(err)
			}
			res, err := Migrate(dir, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Untranslated) != tc.untranslated {
				t.Errorf("not translated: %v; want %d items", res.Untranslated, tc.untranslated)
			}
			got, _ := os.ReadFile(filepath.Join(dir, "BUILD.bazel"))
			if string(got) != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// A MODULE.bazel that has rules_gpu's bazel_dep by an include() gets no second one, nor toolchains.
func TestModuleIncludesRulesGPU(t *testing.T) {
	repo := t.TempDir()
	files := map[string]string{
		"MODULE.bazel":      "module(name = \"m\")\n\ninclude(\"//:deps.MODULE.bazel\")\n",
		"deps.MODULE.bazel": "bazel_dep(name = \"rules_gpu\", version = \"0.1.0\")\n",
		"BUILD.bazel":       "load(\"@rules_cuda//cuda:defs.bzl\", \"cuda_library\")\n\ncuda_library(\n    name = \"k\",\n    srcs = [\"k.cu\"],\n)\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(repo, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Migrate(repo, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(res.Written, "MODULE.bazel") {
		t.Errorf("wrote MODULE.bazel:\n%s", report(t, res))
	}
}

// A repository whose .bazelrc sets no archs (rules_cuda left them to nvcc) gets rules_gpu's chips
// flag in .bazelrc, created if need be; one that sets archs, or rules_gpu's chips, on its plain
// build lines (translated or not) does not.
func TestDefaultChips(t *testing.T) {
	const build = "load(\"@rules_cuda//cuda:defs.bzl\", \"cuda_library\")\n\ncuda_library(\n    name = \"k\",\n    srcs = [\"k.cu\"],\n)\n"
	const added = "\n# The chips of every target that names none (gpubuild migrate: rules_cuda left them to nvcc).\nbuild --@rules_gpu//gpu:chips=sm_75\n"
	for _, tc := range []struct {
		name, bazelrc, want string // bazelrc "-": none
	}{
		{"no bazelrc", "-", strings.TrimPrefix(added, "\n")},
		{"no archs", "build --cxxopt=-std=c++17", "build --cxxopt=-std=c++17\n" + added},
		{"archs of a config only", "build:hopper --@rules_cuda//cuda:archs=compute_90:compute_90,sm_90\n", "build:hopper --@rules_gpu//gpu:chips=sm_90\n" + added},
		{"archs", "build --@rules_cuda//cuda:archs=compute_90:compute_90,sm_90\n", "build --@rules_gpu//gpu:chips=sm_90\n"},
		{"archs that do not translate", "build --@rules_cuda//cuda:archs=sm_8x\n", "build --@rules_cuda//cuda:archs=sm_8x\n"},
		{"rules_gpu's chips", "common --@rules_gpu//gpu:chips=sm_90\n", "common --@rules_gpu//gpu:chips=sm_90\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo := t.TempDir()
			files := map[string]string{"MODULE.bazel": "", "BUILD.bazel": build}
			if tc.bazelrc != "-" {
				files[".bazelrc"] = tc.bazelrc
			}
			for name, text := range files {
				if err := os.WriteFile(filepath.Join(repo, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := Migrate(repo, Options{}); err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(filepath.Join(repo, ".bazelrc"))
			if string(got) != tc.want {
				t.Errorf(".bazelrc:\n%s\nwant\n%s", got, tc.want)
			}
			again, err := Migrate(repo, Options{})
			if err != nil || len(again.Changes) != 0 {
				t.Errorf("a second run: %v, %d changes", err, len(again.Changes))
			}
		})
	}
}
