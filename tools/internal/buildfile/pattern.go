package buildfile

import (
	"fmt"
	"strings"
)

// pattern is a Bazel target pattern: //..., //pkg/..., //pkg:all (or :*), //pkg:name, or //pkg (the
// target named like the package's last directory).
type pattern struct {
	text      string
	pkg       string // "" for the root package
	recursive bool   // pkg and every package beneath it
	name      string // "" for every target
}

// parsePattern reads one target pattern. Patterns are absolute: relative ones (:name, pkg:name) and
// negative ones (-//pkg/...) are refused.
func parsePattern(s string) (pattern, error) {
	bad := func(why string) (pattern, error) {
		return pattern{}, fmt.Errorf("bad pattern %q: %s; use //..., //pkg/..., //pkg:all or //pkg:name", s, why)
	}
	rest, ok := strings.CutPrefix(s, "//")
	if !ok {
		return bad("patterns start with //")
	}
	p := pattern{text: s}
	pkg, name, hasName := strings.Cut(rest, ":")
	if hasName {
		switch {
		case name == "":
			return bad("empty target name after ':'")
		case strings.ContainsAny(name, ":"):
			return bad("more than one ':'")
		case name == "all" || name == "*" || name == "all-targets":
			name = ""
		}
	}
	if pkg == "..." || strings.HasSuffix(pkg, "/...") {
		p.recursive = true
		pkg = strings.TrimSuffix(strings.TrimSuffix(pkg, "..."), "/")
		if name != "" {
			return bad("a recursive pattern selects whole packages (//pkg/... or //pkg/...:all)")
		}
	}
	if pkg != "" {
		for _, part := range strings.Split(pkg, "/") {
			switch part {
			case "":
				return bad("empty directory name in the package")
			case ".", "..", "...":
				return bad(fmt.Sprintf("%q in the package", part))
			}
		}
	}
	p.pkg = pkg
	switch {
	case hasName || p.recursive:
		p.name = name
	case pkg == "":
		return bad("// alone names no target")
	default:
		p.name = pkg[strings.LastIndex(pkg, "/")+1:] // //pkg/foo means //pkg/foo:foo
	}
	return p, nil
}

// matchesPackage reports whether p selects targets of package pkg.
func (p pattern) matchesPackage(pkg string) bool {
	if !p.recursive {
		return pkg == p.pkg
	}
	return p.pkg == "" || pkg == p.pkg || strings.HasPrefix(pkg, p.pkg+"/")
}
