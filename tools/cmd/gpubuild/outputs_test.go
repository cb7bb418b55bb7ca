package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/internal/atomicfile/atomicfiletest"
)

// writer is a verb that writes a file: args makes its command line writing to out, and want says
// whether what out received is right.
type writer struct {
	name string
	args func(t *testing.T, out string) []string
	want func(t *testing.T, got []byte) bool
	// stdout: "-o -" writes to standard output.
	stdout bool
}

func writers(t *testing.T) []writer {
	dir := t.TempDir()
	ptx := filepath.Join(dir, "k.ptx")
	mlirSrc := filepath.Join(dir, "k.mlir")
	fb := filepath.Join(dir, "k.fatbin")
	for p, text := range map[string]string{ptx: testPTX, mlirSrc: "module attributes {gpu.container_module} {\n  gpu.module @k {\n  }\n}\n"} {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if code, _, errs := gpubuild(t, "link", "-o", fb, ptx); code != 0 {
		t.Fatalf("link: %s", errs)
	}
	fatbin, _ := os.ReadFile(fb)
	isFatbin := func(t *testing.T, got []byte) bool { return bytes.Equal(got, fatbin) }
	return []writer{
		{name: "compile", stdout: true,
			args: func(t *testing.T, out string) []string {
				fakeMachine(t)
				return []string{"compile", "--chip", "sm_90", "--format", "isa", "-o", out, writeSource(t, "k.ll", "define void @k() { ret void }\n")}
			},
			want: func(t *testing.T, got []byte) bool { return string(got) == fakePTX }},
		{name: "link", stdout: true,
			args: func(t *testing.T, out string) []string { return []string{"link", "-o", out, ptx} },
			want: isFatbin},
		{name: "attach", stdout: true,
			args: func(t *testing.T, out string) []string {
				return []string{"attach", "--chip", "sm_90", "-o", out, mlirSrc}
			},
			want: func(t *testing.T, got []byte) bool {
				return bytes.Contains(got, []byte(`gpu.module @k [#nvvm.target<chip = "sm_90">]`))
			}},
		{name: "check --stamp",
			args: func(t *testing.T, out string) []string {
				return []string{"check", "--runs-on", "sm_80", "--stamp", out, fb}
			},
			want: func(t *testing.T, got []byte) bool { return string(got) == "ok\n" }},
		{name: "embed --go-out",
			args: func(t *testing.T, out string) []string {
				return []string{"embed", "--lang", "go", "--package", "k", "--go-out", out, "--copy-to", filepath.Join(t.TempDir(), "k.fatbin"), fb}
			},
			want: func(t *testing.T, got []byte) bool { return bytes.Contains(got, []byte("package k")) }},
		{name: "embed --copy-to",
			args: func(t *testing.T, out string) []string {
				return []string{"embed", "--lang", "go", "--package", "k", "--go-out", filepath.Join(t.TempDir(), "k.go"), "--copy-to", out, fb}
			},
			want: isFatbin},
		{name: "embed --h-out",
			args: func(t *testing.T, out string) []string {
				d := t.TempDir()
				return []string{"embed", "--lang", "c", "--symbol", "k", "--include", "k.h", "--h-out", out, "--c-out", filepath.Join(d, "k.c"), fb}
			},
			want: func(t *testing.T, got []byte) bool {
				return bytes.Contains(got, []byte("extern const unsigned char k[]"))
			}},
		{name: "embed --c-out",
			args: func(t *testing.T, out string) []string {
				d := t.TempDir()
				return []string{"embed", "--lang", "c", "--symbol", "k", "--include", "k.h", "--h-out", filepath.Join(d, "k.h"), "--c-out", out, fb}
			},
			want: func(t *testing.T, got []byte) bool { return bytes.Contains(got, []byte(`#include "k.h"`)) }},
	}
}

// Every verb that writes a file writes it through a FIFO, a symbolic link and /dev/null, leaving
// them what they were, replaces a regular file at once, and writes "-o -" to standard output.
func TestOutputs(t *testing.T) {
	for _, w := range writers(t) {
		t.Run(w.name, func(t *testing.T) {
			for _, k := range atomicfiletest.Kinds() {
				t.Run(k.Name, func(t *testing.T) {
					out := k.New(t)
					code, stdout, stderr := gpubuild(t, w.args(t, out.Path)...)
					got := out.Done(t)
					if code != 0 || stdout != "" && w.name != "check --stamp" {
						t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
					}
					if !out.Discards && !w.want(t, got) {
						t.Errorf("the output received %q", truncate(got))
					}
				})
			}
			if !w.stdout {
				return
			}
			t.Run("-o -", func(t *testing.T) {
				code, stdout, stderr := gpubuild(t, w.args(t, "-")...)
				if code != 0 || stderr != "" || !w.want(t, []byte(stdout)) {
					t.Errorf("exit %d\nstdout: %q\nstderr: %s", code, truncate([]byte(stdout)), stderr)
				}
				if _, err := os.Lstat("-"); err == nil {
					t.Error(`a file named "-" was written`)
				}
			})
		})
	}
}

// A verb that fails leaves its regular output as it was, and nothing beside it.
func TestOutputsOnFailure(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	if err := os.WriteFile(out, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "bad.ptx")
	if err := os.WriteFile(bad, []byte("not PTX"), 0o644); err != nil {
		t.Fatal(err)
	}
	fakeMachine(t)
	clang := fakeTool(t, t.TempDir(), "clang", ".version 7.8\n.target sm_90\n.address_size 64\n") // PTX without a kernel
	for _, args := range [][]string{
		{"link", "-o", out, bad},
		{"compile", "--chip", "sm_90", "--format", "isa", "--clang", clang, "-o", out, writeSource(t, "k.ll", "define void @k() { ret void }\n")},
		{"check", "--runs-on", "sm_90", "--stamp", out, bad},
	} {
		code, _, stderr := gpubuild(t, args...)
		if code != 1 {
			t.Errorf("%s: exit %d: %s", strings.Join(args, " "), code, stderr)
		}
		if got, _ := os.ReadFile(out); string(got) != "old" {
			t.Errorf("%s: the output holds %q", args[0], got)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Errorf("%s: left beside the output: %v", args[0], entries)
		}
	}
}

func truncate(b []byte) []byte {
	if len(b) > 200 {
		return b[:200]
	}
	return b
}
