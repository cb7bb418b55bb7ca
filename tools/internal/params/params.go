// Package params expands Bazel parameter files in command lines.
//
// Bazel passes long command lines in parameter files: rules_gpu's actions use
// args.use_param_file("--params=%s"), so a file holds one argument per line ("multiline" format, or
// "shell" with single quotes). Expand replaces each "--params=FILE" argument by the arguments in FILE.
// The explicit flag, rather than Bazel's usual "@FILE", keeps labels such as "@repo//pkg:name" literal.
package params

import (
	"fmt"
	"os"
	"strings"
)

// Flag is the prefix of a parameter file argument.
const Flag = "--params="

// Expand returns args with every "--params=FILE" argument replaced by the arguments in FILE, one per
// line. Parameter files do not nest.
func Expand(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		switch {
		case strings.HasPrefix(a, Flag):
			data, err := os.ReadFile(a[len(Flag):])
			if err != nil {
				return nil, fmt.Errorf("reading parameter file: %w", err)
			}
			text := strings.TrimSuffix(string(data), "\n")
			if text == "" {
				continue
			}
			for _, line := range strings.Split(text, "\n") {
				out = append(out, unquote(line))
			}
		default:
			out = append(out, a)
		}
	}
	return out, nil
}

// unquote undoes Bazel's "shell" parameter file quoting: 'a b' and 'it'\”s'.
func unquote(s string) string {
	if len(s) < 2 || s[0] != '\'' || s[len(s)-1] != '\'' {
		return s
	}
	return strings.ReplaceAll(s[1:len(s)-1], `'\''`, `'`)
}
