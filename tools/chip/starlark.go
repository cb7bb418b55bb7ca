package chip

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteStarlark renders what the gpu_module rule checks at analysis time as a Starlark file, so that
// a wrong chip fails `bazel build` before any action runs, with the same words as Check:
//
//   - CHIPS: every real target, in table order;
//   - VIRTUAL_CHIP: the message for a virtual chip, with "{chip}" and "{real}";
//   - DUPLICATE_CHIP: the message for a chip listed twice, with "{chip}" and "{list}";
//   - UNKNOWN_CHIP: the message for a name not in the table, with "%s" for the name;
//   - NOT_A_RUNNER: the message for a runner that is a target, not a GPU (sm_90a);
//   - DRIVERS, UNKNOWN_DRIVER: the driver CUDA versions the table knows, and the message for another;
//   - UNSUPPORTED: for each toolkit release, the chips it cannot compile and Check's message for each;
//   - FAMILY: each chip's family (Chip.Family), the pool key of the GPU tests that run on it.
//
// The file is generated (rules/private/chip_table.bzl); the table stays in table.go only.
func WriteStarlark(w io.Writer) error {
	b := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	p("\"\"\"The chip table's verdicts for the gpu_module rule's analysis-time checks.\n\n")
	p("Generated from tools/chip/table.go by `go test ./tools/chip -run TestStarlarkTable -update`. Do not edit.\n")
	p("\"\"\"\n\n")
	p("# Every real target, in table order.\n")
	p("CHIPS = [\n")
	for _, a := range arches {
		p("    %s,\n", strconv.Quote(a.Chip.String()))
	}
	p("]\n\n")
	p("# The message for a virtual chip where a real one is wanted ({chip}: the chip, {real}: its real chip).\n")
	p("VIRTUAL_CHIP = %s\n\n", strconv.Quote(virtualChip))
	p("# The message for a chip that a list names twice ({chip}: the chip, {list}: the attribute or flag).\n")
	p("DUPLICATE_CHIP = %s\n\n", strconv.Quote(duplicateChip))
	p("# The message for a chip name not in the table (%%s: the name).\n")
	p("UNKNOWN_CHIP = %s\n\n", strconv.Quote(unknownChipFormat()))
	p("# The message for a runner named as a target, not a GPU ({list}: the attribute or flag, {runner}: the name, {gpu}: the GPU's chip).\n")
	p("NOT_A_RUNNER = %s\n\n", strconv.Quote(notARunner))
	p("# The driver CUDA versions the table knows, oldest first (tools/chip Drivers).\n")
	p("DRIVERS = [\n")
	for _, d := range Drivers() {
		p("    %s,\n", strconv.Quote(d.String()))
	}
	p("]\n\n")
	ds := Drivers()
	p("# The message for a driver CUDA version the table does not know ({driver}: the version).\n")
	p("UNKNOWN_DRIVER = %s\n\n", strconv.Quote(strings.NewReplacer("{first}", ds[0].String(), "{last}", ds[len(ds)-1].String()).Replace(unknownDriver)))
	p("# Per toolkit release: each chip it cannot compile, and why (tools/chip Toolkit.Check).\n")
	p("UNSUPPORTED = {\n")
	for _, t := range toolkits {
		p("    %s: {\n", strconv.Quote(t.V.String()))
		for _, a := range arches {
			if err := t.V.Check(a.Chip); err != nil {
				p("        %s: %s,\n", strconv.Quote(a.Chip.String()), strconv.Quote(err.Error()))
			}
		}
		p("    },\n")
	}
	p("}\n\n")
	p("# Each chip's family, the runner pool of the GPU tests that run on it (tools/chip Chip.Family).\n")
	p("FAMILY = {\n")
	for _, a := range arches {
		p("    %s: %s,\n", strconv.Quote(a.Chip.String()), strconv.Quote(a.Chip.Family()))
	}
	p("}\n")
	return b.Flush()
}

// unknownChipFormat is the text of an unknown-chip error without a toolkit, "%s" standing for the name.
func unknownChipFormat() string {
	names := ""
	for i, a := range arches {
		if i > 0 {
			names += ", "
		}
		names += a.Chip.String()
	}
	return "unknown chip %s: not in the chip table (known: " + names + "; see docs/chips.md)"
}
