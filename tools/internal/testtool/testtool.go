// Package testtool is what the helper's tests share: it finds the external tools that they run
// (ptxas, cuobjdump, mlir-opt-21, ...): from an environment variable, which Bazel tests set to a
// runfiles path of the toolchain's tool, or else on PATH, as in the build environment (env/env.sh
// run go test ./...), a test whose tool is not there being skipped, saying how to get it; and it
// writes their input files, lists what a directory holds (DirNames), and checks the files
// generated from Go tables (Generated).
package testtool

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Find returns the absolute path of the tool named by the environment variable env, or of name:
// a program on PATH, or an absolute path that exists (libdevice, a toolkit root). It skips t when
// neither is found.
func Find(t testing.TB, env, name string) string {
	t.Helper()
	p := os.Getenv(env)
	if p != "" && !filepath.IsAbs(p) && os.Getenv("TEST_SRCDIR") != "" {
		p = filepath.Join(os.Getenv("TEST_SRCDIR"), p) // a runfiles path, under Bazel
	}
	if p == "" {
		if _, err := os.Stat(name); filepath.IsAbs(name) && err == nil {
			p = name
		} else if p, err = exec.LookPath(name); err != nil {
			t.Skipf("no %s: set %s, or run the test in the build environment (env/env.sh run go test ./...)", name, env)
		}
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// LLVMMajor is the LLVM release whose tools the tests run: the build environment's (env/versions.sh)
// names them NAME-21.
const LLVMMajor = "21"

// LLVM finds one of LLVM's tools by its plain name (mlir-opt, llc, llvm-link, clang, ...): from
// the environment variable of that name in capitals with _ for - (MLIR_OPT, LLC, LLVM_LINK, CLANG,
// ...), which the Bazel tests set, or else NAME-LLVMMajor on PATH (Find).
func LLVM(t testing.TB, name string) string {
	t.Helper()
	return Find(t, strings.ToUpper(strings.ReplaceAll(name, "-", "_")), name+"-"+LLVMMajor)
}

// WriteFile writes text to dir/name and returns that path; it fails t when it cannot.
func WriteFile(t testing.TB, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Generated checks a file that is generated from Go (a table rendered as Starlark or Markdown):
// t fails when the file at path is not want, saying to run regenerate; with update it rewrites
// the file instead.
func Generated(t testing.TB, path string, want []byte, update bool, regenerate string) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (generate it: %s)", err, regenerate)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is stale: run %s", path, regenerate)
	}
}

// DirNames lists a directory's entries, in name order: what a step left there; nil when the
// directory does not exist.
func DirNames(t testing.TB, dir string) []string {
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
