package chip

import (
	"bytes"
	"flag"
	"io"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/chips.md and rules/private/chip_table.bzl from the table")

// checkGenerated fails t when the file at path is not what render writes after header; with -update
// it rewrites the file instead.
func checkGenerated(t *testing.T, path, header, regenerate string, render func(io.Writer) error) {
	t.Helper()
	var b bytes.Buffer
	b.WriteString(header)
	if err := render(&b); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (generate it: %s)", err, regenerate)
	}
	if !bytes.Equal(got, b.Bytes()) {
		t.Errorf("%s is stale: run %s", path, regenerate)
	}
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
