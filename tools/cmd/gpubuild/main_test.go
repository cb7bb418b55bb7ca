package main

import (
	"bytes"
	"context"
	_ "embed"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/internal/buildfile/buildfiletest"
)

func gpubuild(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

// mainGo is main.go, which holds the package documentation (embedded: under Bazel, the test's
// runfiles hold no sources).
//
//go:embed main.go
var mainGo string

// The package documentation lists exactly the verbs of the table, in its order.
func TestVerbTable(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "main.go", mainGo, parser.PackageClauseOnly|parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var documented []string
	for _, m := range regexp.MustCompile(`(?m)^\s+gpubuild ([a-z]+) `).FindAllStringSubmatch(f.Doc.Text(), -1) {
		documented = append(documented, m[1])
	}
	var table []string
	for _, v := range program().Verbs {
		table = append(table, v.Name)
	}
	if !slices.Equal(documented, table) {
		t.Errorf("the package documentation lists the verbs %q; the table %q", documented, table)
	}
	// The usage lists them too, in the same order.
	code, _, errs := gpubuild(t)
	var listed []string
	for _, m := range regexp.MustCompile(`(?m)^  ([a-z]+) +`).FindAllStringSubmatch(errs, -1) {
		listed = append(listed, m[1])
	}
	if code != 2 || !slices.Equal(listed, table) {
		t.Errorf("gpubuild alone: exit %d, lists %q, want 2 and %q", code, listed, table)
	}
}

// Every verb answers a bad flag with the error and its usage (exit 2) and --help with its usage on
// standard output (exit 0); a missing argument is a usage error too.
func TestUsage(t *testing.T) {
	for _, v := range program().Verbs {
		t.Run(v.Name, func(t *testing.T) {
			code, out, errs := gpubuild(t, v.Name, "--no-such-flag")
			if code != 2 || out != "" || !strings.Contains(errs, "gpubuild "+v.Name+": flag provided but not defined: -no-such-flag") ||
				!strings.Contains(errs, "usage: gpubuild "+v.Name) || !strings.Contains(errs, "\nflags:\n") {
				t.Errorf("a bad flag: exit %d\nstdout: %s\nstderr: %s", code, out, errs)
			}
			code, out, errs = gpubuild(t, v.Name, "--help")
			if code != 0 || errs != "" || !strings.HasPrefix(out, "usage: gpubuild "+v.Name) {
				t.Errorf("--help: exit %d\nstdout: %s\nstderr: %s", code, out, errs)
			}
			// Long flags are hyphenated (--ptxas-opt), never --ptxas_opt.
			for _, m := range regexp.MustCompile(`(?m)^  (--?\S+)`).FindAllStringSubmatch(out, -1) {
				if strings.Contains(m[1], "_") {
					t.Errorf("flag %s: hyphenate it", m[1])
				}
			}
			if _, hout, _ := gpubuild(t, "help", v.Name); hout != out {
				t.Errorf("gpubuild help %s differs from gpubuild %s --help", v.Name, v.Name)
			}
			if v.Name == "chips" || v.Name == "inspect" || v.Name == "migrate" {
				return // run without arguments, they do something (migrate: to the repository around the test)
			}
			if code, _, errs := gpubuild(t, v.Name); code != 2 || !strings.Contains(errs, "usage: gpubuild "+v.Name) {
				t.Errorf("no arguments: exit %d\nstderr: %s", code, errs)
			}
		})
	}
	// Flags are listed as they are written: one dash for one letter, two otherwise.
	_, out, _ := gpubuild(t, "compile", "--help")
	for _, want := range []string{"\n  -o ", "\n  -O LEVEL ", "\n  --chip CHIP ", "\n  --ptxas-opt OPTION ", "\n  --clang-opt OPTION ", "(default 2)"} {
		if !strings.Contains(out, want) {
			t.Errorf("compile --help lacks %q:\n%s", want, out)
		}
	}
	for _, args := range [][]string{{"-h"}, {"--help"}, {"help"}} {
		if code, out, _ := gpubuild(t, args...); code != 0 || !strings.Contains(out, "verbs:") {
			t.Errorf("gpubuild %s: exit %d\n%s", args[0], code, out)
		}
	}
	if code, _, errs := gpubuild(t, "frobnicate"); code != 2 || !strings.Contains(errs, `unknown verb "frobnicate"`) {
		t.Errorf("an unknown verb: exit %d: %s", code, errs)
	}
}

// Flags may follow the arguments, as with clang and Bazel; "--" ends them.
func TestInterleaved(t *testing.T) {
	dir := t.TempDir()
	ptx := filepath.Join(dir, "k.ptx")
	if err := os.WriteFile(ptx, []byte(testPTX), 0o644); err != nil {
		t.Fatal(err)
	}
	fb := filepath.Join(dir, "k.fatbin")
	if code, _, errs := gpubuild(t, "link", ptx, "-o", fb, "--compress", "none"); code != 0 {
		t.Fatalf("link with flags last: %d %s", code, errs)
	}
	if code, out, errs := gpubuild(t, "inspect", fb, "--json"); code != 0 || !strings.Contains(out, `"compression":"none"`) {
		t.Errorf("inspect with --json last: %d %s %s", code, out, errs)
	}
	if code, out, errs := gpubuild(t, "check", fb, "--runs-on", "sm_90", "--driver=12.4"); code != 0 || !strings.HasPrefix(out, "OK") {
		t.Errorf("check with flags last: %d %s %s", code, out, errs)
	}
	xdir := filepath.Join(dir, "x")
	if code, out, errs := gpubuild(t, "extract", fb, "-o", xdir); code != 0 || !strings.Contains(out, xdir) {
		t.Errorf("extract with -o last: %d %s %s", code, out, errs)
	}
	// After "--", "--json" is a file name.
	if code, _, errs := gpubuild(t, "inspect", "--", "--json"); code != 1 || !strings.Contains(errs, "--json: no such file") {
		t.Errorf("inspect -- --json: %d %s", code, errs)
	}
}

const testPTX = ".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry k() { ret; }\n"

// The verbs work together on real files: link PTX into a fatbin, inspect it, extract it, check it.
func TestVerbs(t *testing.T) {
	dir := t.TempDir()
	ptx := filepath.Join(dir, "k.ptx")
	src := ".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry k() { ret; }\n" + strings.Repeat("// padding\n", 30)
	if err := os.WriteFile(ptx, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	fb := filepath.Join(dir, "k.fatbin")
	if code, _, errs := gpubuild(t, "link", "-o", fb, "--compress", "zstd", ptx); code != 0 {
		t.Fatalf("link: %d %s", code, errs)
	}
	code, out, errs := gpubuild(t, "inspect", "--json", fb)
	if code != 0 || !strings.Contains(out, `"kind":"ptx","arch":"sm_80","ptx_isa":"7.0","compression":"zstd"`) {
		t.Fatalf("inspect: %d %s %s", code, out, errs)
	}
	xdir := filepath.Join(dir, "x")
	if code, out, errs := gpubuild(t, "extract", "-o", xdir, fb); code != 0 || !strings.HasSuffix(strings.TrimSpace(out), "k.1.sm_80.ptx") {
		t.Fatalf("extract: %d %s %s", code, out, errs)
	}
	if got, _ := os.ReadFile(filepath.Join(xdir, "k.1.sm_80.ptx")); string(got) != src {
		t.Errorf("extracted PTX differs from the source")
	}
	// sm_80 PTX JIT-compiles on sm_90 with a CUDA 12.4 driver, and not on sm_75.
	if code, out, _ := gpubuild(t, "check", "--runs-on", "sm_90", "--driver", "12.4", fb); code != 0 || !strings.HasPrefix(out, "OK") {
		t.Errorf("check sm_90: %d %s", code, out)
	}
	code, out, errs = gpubuild(t, "check", "--runs-on", "sm_75", "--target", "//p:k", fb)
	if code != 1 || !strings.HasPrefix(out, "FAIL") || !strings.Contains(errs, "//p:k: 1 of 1 checks fail") {
		t.Errorf("check sm_75: %d %q %q", code, out, errs)
	}
}

// Usage errors exit 2; failures exit 1 with one message naming the target; parameter files expand.
func TestErrors(t *testing.T) {
	dir := t.TempDir()
	if code, _, errs := gpubuild(t); code != 2 || !strings.Contains(errs, "verbs:") {
		t.Errorf("no verb: %d %s", code, errs)
	}
	if code, _, _ := gpubuild(t, "link"); code != 2 {
		t.Errorf("link without args: %d", code)
	}
	params := filepath.Join(dir, "params")
	os.WriteFile(params, []byte("--target\n//p:k\n--chip\nsm_99\n--out\n"+filepath.Join(dir, "o.cubin")+"\nk.ptx\n"), 0o644)
	code, _, errs := gpubuild(t, "compile", "--params="+params)
	if code != 1 || !strings.Contains(errs, "//p:k") || !strings.Contains(errs, "sm_99") {
		t.Errorf("compile of an unknown chip: %d %s", code, errs)
	}
	if code, _, errs := gpubuild(t, "inspect", filepath.Join(dir, "missing.fatbin")); code != 1 || !strings.Contains(errs, "missing.fatbin") {
		t.Errorf("inspect of a missing file: %d %s", code, errs)
	}
}

// chipsRepo copies the test repository of tools/internal/buildfile (stored with ".txt" added to every
// file name, see tools/internal/buildfile/buildfile_test.go) into a temporary directory.
func chipsRepo(t *testing.T) string {
	t.Helper()
	src := filepath.Join("..", "..", "internal", "buildfile", "testdata", "repo")
	if _, err := os.Stat(src); err != nil {
		// Under bazel test, unless the test's data holds //tools/internal/buildfile's testdata.
		t.Skipf("the test repositories of tools/internal/buildfile are not here: %v", err)
	}
	dst := t.TempDir()
	buildfiletest.CopyRepo(t, src, dst)
	return dst
}

// The chips verb lists and edits gpu_module targets in a copy of a test repository.
func TestChips(t *testing.T) {
	chipsRepo(t) // skips where the test repositories are not
	golden := func(name, rel string) string {
		data, err := os.ReadFile(filepath.Join("..", "..", "internal", "buildfile", "testdata", name, "after", rel+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	for _, tc := range []struct {
		name     string
		args     []string // after --repo DIR
		code     int
		stdout   []string // substrings
		stderr   []string
		file     string // a file of the repository, checked afterwards
		wantFile string // its content; "=" for unchanged
	}{
		{name: "list", args: nil, code: 0,
			stdout: []string{"LABEL  ", "//lib:softmax  sm_90a   ", "//app:reduce   (default)", "app/BUILD.bazel:23\n"},
			stderr: []string{"note: lib/BUILD:21: gpu call in a list comprehension"}},
		{name: "json", args: []string{"--json", "//lib:thor"}, code: 0,
			stdout: []string{`{"label":"//lib:thor","file":"lib/BUILD","line":12,"kind":"gpu","chips":["sm_87","sm_101"],"format":"fatbin","runs_on":null}` + "\n"}},
		// Flags may follow the patterns, as with bazel.
		{name: "set", args: []string{"//app:reduce", "--set", "sm_90,sm_80"}, code: 0,
			stdout: []string{"app/BUILD.bazel:16: //app:reduce: chips (unset) -> sm_80, sm_90\n", "wrote app/BUILD.bazel\n"},
			file:   "app/BUILD.bazel", wantFile: "chips = [\n        \"sm_80\",\n        \"sm_90\",\n    ],\n    format = \"bin\","},
		{name: "toolkit", args: []string{"--toolkit", "13.0"}, code: 0,
			stdout: []string{"//app:legacy: sm_50 -> sm_75: CUDA 13.0 cannot compile for sm_50", "//lib:thor: sm_101 -> sm_110", "wrote lib/BUILD\n"},
			file:   "app/BUILD.bazel", wantFile: golden("toolkit", "app/BUILD.bazel")},
		{name: "toolkit dry run", args: []string{"--toolkit", "13.0", "--dry-run", "//app/..."}, code: 0,
			stdout: []string{"sm_70 -> sm_75", "note: runs_on lists sm_70", "dry run: nothing written\n"},
			file:   "app/BUILD.bazel", wantFile: "="},
		{name: "nothing to retarget", args: []string{"--toolkit", "12.9", "//app:saxpy"}, code: 0,
			stdout: []string{"CUDA 12.9 compiles every chip of the 1 target; nothing to change"}},
		{name: "add nothing new", args: []string{"--add", "sm_90", "//app:saxpy"}, code: 0,
			stdout: []string{"no BUILD file changed"}, file: "app/BUILD.bazel", wantFile: "="},
		{name: "unknown chip", args: []string{"--set", "sm_80,sm_99", "//app:saxpy"}, code: 1,
			stderr: []string{`gpubuild chips: unknown chip "sm_99": not in the chip table; the chips are sm_35,`, "docs/chips.md"},
			file:   "app/BUILD.bazel", wantFile: "="},
		{name: "last chip", args: []string{"--remove", "sm_90a", "//lib:all"}, code: 1,
			stderr: []string{"gpubuild chips: //lib:softmax (lib/BUILD:4): removing sm_90a would leave it no chips"},
			file:   "lib/BUILD", wantFile: "="},
		{name: "bad pattern", args: []string{"app:saxpy"}, code: 1, stderr: []string{`bad pattern "app:saxpy"`}},
		{name: "bad toolkit", args: []string{"--toolkit", "13"}, code: 1, stderr: []string{`--toolkit: bad CUDA version "13"`}},
		{name: "edit without pattern", args: []string{"--add", "sm_90"}, code: 2, stderr: []string{"--add needs the targets to edit"}},
		{name: "two edits", args: []string{"--add", "sm_90", "--remove", "sm_80", "//..."}, code: 2, stderr: []string{"one edit at a time"}},
		{name: "json with an edit", args: []string{"--json", "--add", "sm_90", "//..."}, code: 2, stderr: []string{"--json goes with listing"}},
		{name: "empty chip", args: []string{"--add", "sm_90,", "//..."}, code: 1, stderr: []string{"an empty chip name"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := chipsRepo(t)
			checkRun(t, dir, append([]string{"chips", "--repo", dir}, tc.args...), runWant{tc.code, tc.stdout, tc.stderr, tc.file, tc.wantFile})
		})
	}
}

// runWant is what a run of a verb that edits a test repository (chips, migrate) must do.
type runWant struct {
	code     int
	stdout   []string // substrings
	stderr   []string
	file     string // a file of the repository dir, checked afterwards
	wantFile string // a substring of it; "=" for unchanged
}

// checkRun runs gpubuild with args and checks its exit status, its output and w.file of dir.
func checkRun(t *testing.T, dir string, args []string, w runWant) {
	t.Helper()
	var before []byte
	if w.file != "" {
		before, _ = os.ReadFile(filepath.Join(dir, w.file))
	}
	code, out, errs := gpubuild(t, args...)
	if code != w.code {
		t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, w.code, out, errs)
	}
	for _, s := range w.stdout {
		if !strings.Contains(out, s) {
			t.Errorf("stdout does not hold %q:\n%s", s, out)
		}
	}
	for _, s := range w.stderr {
		if !strings.Contains(errs, s) {
			t.Errorf("stderr does not hold %q:\n%s", s, errs)
		}
	}
	if w.file == "" {
		return
	}
	got, _ := os.ReadFile(filepath.Join(dir, w.file))
	switch {
	case w.wantFile == "=" && string(got) != string(before):
		t.Errorf("%s changed:\n%s", w.file, got)
	case w.wantFile != "=" && !strings.Contains(string(got), w.wantFile):
		t.Errorf("%s does not hold %q:\n%s", w.file, w.wantFile, got)
	}
}

// Under bazel run, the repository is $BUILD_WORKSPACE_DIRECTORY.
func TestChipsWorkspaceDirectory(t *testing.T) {
	t.Setenv("BUILD_WORKSPACE_DIRECTORY", chipsRepo(t))
	if code, out, errs := gpubuild(t, "chips", "//app:legacy"); code != 0 || !strings.Contains(out, "//app:legacy  sm_50,sm_60,sm_70,sm_75  jit") {
		t.Errorf("chips under bazel run: %d\n%s%s", code, out, errs)
	}
}
