// Command filecheck is LLVM's FileCheck in Go (tools/internal/filecheck), the test runtime of
// gpu_test: it checks a program's output against the CHECK lines of its source where FileCheck is
// not installed.
//
//	filecheck [--check-prefix P]... [--input-file F] [--strict-whitespace] [--match-full-lines] [--allow-empty] CHECKFILE
//	filecheck --version                  "filecheck VERSION", rules_gpu's version
//
// Exit status, as FileCheck's: 0 when the input matches, 1 with FileCheck's diagnostics when it
// does not, 2 for an invalid check file, an empty input or a bad command line.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/internal/cmdline"
	"github.com/rulesgpu/rules_gpu/tools/internal/filecheck"
	"github.com/rulesgpu/rules_gpu/tools/internal/params"
)

const filecheckUsage = `usage: filecheck [--check-prefix P]... [--input-file F] [--strict-whitespace] [--match-full-lines] [--allow-empty] CHECKFILE
  Checks its input (standard input, or --input-file) against the directives of CHECKFILE
  (CHECK:, CHECK-NEXT:, ...) as LLVM's FileCheck does, where FileCheck is not installed: exit
  status 0 when the input matches, 1 with FileCheck's diagnostics when it does not, 2 for an
  invalid check file or an empty input.`

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run runs the filecheck command line args on the input stdin and returns the exit status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	args, err := params.Expand(args)
	if err != nil {
		fmt.Fprintf(stderr, "filecheck: %v\n", err)
		return 2
	}
	if cmdline.IsVersion(args) {
		cmdline.PrintVersion(stdout, "filecheck")
		return 0
	}
	env := cmdline.Env{Prog: "filecheck", Stdout: stdout, Stderr: stderr}
	switch err := runFilecheck(ctx, env, stdin, args); {
	case err == nil, errors.Is(err, cmdline.ErrHelp):
		return 0
	case errors.Is(err, cmdline.ErrUsage):
		return 2
	default:
		fmt.Fprintf(stderr, "filecheck: %v\n", err)
		return 1
	}
}

// prefixList is a repeatable flag that adds prefixes to a list, each value one prefix or, when
// split, comma-separated prefixes (--check-prefix and --check-prefixes fill one list, in order).
type prefixList struct {
	list  *[]string
	split bool
}

func (p prefixList) String() string {
	if p.list == nil {
		return ""
	}
	return strings.Join(*p.list, ",")
}

func (p prefixList) Set(v string) error {
	if p.split {
		*p.list = append(*p.list, strings.Split(v, ",")...)
	} else {
		*p.list = append(*p.list, v)
	}
	return nil
}

// runFilecheck checks an input against a check file, as LLVM's FileCheck.
func runFilecheck(_ context.Context, env cmdline.Env, stdin io.Reader, args []string) error {
	var o filecheck.Options
	var implicit cmdline.MultiFlag
	c := env.Command("filecheck", filecheckUsage)
	c.Var(prefixList{list: &o.CheckPrefixes}, "check-prefix", "a directive `PREFIX` (repeatable; default CHECK)")
	c.Var(prefixList{list: &o.CheckPrefixes, split: true}, "check-prefixes", "directive `PREFIXES`, comma-separated")
	c.Var(prefixList{list: &o.CommentPrefixes, split: true}, "comment-prefixes", "comment `PREFIXES`, comma-separated (default COM,RUN)")
	c.Var(&implicit, "implicit-check-not", "a `PATTERN` checked as a CHECK-NOT between all matches (repeatable)")
	input := c.String("input-file", "-", "the input `FILE` (- is standard input)")
	c.BoolVar(&o.StrictWhitespace, "strict-whitespace", false, "match spaces and tabs exactly (else a run of them is one space)")
	c.BoolVar(&o.MatchFullLines, "match-full-lines", false, "require each pattern to match whole lines")
	c.BoolVar(&o.IgnoreCase, "ignore-case", false, "match letters in either case")
	c.BoolVar(&o.AllowEmpty, "allow-empty", false, "accept an empty input")
	c.BoolVar(&o.AllowUnusedPrefixes, "allow-unused-prefixes", false, "accept check prefixes that no directive uses")
	c.BoolVar(&o.EnableVarScope, "enable-var-scope", false, "forget variables not named $NAME at each CHECK-LABEL")
	files, err := c.ParseArgs(args, nil)
	if err != nil {
		return err
	}
	if len(files) != 1 {
		return c.UsageError("give one check file")
	}
	o.ImplicitCheckNot = implicit
	// As FileCheck: the check file first (an invalid one fails before the input is read).
	data, err := os.ReadFile(files[0])
	if err != nil {
		return c.Fail("%v", err)
	}
	checks, err := filecheck.Parse(files[0], data, o)
	if err != nil {
		return filecheckError(env.Stderr, err, files[0], "")
	}
	name, in := "<stdin>", stdin
	if *input != "-" {
		f, err := os.Open(*input)
		if err != nil {
			return c.Fail("%v", err)
		}
		defer f.Close()
		name, in = *input, f
	}
	text, err := io.ReadAll(in)
	if err != nil {
		return c.Fail("reading %s: %v", name, err)
	}
	return filecheckError(env.Stderr, checks.Match(name, text), files[0], name)
}

// filecheckError prints FileCheck's diagnostics and returns what gives its exit status: cmdline.ErrUsage
// (2) for an invalid check file or input, an error that names both files (1) for a mismatch.
func filecheckError(stderr io.Writer, err error, check, input string) error {
	var fe *filecheck.Error
	if !errors.As(err, &fe) {
		return err
	}
	io.WriteString(stderr, fe.Diagnostics)
	if fe.Status == 2 {
		return cmdline.ErrUsage
	}
	return fmt.Errorf("%s does not match %s", input, check)
}
