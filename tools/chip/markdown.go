package chip

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// WriteMarkdown renders the chip table as a Markdown page: the targets, the toolkits, the PTX ISA
// releases and the compatibility rules. Facts marked unverified in the table are marked so here too.
func WriteMarkdown(w io.Writer) error {
	b := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }

	p("# NVIDIA targets\n\n")
	p("Generated from `tools/chip/table.go`; the sources of every fact are cited there. ")
	p("Each real target `sm_XX` has a virtual twin `compute_XX` (PTX) over the same toolkits. ")
	p("\"Last CUDA\" is empty while the newest toolkit in the table still compiles for the chip.\n\n")
	p("| Real | Virtual | First CUDA | Last CUDA | Min PTX ISA | Family | GPUs | Notes |\n")
	p("|---|---|---|---|---|---|---|---|\n")
	for _, a := range arches {
		last := ""
		if !a.Last.IsZero() {
			last = a.Last.String()
		}
		var notes []string
		if !a.RenamedTo.IsZero() {
			notes = append(notes, fmt.Sprintf("renamed `%s` in CUDA %s", a.RenamedTo, firstOf(a.RenamedTo)))
		}
		switch a.Chip.Suffix {
		case "a":
			notes = append(notes, fmt.Sprintf("runs only on %s", Chip{Major: a.Chip.Major, Minor: a.Chip.Minor}))
		case "f":
			notes = append(notes, fmt.Sprintf("runs on family %s from %d.%d up", a.Family, a.Chip.Major, a.Chip.Minor))
		}
		if a.Unverified != "" {
			notes = append(notes, "unverified: "+a.Unverified)
		}
		p("| `%s` | `%s` | %s | %s | %s | %s | %s | %s |\n", a.Chip, withVirtual(a.Chip, true),
			a.First, last, a.MinPTX, a.Family, cell(a.Products), cell(strings.Join(notes, "; ")))
	}

	p("\n# CUDA toolkits\n\n")
	p("The newest PTX ISA version each toolkit emits, and the real targets it compiles for ")
	p("(each with its `compute_` twin). A driver of CUDA X.Y JIT-compiles the PTX ISA of toolkit X.Y and older.\n\n")
	p("| CUDA | Newest PTX ISA | Targets | Notes |\n")
	p("|---|---|---|---|\n")
	for _, t := range toolkits {
		newest, _ := t.V.NewestPTX()
		var names []string
		for _, c := range t.V.Chips() {
			names = append(names, c.String())
		}
		note := ""
		if t.Unverified != "" {
			note = "unverified: " + t.Unverified
		}
		p("| %s | %s | %s | %s |\n", t.V, newest, strings.Join(names, " "), cell(note))
	}

	p("\n# PTX ISA versions\n\n")
	p("The CUDA release that introduced each PTX ISA version: the oldest toolkit that emits it and the ")
	p("oldest driver that JIT-compiles it. (CUDA 12.7 shipped no toolkit; drivers of CUDA 12.7 exist.)\n\n")
	p("| PTX ISA | CUDA |\n")
	p("|---|---|\n")
	for i := len(ptxReleases) - 1; i >= 0; i-- {
		r := ptxReleases[i]
		p("| %s | %s |\n", r.PTX, r.CUDA)
	}

	p("\n# Where code runs\n\n")
	p("- A cubin for `sm_XY` runs on chips of major version X with minor version Y or higher.\n")
	p("- `a` (architecture-specific) code, cubin or PTX, runs only on exactly its chip.\n")
	p("- `f` (family-specific) code runs on the chips of its family with an equal or higher minor version ")
	p("(`sm_100f` on sm_100 and sm_103).\n")
	p("- Plain PTX (`compute_XY`) is JIT-compiled for any chip of compute capability X.Y or higher, ")
	p("if the driver knows its PTX ISA version.\n")
	p("- The driver takes a matching cubin over PTX.\n")
	p("- Cubins built by CUDA X.y need a driver of CUDA X.0 or newer.\n")
	return b.Flush()
}

// cell makes text safe for one Markdown table cell.
func cell(s string) string {
	return strings.NewReplacer("|", "\\|", "\n", " ").Replace(s)
}
