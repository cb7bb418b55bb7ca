// Package params expands Bazel parameter files in command lines.
//
// Bazel passes long command lines as "@path" arguments naming a file that holds one argument per line
// (ctx.actions.args().use_param_file("@%s") with the default "shell" or "multiline" format). Expand
// replaces each such argument by the lines of its file.
package params

import (
	"fmt"
	"os"
	"strings"
)

// Expand returns args with every "@file" argument replaced by the arguments in file, one per line.
// An argument "@@x" stands for the literal "@x".
func Expand(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		switch {
		case strings.HasPrefix(a, "@@"):
			out = append(out, a[1:])
		case strings.HasPrefix(a, "@") && len(a) > 1:
			data, err := os.ReadFile(a[1:])
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
