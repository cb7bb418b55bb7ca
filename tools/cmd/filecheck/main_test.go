package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/internal/testtool"
	"github.com/rulesgpu/rules_gpu/tools/internal/version"
)

// filecheck reads standard input (or --input-file) and exits as FileCheck: 0 when the
// input matches, 1 with FileCheck's diagnostics when it does not, 2 for an invalid check file or
// an empty input.
func TestFilecheck(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string { return testtool.WriteFile(t, dir, name, text) }
	check := write("k.mlir", "// RUN: mlir-opt %s | FileCheck %s\n// CHECK-LABEL: func @k\n// CHECK-NEXT: [[V:%[0-9]+]] = arith.addi\n// CHECK: return [[V]]\n")
	foo := write("foo.txt", "# FOO: alpha\n# BAR: beta\n")
	input := write("in.txt", "func @k() {\n  %0 = arith.addi %a, %b\n  return %0\n}\n")
	for _, tc := range []struct {
		name   string
		args   []string
		stdin  string
		code   int
		stderr []string // in order
	}{
		{name: "stdin matches", args: []string{check}, stdin: "func @k() {\n  %0 = arith.addi %a, %b\n  return %0\n}\n"},
		{name: "input file matches", args: []string{check, "--input-file", input}},
		{name: "stdin does not match", args: []string{check}, stdin: "func @k() {\n  %0 = arith.addi %a, %b\n  return %1\n}\n", code: 1, stderr: []string{
			check + ":4:11: error: CHECK: expected string not found in input\n// CHECK: return [[V]]\n          ^\n",
			"<stdin>:2:17: note: scanning from here\n",
			`<stdin>:2:17: note: with "V" equal to "%0"`,
			"<stdin>:3:2: note: possible intended match here\n",
			"filecheck: <stdin> does not match " + check + "\n",
		}},
		{name: "NEXT on the wrong line", args: []string{check}, stdin: "func @k() {\n\n  %0 = arith.addi %a, %b\n  return %0\n}\n", code: 1, stderr: []string{
			"CHECK-NEXT: is not on the line after the previous match",
		}},
		{name: "prefixes", args: []string{"--check-prefix", "FOO", "--check-prefix=BAR", foo}, stdin: "alpha\nbeta\n"},
		{name: "prefixes, one list", args: []string{"--check-prefixes", "FOO,BAR", foo}, stdin: "beta\n", code: 1, stderr: []string{
			"error: FOO: expected string not found in input",
		}},
		{name: "no directives with the prefix", args: []string{"--check-prefix", "BAZ", foo}, stdin: "alpha\n", code: 2, stderr: []string{
			"error: no check strings found with prefix 'BAZ:'\n",
		}},
		{name: "empty input", args: []string{check}, code: 2, stderr: []string{"error: '<stdin>' is empty."}},
		{name: "empty input allowed", args: []string{"--allow-empty", write("not.txt", "CHECK-NOT: x\n")}},
		{name: "strict whitespace", args: []string{"--strict-whitespace", write("ws.txt", "CHECK: a b\n")}, stdin: "a  b\n", code: 1},
		{name: "canonical whitespace", args: []string{write("ws2.txt", "CHECK: a b\n")}, stdin: "a \t b\n"},
		{name: "full lines", args: []string{"--match-full-lines", write("full.txt", "CHECK: a\n")}, stdin: "ab\n", code: 1},
		{name: "invalid check file", args: []string{write("bad.txt", "CHECK: a\nCHECK: {{a**}}\n")}, stdin: "a\n", code: 2, stderr: []string{
			"bad.txt:2:10: error: invalid regex: repetition-operator operand invalid\n",
		}},
		{name: "undefined variable", args: []string{write("undef.txt", "CHECK: [[X]]\n")}, stdin: "a\n", code: 2, stderr: []string{
			"undef.txt:1:10: error: undefined variable: X\n",
		}},
		{name: "NEXT first", args: []string{write("next.txt", "CHECK-NEXT: a\n")}, stdin: "a\n", code: 2, stderr: []string{
			"next.txt:1:1: error: found 'CHECK-NEXT' without previous 'CHECK: line\n",
		}},
		{name: "no check file", args: []string{filepath.Join(dir, "none.txt")}, stdin: "a\n", code: 2, stderr: []string{"none.txt"}},
		{name: "no input file", args: []string{check, "--input-file", filepath.Join(dir, "none.txt")}, code: 2, stderr: []string{"none.txt"}},
		{name: "two check files", args: []string{check, check}, code: 2, stderr: []string{"give one check file"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), tc.args, strings.NewReader(tc.stdin), &stdout, &stderr)
			out, errs := stdout.String(), stderr.String()
			if code != tc.code || out != "" {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tc.code, out, errs)
			}
			if tc.stderr == nil && code == 0 && errs != "" {
				t.Errorf("stderr: %s", errs)
			}
			rest := errs
			for _, want := range tc.stderr {
				i := strings.Index(rest, want)
				if i < 0 {
					t.Errorf("stderr lacks %q (or has it out of order):\n%s", want, errs)
					break
				}
				rest = rest[i+len(want):]
			}
		})
	}
}

// filecheck --version prints its name and rules_gpu's version.
func TestVersion(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"--version"}, strings.NewReader(""), &stdout, &stderr); code != 0 || stdout.String() != "filecheck "+version.Version+"\n" {
		t.Errorf("filecheck --version: exit %d, stdout %q, stderr %q; want 0, %q", code, stdout.String(), stderr.String(), "filecheck "+version.Version+"\n")
	}
}
