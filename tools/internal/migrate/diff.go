package migrate

import (
	"fmt"
	"strings"
)

// diffContext is how many unchanged lines a hunk shows around a change, as diff -u.
const diffContext = 3

// Diff is the change as a unified diff (diff -u), from a/PATH to b/PATH.
func (c Change) Diff() string {
	return unifiedDiff("a/"+c.Path, "b/"+c.Path, string(c.Old), string(c.New))
}

// edit is one line of an edit script: ' ' kept, '-' deleted, '+' inserted.
type edit struct {
	op   byte
	line string // with its newline, if it has one
}

// unifiedDiff writes the difference of two texts as a unified diff; "" when they are equal.
func unifiedDiff(oldName, newName, oldText, newText string) string {
	if oldText == newText {
		return ""
	}
	a, b := splitLines(oldText), splitLines(newText)
	script := diffLines(a, b)
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", oldName, newName)
	// Each hunk runs from diffContext lines before a change to diffContext lines after the last
	// change at most 2*diffContext unchanged lines away from the one before.
	for i := 0; i < len(script); {
		if script[i].op == ' ' {
			i++
			continue
		}
		first := max(i-diffContext, 0)
		last := i // the last change of the hunk
		for j := i + 1; j < len(script) && j <= last+2*diffContext+1; j++ {
			if script[j].op != ' ' {
				last = j
			}
		}
		end := min(last+diffContext+1, len(script))
		// The hunk's first line in each text: count the lines before it.
		aStart, bStart := 1, 1
		for _, e := range script[:first] {
			if e.op != '+' {
				aStart++
			}
			if e.op != '-' {
				bStart++
			}
		}
		aLen, bLen := 0, 0
		for _, e := range script[first:end] {
			if e.op != '+' {
				aLen++
			}
			if e.op != '-' {
				bLen++
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(aStart, aLen), hunkRange(bStart, bLen))
		for _, e := range script[first:end] {
			out.WriteByte(e.op)
			out.WriteString(e.line)
			if !strings.HasSuffix(e.line, "\n") {
				out.WriteString("\n\\ No newline at end of file\n")
			}
		}
		i = end
	}
	return out.String()
}

// hunkRange writes a hunk's lines in one text as diff -u does: START,LEN, START alone for one line,
// and the line before for none.
func hunkRange(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start-1)
	case 1:
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}

// splitLines splits text after each newline; a last line without one is kept as it is.
func splitLines(text string) []string {
	lines := strings.SplitAfter(text, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// diffLines is an edit script from a to b of fewest deletions and insertions: the longest common
// subsequence, by dynamic programming over what differs between the common head and tail. BUILD files
// are short; past maxCells the middle is replaced whole.
func diffLines(a, b []string) []edit {
	const maxCells = 16 << 20
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	var script []edit
	for _, l := range a[:head] {
		script = append(script, edit{' ', l})
	}
	x, y := a[head:len(a)-tail], b[head:len(b)-tail]
	n, m := len(x), len(y)
	if (n+1)*(m+1) > maxCells {
		for _, l := range x {
			script = append(script, edit{'-', l})
		}
		for _, l := range y {
			script = append(script, edit{'+', l})
		}
	} else {
		// lcs[i][j] is the length of the longest common subsequence of x[i:] and y[j:].
		lcs := make([][]int32, n+1)
		for i := range lcs {
			lcs[i] = make([]int32, m+1)
		}
		for i := n - 1; i >= 0; i-- {
			for j := m - 1; j >= 0; j-- {
				if x[i] == y[j] {
					lcs[i][j] = lcs[i+1][j+1] + 1
				} else {
					lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		i, j := 0, 0
		for i < n || j < m {
			switch {
			case i < n && j < m && x[i] == y[j]:
				script = append(script, edit{' ', x[i]})
				i, j = i+1, j+1
			case j < m && (i == n || lcs[i][j+1] > lcs[i+1][j]):
				script = append(script, edit{'+', y[j]})
				j++
			default:
				script = append(script, edit{'-', x[i]})
				i++
			}
		}
	}
	for _, l := range a[len(a)-tail:] {
		script = append(script, edit{' ', l})
	}
	return script
}
