package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/internal/buildfile/buildfiletest"
)

// migrateRepo copies a test repository of tools/internal/migrate (testdata/CASE/before, stored with
// ".txt" added to every file name) into a temporary directory.
func migrateRepo(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join("..", "..", "internal", "migrate", "testdata", name, "before")
	if _, err := os.Stat(src); err != nil {
		// Under bazel test, unless the test's data holds //tools/internal/migrate's testdata.
		t.Skipf("the test repositories of tools/internal/migrate are not here: %v", err)
	}
	dst := t.TempDir()
	buildfiletest.CopyRepo(t, src, dst)
	return dst
}

// The migrate verb rewrites a repository from rules_cuda to rules_gpu: exit 0 when all of it
// translates, 1 when something is listed as not translated, 2 on a usage error.
func TestMigrate(t *testing.T) {
	migrateRepo(t, "ptx") // skips where the test repositories are not
	for _, tc := range []struct {
		name     string
		repo     string // the test repository, "" for none
		args     []string
		code     int
		stdout   []string // substrings
		stderr   []string
		file     string // a file of the repository, checked afterwards
		wantFile string // a substring of it; "=" for unchanged
	}{
		{name: "all translated", repo: "ptx", code: 0,
			stdout: []string{"note: .bazelrc:2: flag --@rules_cuda//cuda:archs=compute_70:sm_70;compute_80:compute_80,sm_80 asks for ptx = [\"sm_80\"]",
				"wrote .bazelrc\nwrote kernels/BUILD.bazel\n"},
			file: "kernels/BUILD.bazel", wantFile: "gpu_cc_test(\n    name = \"scale_test\","},
		{name: "dry run", repo: "basic", args: []string{"--dry-run"}, code: 0,
			stdout: []string{"--- a/lib/BUILD.bazel\n+++ b/lib/BUILD.bazel\n@@ ", "-cuda_test(\n", "+gpu_cc_test(\n",
				"--- a/MODULE.bazel\n+++ b/MODULE.bazel\n", "-bazel_dep(name = \"rules_cuda\", version = \"0.2.5\")\n", "+bazel_dep(name = \"rules_gpu\", version = \"0.1.0\")\n",
				"note: MODULE.bazel:7: bazel_dep(name = \"rules_cuda\") removed: nothing in the repository uses rules_cuda now", "dry run: 6 files would change, nothing written\n"},
			file: "MODULE.bazel", wantFile: "="},
		// Flags may follow the directory.
		{name: "some not translated", repo: "bad", args: []string{"--dry-run=false"}, code: 1,
			stdout: []string{"not translated: kernels/BUILD.bazel:", "target //kernels:defines: attribute local_defines has no rules_gpu equivalent; fix: ",
				"wrote kernels/BUILD.bazel\n"},
			stderr: []string{"items not translated", "the rest is written"},
			file:   "kernels/BUILD.bazel", wantFile: "gpu_cuda_library(\n    name = \"fine\","},
		{name: "two directories", repo: "ptx", args: []string{"other"}, code: 2, stderr: []string{"one repository at a time", "usage: gpubuild migrate"},
			file: "kernels/BUILD.bazel", wantFile: "="},
		{name: "not a repository", args: []string{os.TempDir()}, code: 1, stderr: []string{"not the root of a Bazel repository"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var dir string
			args := append([]string{"migrate"}, tc.args...)
			if tc.repo != "" {
				dir = migrateRepo(t, tc.repo)
				args = append([]string{"migrate", dir}, tc.args...)
			}
			checkRun(t, dir, args, runWant{tc.code, tc.stdout, tc.stderr, tc.file, tc.wantFile})
		})
	}
}

// Without DIR, the repository is $BUILD_WORKSPACE_DIRECTORY (bazel run), and a second run has nothing
// to change.
func TestMigrateWorkspaceDirectory(t *testing.T) {
	t.Setenv("BUILD_WORKSPACE_DIRECTORY", migrateRepo(t, "ptx"))
	if code, out, errs := gpubuild(t, "migrate"); code != 0 || !strings.Contains(out, "wrote kernels/BUILD.bazel") {
		t.Errorf("migrate under bazel run: %d\n%s%s", code, out, errs)
	}
	if code, out, errs := gpubuild(t, "migrate"); code != 0 || out != "nothing to change\n" {
		t.Errorf("migrate again: %d\n%s%s", code, out, errs)
	}
}
