package migrate

import (
	"fmt"
	"strings"
	"testing"
)

func numbered(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "%d\n", i)
	}
	return b.String()
}

func TestUnifiedDiff(t *testing.T) {
	for _, tc := range []struct {
		name, old, new, want string
	}{
		{"equal", "a\n", "a\n", ""},
		{"one line changed", "a\nb\nc\n", "a\nB\nc\n", "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
		{"from nothing", "", "a\nb\n", "--- a/f\n+++ b/f\n@@ -0,0 +1,2 @@\n+a\n+b\n"},
		{"to nothing", "a\n", "", "--- a/f\n+++ b/f\n@@ -1 +0,0 @@\n-a\n"},
		{"no newline at the end", "a\nb", "a\nb\n", "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"},
		// Changes 7 unchanged lines apart make two hunks, 6 apart one.
		{"two hunks", numbered(1, 20), strings.Replace(strings.Replace(numbered(1, 20), "2\n", "two\n", 1), "\n10\n", "\nten\n", 1),
			"--- a/f\n+++ b/f\n@@ -1,5 +1,5 @@\n 1\n-2\n+two\n 3\n 4\n 5\n@@ -7,7 +7,7 @@\n 7\n 8\n 9\n-10\n+ten\n 11\n 12\n 13\n"},
		{"one hunk", numbered(1, 12), strings.Replace(strings.Replace(numbered(1, 12), "2\n", "two\n", 1), "\n9\n", "\nnine\n", 1),
			"--- a/f\n+++ b/f\n@@ -1,12 +1,12 @@\n 1\n-2\n+two\n 3\n 4\n 5\n 6\n 7\n 8\n-9\n+nine\n 10\n 11\n 12\n"},
		{"insertion", "a\nb\nc\nd\ne\nf\n", "a\nb\nc\nnew\nd\ne\nf\n", "--- a/f\n+++ b/f\n@@ -1,6 +1,7 @@\n a\n b\n c\n+new\n d\n e\n f\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := unifiedDiff("a/f", "b/f", tc.old, tc.new); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// Applying the diff's hunks to the old text gives the new one: the edit script is complete.
func TestDiffLines(t *testing.T) {
	a := splitLines("x\na\nb\nc\nx\ny\nz\n")
	b := splitLines("a\nb\nq\nc\ny\nz\nw\n")
	var gotA, gotB strings.Builder
	kept := 0
	for _, e := range diffLines(a, b) {
		if e.op != '+' {
			gotA.WriteString(e.line)
		}
		if e.op != '-' {
			gotB.WriteString(e.line)
		}
		if e.op == ' ' {
			kept++
		}
	}
	if gotA.String() != strings.Join(a, "") || gotB.String() != strings.Join(b, "") {
		t.Errorf("the script does not rebuild the texts: %q, %q", gotA.String(), gotB.String())
	}
	if kept != 5 { // a b c y z
		t.Errorf("kept %d lines, want the 5 of the longest common subsequence", kept)
	}
}
