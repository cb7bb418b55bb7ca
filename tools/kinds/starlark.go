package kinds

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteStarlark renders the table for the rules' analysis-time checks
// (rules/private/kinds_table.bzl):
//
//   - KIND: each source extension, without the dot (as a Starlark File's extension), to its kind,
//     and kind_of(File), the kind of a source;
//   - EXTENSIONS: each kind's extensions, with the dot (the rules' allow_files);
//   - HEADER_EXTENSIONS: the extensions of headers, with the dot (hdrs);
//   - FORMAT_EXTENSION: each format's file extension, with the dot;
//   - RULES: the combinations refused, each a struct of kind, formats (refused; empty: any),
//     allowed (every other format refused; empty: any), compiler ("": any), rdc and message, whose
//     {src} and {format} the rule fills in.
func WriteStarlark(w io.Writer) error {
	b := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	q := strconv.Quote
	list := func(ss []string) string {
		for i, s := range ss {
			ss[i] = q(s)
		}
		return "[" + strings.Join(ss, ", ") + "]"
	}
	p("\"\"\"The table of source kinds, formats and compilers, for the rules' analysis-time checks.\n\n")
	p("Generated from tools/kinds/kinds.go by `go test ./tools/kinds -run TestStarlarkTable -update`. Do not edit.\n")
	p("\"\"\"\n\n")
	p("# Each source extension (a File's extension: no dot) and its kind.\n")
	p("KIND = {\n")
	for _, r := range kindTable {
		for _, e := range r.exts {
			p("    %s: %s,\n", q(strings.TrimPrefix(e, ".")), q(string(r.kind)))
		}
	}
	p("}\n\n")
	p("def kind_of(src):\n")
	p("    \"\"\"The kind of a source File, by its extension (KIND); None for no kind of the table.\"\"\"\n")
	p("    return KIND.get(src.extension.lower())\n\n")
	p("# Each kind's extensions, with the dot (allow_files).\n")
	p("EXTENSIONS = {\n")
	for _, r := range kindTable {
		p("    %s: %s,\n", q(string(r.kind)), list(append([]string(nil), r.exts...)))
	}
	p("}\n\n")
	p("# The extensions of CUDA C++ headers, with the dot (hdrs); another file that a source includes\n")
	p("# is a textual header (textual_hdrs).\n")
	p("HEADER_EXTENSIONS = %s\n\n", list(HeaderExtensions()))
	p("# Each format's file extension, with the dot (the per-chip and module files' names).\n")
	p("FORMAT_EXTENSION = {\n")
	for _, ff := range formatFiles {
		p("    %s: %s,\n", q(string(ff.format)), q(ff.ext))
	}
	p("}\n\n")
	p("# The combinations of a source's kind with its module's format, compiler and rdc that are refused,\n")
	p("# each with its message ({src}: the source, {format}: the format), in the order they are checked.\n")
	p("RULES = [\n")
	for _, r := range rules {
		strs := func(fs []Format) string {
			ss := make([]string, len(fs))
			for i, f := range fs {
				ss[i] = string(f)
			}
			return list(ss)
		}
		p("    struct(\n")
		p("        kind = %s,\n", q(string(r.kind)))
		p("        formats = %s,\n", strs(r.formats))
		p("        allowed = %s,\n", strs(r.allowed))
		p("        compiler = %s,\n", q(string(r.compiler)))
		p("        rdc = %s,\n", map[bool]string{true: "True", false: "False"}[r.rdc])
		p("        message = %s,\n", q(r.message))
		p("    ),\n")
	}
	p("]\n")
	return b.Flush()
}
