package mlir

import (
	"fmt"
	"regexp"
	"strings"
)

// ModuleMatcher selects gpu.modules by name with a module pattern, in the dialect the package
// documentation describes (MLIR's module option: POSIX extended, matched anywhere in the name).
// The zero ModuleMatcher, like the empty pattern, selects every module.
type ModuleMatcher struct {
	re *regexp.Regexp // nil: every name
}

// NewModuleMatcher compiles a module pattern. It fails on a pattern MLIR's llvm::Regex finds
// invalid, and on the forms it reads differently from Go's POSIX syntax (see the package
// documentation).
func NewModuleMatcher(pattern string) (ModuleMatcher, error) {
	if pattern == "" {
		return ModuleMatcher{}, nil
	}
	re, err := moduleRegex(pattern)
	if err != nil {
		return ModuleMatcher{}, err
	}
	return ModuleMatcher{re: re}, nil
}

// Match says whether the pattern selects the module named name (unescaped, as Module.Name).
func (m ModuleMatcher) Match(name string) bool {
	return m.re == nil || m.re.MatchString(latin1(name))
}

// moduleRegex compiles Target.Module so that it selects what MLIR's llvm::Regex selects: a POSIX
// extended regular expression (Go's CompilePOSIX syntax), matched byte by byte (both the pattern
// and the name are read as Latin-1, so "." is one byte, as in llvm::Regex). It rejects the forms
// the two libraries read differently, which llvm::Regex would read as something else or find
// invalid (an invalid pattern makes the pass match no module).
func moduleRegex(re string) (*regexp.Regexp, error) {
	if err := checkRegex(re); err != nil {
		return nil, err
	}
	return regexp.CompilePOSIX(latin1(re))
}

// latin1 maps each byte of s to the rune of the same value.
func latin1(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	r := make([]rune, len(s))
	for i := 0; i < len(s); i++ {
		r[i] = rune(s[i])
	}
	return string(r)
}

// checkRegex rejects what Go's POSIX syntax cannot compile and what it compiles differently from
// llvm::Regex (found by running both).
func checkRegex(re string) error {
	bad := func(i int, why string) error {
		return fmt.Errorf("%q at offset %d: %s", re, i, why)
	}
	// After a repetition operator; at the start of an alternative; right after a '|'.
	repeat, start, bar := false, true, false
	for i := 0; i < len(re); i++ {
		c := re[i]
		bar = c == '|'
		switch c {
		case '\\':
			if i+1 < len(re) && (isLetter(re[i+1]) || isDigit(re[i+1])) {
				return bad(i, fmt.Sprintf(`\%c is a plain %c (or a back-reference) for MLIR's regular expressions; use a bracket expression such as [0-9] or [[:space:]]`, re[i+1], re[i+1]))
			}
			i++
		case '[':
			j := i + 1
			if j < len(re) && re[j] == '^' {
				j++
			}
			if j < len(re) && re[j] == ']' {
				j++
			}
			for j < len(re) && re[j] != ']' {
				switch {
				case re[j] == '\\':
					return bad(j, "a backslash in a bracket expression is a plain backslash for MLIR's regular expressions, an escape for Go's")
				case re[j] == '[' && j+1 < len(re) && (re[j+1] == '.' || re[j+1] == '='):
					return bad(j, "collating elements and equivalence classes ([. .] and [= =]) are not supported")
				case re[j] == '[' && j+1 < len(re) && re[j+1] == ':':
					if k := strings.Index(re[j+2:], ":]"); k >= 0 {
						j += k + 4
						continue
					}
				}
				j++
			}
			i = j
		case '*', '+', '?':
			if repeat {
				return bad(i, "a repetition of a repetition (such as *? or **) is invalid for MLIR's regular expressions")
			}
			repeat, start = true, false
			continue
		case '{':
			j := i + 1
			for j < len(re) && (isDigit(re[j]) || re[j] == ',') {
				j++
			}
			if j == i+1 || !isDigit(re[i+1]) || j >= len(re) || re[j] != '}' || strings.Count(re[i+1:j], ",") > 1 {
				return bad(i, "a { that does not start a bound {n}, {n,} or {n,m}: write a literal { as [{]")
			}
			if repeat {
				return bad(i, "a repetition of a repetition is invalid for MLIR's regular expressions")
			}
			i = j
			repeat, start = true, false
			continue
		case '|':
			if start {
				return bad(i, "an empty alternative is invalid for MLIR's regular expressions")
			}
			repeat, start = false, true
			continue
		case '(':
			repeat, start = false, true
			continue
		case ')':
			if i > 0 && re[i-1] == '|' {
				return bad(i-1, "an empty alternative is invalid for MLIR's regular expressions")
			}
		}
		repeat, start = false, false
	}
	if bar {
		return bad(len(re)-1, "an empty alternative is invalid for MLIR's regular expressions")
	}
	_, err := regexp.CompilePOSIX(latin1(re))
	return err
}
