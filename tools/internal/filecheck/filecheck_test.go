package filecheck

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkText parses check and matches input: the status FileCheck would exit with, and the
// diagnostics.
func checkText(t *testing.T, check, input string, o Options) (int, string) {
	t.Helper()
	c, err := Parse("check.txt", []byte(check), o)
	if err == nil {
		err = c.Match("input.txt", []byte(input))
	}
	var fe *Error
	switch {
	case err == nil:
		return 0, ""
	case errors.As(err, &fe):
		return fe.Status, fe.Diagnostics
	}
	t.Fatal(err)
	return 0, ""
}

// Each directive's semantics, matching and not: status 0 (match), 1 (no match) or 2 (invalid
// check file), and a part of the diagnostics.
func TestDirectives(t *testing.T) {
	for _, tc := range []struct {
		name, check, input string
		opts               Options
		status             int
		diag               string
	}{
		// CHECK: in order, anywhere in a line, not twice from one match.
		{name: "CHECK", check: "CHECK: b\nCHECK: d\n", input: "abc\ndef\n"},
		{name: "CHECK missing", check: "CHECK: x\n", input: "abc\n", status: 1,
			diag: "check.txt:1:8: error: CHECK: expected string not found in input\nCHECK: x\n       ^\ninput.txt:1:1: note: scanning from here\nabc\n^\n"},
		{name: "CHECK order", check: "CHECK: b\nCHECK: a\n", input: "a\nb\n", status: 1},
		{name: "CHECK after a comment marker", check: "// CHECK: a\n# CHECK: b\n; CHECK: c\n", input: "abc\n"},
		{name: "CHECK twice needs two", check: "CHECK: a\nCHECK: a\n", input: "a\n", status: 1},
		{name: "CHECK twice on a line", check: "CHECK: a\nCHECK: a\n", input: "aa\n"},

		// CHECK-NEXT: the very next line.
		{name: "NEXT", check: "CHECK: a\nCHECK-NEXT: b\n", input: "a\nb\n"},
		{name: "NEXT skips a line", check: "CHECK: a\nCHECK-NEXT: b\n", input: "a\nx\nb\n", status: 1, diag: "CHECK-NEXT: is not on the line after the previous match"},
		{name: "NEXT on the same line", check: "CHECK: a\nCHECK-NEXT: b\n", input: "a b\n", status: 1, diag: "CHECK-NEXT: is on the same line as previous match"},
		{name: "NEXT first", check: "CHECK-NEXT: a\n", input: "a\n", status: 2, diag: "error: found 'CHECK-NEXT' without previous 'CHECK: line"},
		{name: "NEXT after NOT only", check: "CHECK-NOT: x\nCHECK-NEXT: a\n", input: "a\n", status: 2},

		// CHECK-SAME: the same line.
		{name: "SAME", check: "CHECK: a\nCHECK-SAME: c\n", input: "abc\n"},
		{name: "SAME on the next line", check: "CHECK: a\nCHECK-SAME: c\n", input: "a\nc\n", status: 1, diag: "CHECK-SAME: is not on the same line as the previous match"},
		{name: "SAME first", check: "CHECK-SAME: a\n", input: "a\n", status: 2},

		// CHECK-EMPTY: the next line is empty.
		{name: "EMPTY", check: "CHECK: a\nCHECK-EMPTY:\nCHECK-NEXT: b\n", input: "a\n\nb\n"},
		{name: "EMPTY not empty", check: "CHECK: a\nCHECK-EMPTY:\n", input: "a\nb\n\n", status: 1, diag: "CHECK-EMPTY: is not on the line after the previous match"},
		{name: "EMPTY at the end", check: "CHECK: a\nCHECK-EMPTY:\n", input: "a\n"}, // the newline before the end, as FileCheck
		{name: "EMPTY none", check: "CHECK: a\nCHECK-EMPTY:\n", input: "a\nb", status: 1, diag: "CHECK-EMPTY: expected string not found"},
		{name: "EMPTY with text", check: "CHECK: a\nCHECK-EMPTY: b\n", input: "a\n\n", status: 2, diag: "found non-empty check string for empty check with prefix 'CHECK:'"},

		// CHECK-NOT: before, between and after positive matches.
		{name: "NOT between", check: "CHECK: a\nCHECK-NOT: x\nCHECK: b\n", input: "a\nb\nx\n"},
		{name: "NOT between found", check: "CHECK: a\nCHECK-NOT: x\nCHECK: b\n", input: "a\nx\nb\n", status: 1,
			diag: "check.txt:2:12: error: CHECK-NOT: excluded string found in input\nCHECK-NOT: x\n           ^\ninput.txt:2:1: note: found here\nx\n^\n"},
		{name: "NOT at the start", check: "CHECK-NOT: x\nCHECK: a\n", input: "x\na\n", status: 1},
		{name: "NOT at the start, after", check: "CHECK-NOT: x\nCHECK: a\n", input: "a\nx\n"},
		{name: "NOT at the end", check: "CHECK: a\nCHECK-NOT: x\n", input: "a\nx\n", status: 1},
		{name: "NOT at the end, before", check: "CHECK: a\nCHECK-NOT: x\n", input: "x\na\n"},
		{name: "NOT only", check: "CHECK-NOT: x\n", input: "abc\n"},
		{name: "NOT range", check: "CHECK-NOT: {{b+}}\n", input: "abbbc\n", status: 1, diag: "note: found here\nabbbc\n ^~~\n"},

		// CHECK-COUNT-n: n matches in a row.
		{name: "COUNT", check: "CHECK-COUNT-3: x\n", input: "x\nxx\n"},
		{name: "COUNT short", check: "CHECK-COUNT-3: x\n", input: "x\nx\n", status: 1, diag: "CHECK-COUNT: expected string not found in input (3 out of 3)"},
		{name: "COUNT then NEXT", check: "CHECK-COUNT-2: x\nCHECK-NEXT: y\n", input: "x\nx\ny\n"},
		{name: "COUNT zero", check: "CHECK-COUNT-0: x\n", input: "x\n", status: 2, diag: "invalid count in -COUNT specification on prefix 'CHECK'"},

		// CHECK-DAG: any order within a group; groups in order.
		{name: "DAG", check: "CHECK-DAG: b\nCHECK-DAG: a\nCHECK: c\n", input: "a\nb\nc\n"},
		{name: "DAG missing", check: "CHECK-DAG: b\nCHECK-DAG: z\n", input: "a\nb\n", status: 1, diag: "CHECK-DAG: expected string not found in input"},
		{name: "DAG does not overlap", check: "CHECK-DAG: a\nCHECK-DAG: a\n", input: "a\n", status: 1},
		{name: "DAG twice", check: "CHECK-DAG: a\nCHECK-DAG: a\n", input: "a a\n"},
		{name: "DAG before the next directive", check: "CHECK-DAG: a\nCHECK: b\n", input: "b\na\n", status: 1},
		{name: "DAG groups", check: "CHECK-DAG: a\nCHECK-DAG: b\nCHECK-NOT: x\nCHECK-DAG: c\n", input: "b\na\nc\nx\n"},
		{name: "DAG groups, NOT between", check: "CHECK-DAG: a\nCHECK-DAG: b\nCHECK-NOT: x\nCHECK-DAG: c\n", input: "b\na\nx\nc\n", status: 1},
		{name: "DAG groups in order", check: "CHECK-DAG: a\nCHECK-NOT: x\nCHECK-DAG: c\n", input: "c\na\n", status: 1},

		// CHECK-LABEL: blocks checked alone; a failure in one does not stop the next.
		{name: "LABEL", check: "CHECK-LABEL: f1\nCHECK: x\nCHECK-LABEL: f2\nCHECK: y\n", input: "f1\nx\nf2\ny\n"},
		{name: "LABEL bounds a block", check: "CHECK-LABEL: f1\nCHECK: y\nCHECK-LABEL: f2\n", input: "f1\nx\nf2\ny\n", status: 1},
		{name: "LABEL blocks both reported", check: "CHECK-LABEL: f1\nCHECK: y\nCHECK-LABEL: f2\nCHECK: z\n", input: "f1\nx\nf2\ny\n", status: 1,
			diag: "check.txt:4:8: error: CHECK: expected string not found"},
		{name: "LABEL missing", check: "CHECK-LABEL: f1\nCHECK-LABEL: f3\n", input: "f1\nf2\n", status: 1, diag: "CHECK-LABEL: expected string not found"},
		{name: "LABEL with a variable", check: "CHECK-LABEL: [[F:f[0-9]]]\n", input: "f1\n", status: 2, diag: "found 'CHECK-LABEL:' with variable definition or use"},
		{name: "LABEL NOT in its block", check: "CHECK-LABEL: f1\nCHECK-NOT: x\nCHECK-LABEL: f2\n", input: "f1\nf2\nx\n"},

		// {{regex}}: POSIX extended, as llvm::Regex.
		{name: "regex", check: "CHECK: %{{[0-9]+}} = {{(add|sub)}}i\n", input: "%12 = subi\n"},
		{name: "regex alternation stays inside", check: "CHECK: a{{b|c}}d\n", input: "ab\ncd\n", status: 1},
		{name: "regex no newline", check: "CHECK: a{{.*}}b\n", input: "a\nb\n", status: 1},
		{name: "regex negated class no newline", check: "CHECK: a{{[^x]*}}b\n", input: "a\nb\n", status: 1},
		{name: "regex class with newline", check: "CHECK: a{{[[:space:]]*}}b\n", input: "a\nb\n"},
		{name: "regex escapes are literal", check: "CHECK: {{\\d}}\n", input: "d\n"},
		{name: "regex dollar", check: "CHECK: a{{$}}\n", input: "ab\na\n"},
		{name: "regex caret after a match", check: "CHECK: a\nCHECK-SAME: {{^}}b\n", input: "ab\n"},
		{name: "regex invalid", check: "CHECK: {{a|}}\n", input: "a\n", status: 2, diag: "check.txt:1:10: error: invalid regex: empty (sub)expression"},
		{name: "regex unclosed", check: "CHECK: {{a\n", input: "a\n", status: 2, diag: "found start of regex string with no end '}}'"},
		{name: "regex back-reference", check: "CHECK: {{(ab)\\1}}\n", input: "abab\n"},
		{name: "regex byte by byte", check: "CHECK: a{{.}}b\n", input: "a\xc3\xa9b\n", status: 1},

		// [[VAR:regex]] and [[VAR]].
		{name: "variable", check: "CHECK: [[R:%[a-z]+]] = load\nCHECK: store [[R]]\n", input: "%p = load\nstore %p\n"},
		{name: "variable other value", check: "CHECK: [[R:%[a-z]+]] = load\nCHECK: store [[R]]\n", input: "%p = load\nstore %q\n", status: 1, diag: `note: with "R" equal to "%p"`},
		{name: "variable on its line", check: "CHECK: [[A:[a-z]]]=[[A]]\n", input: "a=b c=c\n"},
		{name: "variable value is literal", check: "CHECK: [[V:a.c]]\nCHECK: [[V]]\n", input: "a.c\nabc\n", status: 1},
		{name: "variable undefined", check: "CHECK: [[X]]\n", input: "x\n", status: 2, diag: "check.txt:1:10: error: undefined variable: X"},
		{name: "variable defined later", check: "CHECK: [[X]]\nCHECK: [[X:x]]\n", input: "x\nx\n", status: 2},
		{name: "variable defined by a NOT", check: "CHECK: a\nCHECK-NOT: [[X:x]]\nCHECK: [[X]]\n", input: "a\nb\n", status: 2},
		{name: "variable used by a NOT after the match", check: "CHECK-NOT: [[X]]y\nCHECK: [[X:x]]\n", input: "x\n"},
		{name: "variable persists across labels", check: "CHECK-LABEL: f1\nCHECK: [[V:v[0-9]]]\nCHECK-LABEL: f2\nCHECK: [[V]]\n", input: "f1\nv1\nf2\nv1\n"},
		{name: "var scope", check: "CHECK-LABEL: f1\nCHECK: [[V:v[0-9]]]\nCHECK-LABEL: f2\nCHECK: [[V]]\n", input: "f1\nv1\nf2\nv1\n",
			opts: Options{EnableVarScope: true}, status: 2, diag: "undefined variable: V"},
		{name: "var scope global", check: "CHECK-LABEL: f1\nCHECK: [[$V:v[0-9]]]\nCHECK-LABEL: f2\nCHECK: [[$V]]\n", input: "f1\nv1\nf2\nv1\n",
			opts: Options{EnableVarScope: true}},
		{name: "variable bad name", check: "CHECK: [[1:a]]\n", input: "a\n", status: 2, diag: "invalid variable name"},

		// [[#...]]: numeric variables and expressions.
		{name: "numeric", check: "CHECK: n=[[#N:]]\nCHECK: [[#N+1]] [[#N - 1]] [[#N]]\n", input: "n=10\n11 9 10\n"},
		{name: "numeric other value", check: "CHECK: n=[[#N:]]\nCHECK: [[#N+1]]\n", input: "n=10\n12\n", status: 1, diag: `with "N+1" equal to "11"`},
		{name: "numeric hex", check: "CHECK: [[#%x,A:]]\nCHECK: [[#A+1]] [[#%X,A]] [[#%.4x,A]]\n", input: "ff\n100 FF 00ff\n"},
		{name: "numeric expression defines", check: "CHECK: [[#A:]]\nCHECK: [[#B:A*2]]\n", input: "1\n2\n", status: 2, diag: "unsupported operation '*'"},
		{name: "numeric function", check: "CHECK: [[#A:]]\nCHECK: [[#mul(A,3)]]\n", input: "4\n12\n"},
		{name: "numeric same line", check: "CHECK: [[#A:]] [[#A]]\n", input: "1 1\n", status: 2, diag: "numeric variable 'A' defined earlier in the same CHECK directive"},
		{name: "numeric undefined", check: "CHECK: [[#A]]\n", input: "1\n", status: 2, diag: "undefined variable: A"},
		{name: "numeric negative unsigned", check: "CHECK: [[#A:]]\nCHECK: [[#A-2]]\n", input: "1\n0\n", status: 1, diag: "overflow error"},
		{name: "@LINE", check: "CHECK: [[#@LINE]]\n\nCHECK: [[@LINE-1]] [[#@LINE+1]]\n", input: "1\n2 4\n"},

		// Prefixes and comments.
		{name: "custom prefix", check: "// FOO: a\n// CHECK: z\n", input: "a\n", opts: Options{CheckPrefixes: []string{"FOO"}}},
		{name: "two prefixes", check: "// FOO: a\n// BAR: b\n", input: "ab\n", opts: Options{CheckPrefixes: []string{"FOO", "BAR"}}},
		{name: "unused prefix", check: "// FOO: a\n", input: "a\n", opts: Options{CheckPrefixes: []string{"FOO", "BAR"}}, status: 2, diag: "error: no check strings found with prefix 'BAR:'"},
		{name: "unused prefix allowed", check: "// FOO: a\n", input: "a\n", opts: Options{CheckPrefixes: []string{"FOO", "BAR"}, AllowUnusedPrefixes: true}},
		{name: "no directives", check: "// nothing\n", input: "a\n", status: 2, diag: "error: no check strings found with prefix 'CHECK:'\n"},
		{name: "prefix inside a word", check: "XCHECK: z\nCHECK: a\n", input: "a\n"},
		{name: "prefix without colon", check: "CHECK a\nCHECK: b\n", input: "b\n"},
		{name: "misspelled", check: "CHECK: a\nCHECK_NEXT: b\n", input: "a\nb\n", status: 2, diag: "misspelled directive 'CHECK_NEXT:'"},
		{name: "COM and RUN are comments", check: "COM: CHECK: z\n// RUN: FileCheck %s --check-prefix=CHECK: z\nCHECK: a\n", input: "a\n"},
		{name: "bad prefix", check: "CHECK: a\n", input: "a\n", opts: Options{CheckPrefixes: []string{"A B"}}, status: 2, diag: "supplied check prefix must start with a letter"},
		{name: "empty pattern", check: "CHECK:\n", input: "a\n", status: 2, diag: "found empty check string with prefix 'CHECK:'"},
		{name: "literal", check: "CHECK{LITERAL}: [[x]] {{y}}\n", input: "[[x]] {{y}}\n"},

		// Whitespace.
		{name: "whitespace runs", check: "CHECK: a  b\t c\n", input: "a\t\tb c\n"},
		{name: "whitespace needed", check: "CHECK: a b\n", input: "ab\n", status: 1},
		{name: "whitespace around the pattern", check: "CHECK:    a   \nCHECK-NEXT: b\n", input: "a\nb\n"},
		{name: "strict whitespace", check: "CHECK: a b\n", input: "a  b\n", opts: Options{StrictWhitespace: true}, status: 1},
		{name: "strict whitespace match", check: "CHECK: a\tb\n", input: "a\tb\n", opts: Options{StrictWhitespace: true}},
		{name: "full lines", check: "CHECK: a b\n", input: " a   b \n", opts: Options{MatchFullLines: true}},
		{name: "full lines part", check: "CHECK: a\n", input: "ab\n", opts: Options{MatchFullLines: true}, status: 1},
		{name: "full lines NOT", check: "CHECK-NOT: b\n", input: "ab\n", opts: Options{MatchFullLines: true}, status: 1},
		{name: "full lines strict", check: "CHECK:a\n", input: " a\n", opts: Options{MatchFullLines: true, StrictWhitespace: true}, status: 1},
		{name: "CRLF", check: "CHECK: a\r\nCHECK-NEXT: b\r\n", input: "a\r\nb\r\n"},

		// Other options.
		{name: "implicit check not", check: "CHECK: a\nCHECK: b\n", input: "a\nerror\nb\n", opts: Options{ImplicitCheckNot: []string{"error"}}, status: 1,
			diag: "command line:1:22: error: IMPLICIT-CHECK-NOT: excluded string found in input\n-implicit-check-not='error'\n                     ^\n"},
		{name: "ignore case", check: "CHECK: ABC{{[a-c]}}\n", input: "abcB\n", opts: Options{IgnoreCase: true}},
		{name: "empty input", check: "CHECK-NOT: a\n", input: "", status: 2, diag: "error: 'input.txt' is empty."},
		{name: "empty input allowed", check: "CHECK-NOT: a\n", input: "", opts: Options{AllowEmpty: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, diag := checkText(t, tc.check, tc.input, tc.opts)
			if status != tc.status || !strings.Contains(diag, tc.diag) {
				t.Errorf("status %d, want %d; diagnostics:\n%s\nwant them to hold:\n%s", status, tc.status, diag, tc.diag)
			}
		})
	}
}

