package cudalib

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteStarlark renders the table for the rules and the toolchains (cuda/libraries_table.bzl):
//
//   - CUDA_LIBRARIES: each library by name, in table order, a struct of title, static (the archives'
//     file names, in link order), shared (the shared library's file name, "" for none), deps,
//     static_deps, system, header, and the messages' parts: what_static, what_shared, what_headers
//     (what is missing) and fix_static, fix_shared, fix_headers (what to do), "" where the library
//     has no such part;
//   - LIBRARY_FILES: every file name of every library (what a toolchain looks for);
//   - MISSING: the message for a library the toolkit lacks, with {label}, {toolkit}, {what}, {fix}.
func WriteStarlark(w io.Writer) error {
	b := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	q := strconv.Quote
	list := func(ss []string) string {
		qs := make([]string, len(ss))
		for i, s := range ss {
			qs[i] = q(s)
		}
		return "[" + strings.Join(qs, ", ") + "]"
	}
	p("\"\"\"The CUDA toolkit's libraries, for the @rules_gpu//cuda:NAME targets and the toolchains' discovery.\n\n")
	p("Generated from tools/cudalib/cudalib.go by `go test ./tools/cudalib -run TestStarlarkTable -update`. Do not edit.\n")
	p("\"\"\"\n\n")
	p("# Each library by name, in table order (a library after those it needs).\n")
	p("CUDA_LIBRARIES = {\n")
	var files []string
	for _, l := range table {
		files = append(files, l.Static...)
		if l.Shared != "" {
			files = append(files, l.Shared)
		}
		p("    %s: struct(\n", q(l.Name))
		p("        title = %s,\n", q(l.Title))
		p("        static = %s,\n", list(l.Static))
		p("        shared = %s,\n", q(l.Shared))
		p("        deps = %s,\n", list(l.Deps))
		p("        static_deps = %s,\n", list(l.StaticDeps))
		p("        system = %s,\n", list(l.System))
		p("        header = %s,\n", q(l.Header))
		for _, part := range []struct {
			name string
			part Part
			has  bool
		}{{"static", Static, len(l.Static) > 0}, {"shared", Shared, l.Shared != ""}, {"headers", Headers, true}} {
			what, fix := "", ""
			if part.has {
				what, fix = l.What(part.part), l.Fix(part.part)
			}
			p("        what_%s = %s,\n", part.name, q(what))
			p("        fix_%s = %s,\n", part.name, q(fix))
		}
		p("    ),\n")
	}
	p("}\n\n")
	p("# Every file name of every library: what a toolchain's discovery looks for.\n")
	p("LIBRARY_FILES = %s\n\n", list(files))
	p("# The message for a library the toolkit lacks ({label}, {toolkit}, {what}, {fix}).\n")
	p("MISSING = %s\n", q(Missing))
	return b.Flush()
}
