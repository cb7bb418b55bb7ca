package testtool

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFind(t *testing.T) {
	dir := t.TempDir()
	tool := filepath.Join(dir, "mytool")
	if err := os.WriteFile(tool, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("MYTOOL", tool)
	if got := Find(t, "MYTOOL", "unused"); got != tool {
		t.Errorf("from the environment: %s, want %s", got, tool)
	}
	t.Setenv("MYTOOL", "")
	t.Setenv("PATH", dir)
	if got := Find(t, "MYTOOL", "mytool"); got != tool {
		t.Errorf("from PATH: %s, want %s", got, tool)
	}
	if got := Find(t, "MYTOOL", tool); got != tool {
		t.Errorf("absolute path: %s, want %s", got, tool)
	}
	t.Setenv("TEST_SRCDIR", dir)
	t.Setenv("MYTOOL", "mytool")
	if got := Find(t, "MYTOOL", "unused"); got != tool {
		t.Errorf("runfiles path: %s, want %s", got, tool)
	}
}

// LLVM's tools: the environment variable named after the tool, else NAME-21 on PATH.
func TestLLVM(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"mlir-opt-" + LLVMMajor, "other"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir)
	t.Setenv("MLIR_OPT", "")
	if got, want := LLVM(t, "mlir-opt"), filepath.Join(dir, "mlir-opt-"+LLVMMajor); got != want {
		t.Errorf("from PATH: %s, want %s", got, want)
	}
	t.Setenv("MLIR_OPT", filepath.Join(dir, "other"))
	if got, want := LLVM(t, "mlir-opt"), filepath.Join(dir, "other"); got != want {
		t.Errorf("from MLIR_OPT: %s, want %s", got, want)
	}
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	p := WriteFile(t, dir, "k.mlir", "gpu.module @k {}\n")
	if p != filepath.Join(dir, "k.mlir") {
		t.Errorf("path %s, want %s", p, filepath.Join(dir, "k.mlir"))
	}
	if b, err := os.ReadFile(p); err != nil || string(b) != "gpu.module @k {}\n" {
		t.Errorf("read back %q, %v", b, err)
	}
}
