package buildfile

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/bazelbuild/buildtools/build"

	"github.com/rulesgpu/rules_gpu/tools/internal/atomicfile"
)

// Write writes back the BUILD files that edits changed, formatted as buildifier formats them
// (build.Format), and returns their paths relative to the repository root, in package order. A file
// whose formatted text equals what is on disk is not written; files no edit touched are never written.
// The whole of an edited file is printed as buildifier would print it, so in a file that was not
// buildifier-formatted the diff holds more than the edit. Each file is written by atomicfile.Write
// (a temporary file in its directory renamed over the old one, keeping its mode; a symbolic link is
// followed and kept), so a failure leaves no partly written BUILD file; files written before a
// failure stay written (the error names the file that failed).
func (r *Repo) Write() ([]string, error) {
	var pkgs []string
	for pkg, f := range r.files {
		if f.edited {
			pkgs = append(pkgs, pkg)
		}
	}
	slices.Sort(pkgs)
	var written []string
	for _, pkg := range pkgs {
		f := r.files[pkg]
		out := build.Format(f.ast)
		if !bytes.Equal(out, f.orig) {
			if err := atomicfile.Write(filepath.Join(r.root, filepath.FromSlash(f.rel)), out); err != nil {
				return written, fmt.Errorf("writing %s: %w", f.rel, err)
			}
			f.orig = out
			written = append(written, f.rel)
		}
		f.edited = false
	}
	return written, nil
}

// WriteTable prints targets as an aligned table: LABEL CHIPS FORMAT RUNS_ON FILE:LINE. Unset chips
// and runs_on read "(default)"; attributes that are not literals show their Starlark source.
func WriteTable(w io.Writer, targets []Target) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "LABEL\tCHIPS\tFORMAT\tRUNS_ON\tFILE:LINE")
	for _, t := range targets {
		format := t.Format
		if t.FormatExpr != "" {
			format = t.FormatExpr
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", t.Label, listCell(t.Chips, t.ChipsExpr), format,
			listCell(t.RunsOn, t.RunsOnExpr), t.Where())
	}
	return tw.Flush()
}

func listCell(list []string, expr string) string {
	switch {
	case len(expr) > 40:
		return expr[:37] + "..."
	case expr != "":
		return expr
	case list == nil:
		return "(default)"
	case len(list) == 0:
		return "[] (default)" // gpu_module reads an empty list as unset
	}
	return strings.Join(list, ",")
}
