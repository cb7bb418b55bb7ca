package cmdline

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/rulesgpu/rules_gpu/tools/internal/version"
)

// echo is a verb that prints its -O level and its arguments, and fails on the argument "fail".
func echo(_ context.Context, env Env, args []string) error {
	c := env.Command("echo", "usage: gpubuild echo [-O LEVEL] ARG...\n  prints them; gpubuild echo fail fails")
	opt := c.Int("O", 2, "a `LEVEL`")
	args, err := c.ParseArgs(args, nil)
	if err != nil {
		return err
	}
	if slices.Contains(args, "fail") {
		return errFail
	}
	if len(args) == 0 {
		return c.UsageError("no ARG")
	}
	env.Stdout.Write([]byte(strings.Join(append([]string{string(rune('0' + *opt))}, args...), " ")))
	return nil
}

var errFail = errors.New("it failed")

// A program's verbs take flags before or after their arguments, "-O3" as clang writes it, and "--"
// to end them; a program names itself in its messages and in its verbs' usage texts.
func TestProgram(t *testing.T) {
	for _, prog := range []string{"gpubuild", "gpubuilder"} {
		p := Program{Name: prog, Verbs: []Verb{{Name: "echo", Summary: "print", Run: echo}}}
		for _, tc := range []struct {
			args           []string
			code           int
			stdout, stderr string // stderr: a substring
		}{
			{args: []string{"echo", "a", "-O", "3", "b"}, stdout: "3 a b"},
			{args: []string{"echo", "-O1", "a"}, stdout: "1 a"},
			{args: []string{"echo", "--", "-O1", "-"}, stdout: "2 ./-O1 -"}, // never an option to a tool
			{args: []string{"echo", "fail"}, code: 1, stderr: prog + " echo: it failed\n"},
			{args: []string{"echo"}, code: 2, stderr: prog + " echo: no ARG\nusage: " + prog + " echo [-O LEVEL] ARG...\n  prints them; " + prog + " echo fail fails\n\nflags:\n  -O LEVEL  a LEVEL (default 2)\n"},
			{args: []string{"echo", "--nope"}, code: 2, stderr: prog + " echo: flag provided but not defined: -nope\n"},
			{args: []string{"help", "echo"}, stdout: "usage: " + prog + " echo [-O LEVEL] ARG..."},
			{args: []string{"frob"}, code: 2, stderr: prog + `: unknown verb "frob"`},
			{args: nil, code: 2, stderr: "usage: " + prog + " VERB [FLAGS] [ARGS]"},
			{args: []string{"--version"}, stdout: prog + " " + version.Version + "\n"},
			{args: []string{"-version"}, stdout: prog + " " + version.Version + "\n"},
			{args: []string{"echo", "--version"}, code: 2, stderr: prog + " echo: flag provided but not defined: -version\n"},
		} {
			var out, errs bytes.Buffer
			code := p.Run(context.Background(), tc.args, &out, &errs)
			if code != tc.code || !strings.HasPrefix(out.String(), tc.stdout) || !strings.Contains(errs.String(), tc.stderr) {
				t.Errorf("%s %q: exit %d, stdout %q, stderr %q; want %d, %q, %q", prog, tc.args, code, out.String(), errs.String(), tc.code, tc.stdout, tc.stderr)
			}
		}
	}
}