// Checks match input after input, each from scratch: variables do not carry over.
func TestMatchAgain(t *testing.T) {
	c, err := Parse("check.txt", []byte("CHECK: [[V:[a-z]+]] [[#N:]]\nCHECK: [[V]] [[#N+1]]\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		input string
		ok    bool
	}{
		{"a 1\na 2\n", true},
		{"b 5\nb 6\n", true},
		{"c 5\nb 6\n", false},
		{"x 0\nx 1\n", true},
	} {
		if err := c.Match("input.txt", []byte(tc.input)); (err == nil) != tc.ok {
			t.Errorf("%q: %v, want a match %v", tc.input, err, tc.ok)
		}
	}
}

// Any check file and input give a verdict or an error, never a panic (seeded with the corpus;
// go test -fuzz FuzzCheck explores further).
func FuzzCheck(f *testing.F) {
	checks, _ := filepath.Glob("testdata/corpus/*.check")
	for _, c := range checks {
		check, err1 := os.ReadFile(c)
		input, err2 := os.ReadFile(strings.TrimSuffix(c, ".check") + ".input")
		if err1 == nil && err2 == nil {
			f.Add(string(check), string(input), uint8(len(check)))
		}
	}
	f.Fuzz(func(t *testing.T, check, input string, flags uint8) {
		o := Options{
			StrictWhitespace: flags&1 != 0,
			MatchFullLines:   flags&2 != 0,
			IgnoreCase:       flags&4 != 0,
			EnableVarScope:   flags&8 != 0,
			AllowEmpty:       flags&16 != 0,
		}
		c, err := Parse("check.txt", []byte(check), o)
		if err == nil {
			err = c.Match("input.txt", []byte(input))
		}
		var fe *Error
		if err != nil && (!errors.As(err, &fe) || fe.Status != 1 && fe.Status != 2 || fe.Diagnostics == "") {
			t.Fatalf("%#v", err)
		}
	})
}
