package chip

import (
	"bytes"
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/chips.md and rules/private/chip_table.bzl from the table")

// docs/chips.md is generated from the table (WriteMarkdown); this test fails when it is stale.
// Regenerate with: go test ./tools/chip -run TestDocsChips -update
func TestDocsChips(t *testing.T) {
	const path = "../../docs/chips.md"
	var b bytes.Buffer
	b.WriteString("<!-- Generated from tools/chip/table.go by `go test ./tools/chip -run TestDocsChips -update`. Do not edit. -->\n\n")
	if err := WriteMarkdown(&b); err != nil {
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
		t.Fatalf("%v (generate it: go test ./tools/chip -run TestDocsChips -update)", err)
	}
	if !bytes.Equal(got, b.Bytes()) {
		t.Errorf("%s is stale: run go test ./tools/chip -run TestDocsChips -update", path)
	}
}

// rules/private/chip_table.bzl is generated from the table (WriteStarlark); this test fails when it is
// stale. Regenerate with: go test ./tools/chip -run TestStarlarkTable -update
func TestStarlarkTable(t *testing.T) {
	const path = "../../rules/private/chip_table.bzl"
	var b bytes.Buffer
	if err := WriteStarlark(&b); err != nil {
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
		t.Fatalf("%v (generate it: go test ./tools/chip -run TestStarlarkTable -update)", err)
	}
	if !bytes.Equal(got, b.Bytes()) {
		t.Errorf("%s is stale: run go test ./tools/chip -run TestStarlarkTable -update", path)
	}
}
