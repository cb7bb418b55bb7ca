package chip

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestWriteMarkdown(t *testing.T) {
	var b bytes.Buffer
	if err := WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"# NVIDIA targets", "# CUDA toolkits", "# PTX ISA versions", "# Where code runs",
		"| `sm_90a` | `compute_90a` | 12.0 |  | 8.0 | sm_9x |  | runs only on sm_90 |",
		"| `sm_101` | `compute_101` | 12.8 | 12.9 | 8.6 | sm_101 |",
		"renamed `sm_110` in CUDA 13.0",
		"| `sm_100f` | `compute_100f` | 12.9 |  | 8.8 | sm_10x |  | runs on family sm_10x from 10.0 up |",
		"| 13.0 | 9.0 | sm_75 sm_80 ",
		"| 12.6 | 8.5 |",
		"| 8.6 | 12.7 |",
		"unverified: target list assumed to equal 13.0's",
		"unverified: min PTX 3.1",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
	// One row per chip, per toolkit and per PTX ISA version.
	for _, a := range arches {
		if !strings.Contains(out, "| `"+a.Chip.String()+"` |") {
			t.Errorf("markdown lacks a row for %v", a.Chip)
		}
	}
	rows := 0
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "| ") {
			rows++
		}
	}
	if want := 3 + len(arches) + len(toolkits) + len(ptxReleases); rows != want {
		t.Errorf("markdown has %d table lines, want %d", rows, want)
	}
	// Every row of every table has the header's number of cells.
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "|") && strings.Count(strings.ReplaceAll(line, `\|`, ""), "|") < 3 {
			t.Errorf("short table line %q", line)
		}
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteMarkdownError(t *testing.T) {
	if err := WriteMarkdown(failWriter{}); err == nil {
		t.Error("WriteMarkdown to a failing writer returned nil")
	}
}
