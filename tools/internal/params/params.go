// Package params expands Bazel parameter files in command lines.
//
// Bazel passes long command lines in parameter files: rules_gpu's actions use
// args.use_param_file("--params=%s"), so a file holds one argument per line ("multiline" format, or
// "shell" with single quotes); under --@rules_gpu//gpu:worker they use "--flagfile=%s", the form
// Bazel's worker strategy looks for. Expand replaces each "--params=FILE" or "--flagfile=FILE"
// argument by the arguments in FILE. The explicit flags, rather than Bazel's usual "@FILE", keep
// labels such as "@repo//pkg:name" literal.
package params

import (
	"fmt"
	"os"
	"strings"
)

// Flag is the prefix of a parameter file argument.
const Flag = "--params="

// WorkerFlag is the prefix of the parameter file argument of an action that a persistent worker
// may run: Bazel's workers find their requests' arguments by it.
const WorkerFlag = "--flagfile="

// Expand returns args with every "--params=FILE" and "--flagfile=FILE" argument replaced by the
// arguments in FILE, one per line. Parameter files do not nest.
func Expand(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		switch {
		case strings.HasPrefix(a, Flag), strings.HasPrefix(a, WorkerFlag):
			data, err := os.ReadFile(a[strings.IndexByte(a, '=')+1:])
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
