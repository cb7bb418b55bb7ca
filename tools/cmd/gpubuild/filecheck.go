package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rulesgpu/rules_gpu/tools/internal/filecheck"
)

const filecheckUsage = `usage: gpubuild filecheck [--check-prefix P]... [--input-file F] [--strict-whitespace] [--match-full-lines] [--allow-empty] CHECKFILE
  Checks its input (standard input, or --input-file) against the directives of CHECKFILE
  (CHECK:, CHECK-NEXT:, ...) as LLVM's FileCheck does, where FileCheck is not installed: exit
  status 0 when the input matches, 1 with FileCheck's diagnostics when it does not, 2 for an
  invalid check file or an empty input.`

// stdin is the input read when there is no --input-file (a variable for the tests).
var stdin io.Reader = os.Stdin

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
func runFilecheck(_ context.Context, args []string, stdout, stderr io.Writer) error {
	var o filecheck.Options
	var implicit multiFlag
	c := newCommand("filecheck", filecheckUsage, stdout, stderr)
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
	files, err := c.parse(args, nil)
	if err != nil {
		return err
	}
	if len(files) != 1 {
		return c.usageError("give one check file")
	}
	o.ImplicitCheckNot = implicit
	// As FileCheck: the check file first (an invalid one fails before the input is read).
	data, err := os.ReadFile(files[0])
	if err != nil {
		fmt.Fprintf(stderr, "gpubuild filecheck: %v\n", err)
		return errUsage
	}
	checks, err := filecheck.Parse(files[0], data, o)
	if err != nil {
		return filecheckError(stderr, err, files[0], "")
	}
	name, in := "<stdin>", stdin
	if *input != "-" {
		f, err := os.Open(*input)
		if err != nil {
			fmt.Fprintf(stderr, "gpubuild filecheck: %v\n", err)
			return errUsage
		}
		defer f.Close()
		name, in = *input, f
	}
	text, err := io.ReadAll(in)
	if err != nil {
		fmt.Fprintf(stderr, "gpubuild filecheck: reading %s: %v\n", name, err)
		return errUsage
	}
	return filecheckError(stderr, checks.Match(name, text), files[0], name)
}

// filecheckError prints FileCheck's diagnostics and returns what gives its exit status: errUsage
// (2) for an invalid check file or input, an error that names both files (1) for a mismatch.
func filecheckError(stderr io.Writer, err error, check, input string) error {
	var fe *filecheck.Error
	if !errors.As(err, &fe) {
		return err
	}
	io.WriteString(stderr, fe.Diagnostics)
	if fe.Status == 2 {
		return errUsage
	}
	return fmt.Errorf("%s does not match %s", input, check)
}
