package chip

import (
	"bytes"
	"flag"
	"io"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/internal/testtool"
)

var update = flag.Bool("update", false, "rewrite docs/chips.md and rules/private/chip_table.bzl from the table")

// checkGenerated checks the file at path against what render writes after header.
func checkGenerated(t *testing.T, path, header, regenerate string, render func(io.Writer) error) {
	t.Helper()
	var b bytes.Buffer
	b.WriteString(header)
	if err := render(&b); err != nil {
		t.Fatal(err)
	}
	testtool.Generated(t, path, b.Bytes(), *update, regenerate)
}

// docs/chips.md is generated from the table (WriteMarkdown).
func TestDocsChips(t *testing.T) {
	checkGenerated(t, "../../docs/chips.md",
		"<!-- Generated from tools/chip/table.go by `go test ./tools/chip -run TestDocsChips -update`. Do not edit. -->\n\n",
		"go test ./tools/chip -run TestDocsChips -update", WriteMarkdown)
}

// rules/private/chip_table.bzl, the gpu_module rule's analysis-time checks, is generated from the
// table (WriteStarlark).
func TestStarlarkTable(t *testing.T) {
	checkGenerated(t, "../../rules/private/chip_table.bzl", "",
		"go test ./tools/chip -run TestStarlarkTable -update", WriteStarlark)
}
